"""The repository's documentation describes the routes it serves, and stands alone: docs/ARCHITECTURE.md
and docs/INTERFACE.md list the contract's routes, and no tracked file points outside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess

from local.template import ROOT
from tests.route_table import ROUTES

ACCESS = {"Public": "public", "JWT": "jwt", "Optional JWT": "optional_jwt"}
ROW = re.compile(r"^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \| (\w+) \| (Public|JWT|Optional JWT) \|$")
INTERFACE_ROW = re.compile(r"^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \| (Public|JWT|Optional JWT) \| .+ \|$")
# Documents that live outside this repository, and section numbers of them.
OUTSIDE_REFERENCE = re.compile(
    r"\.\./shared|/work/shared|shared/spec|(?-i:\bDESIGN\b)|interface-spec|\bspec(?:ification)?\s+§?\d|\bsection\s+\d",
    re.IGNORECASE,
)


def test_the_architecture_lists_every_route_with_its_function_and_access_level() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = [match.groups() for line in text.splitlines() if (match := ROW.match(line))]
    listed = [(method, path, function, ACCESS[access]) for method, path, function, access in rows]
    assert listed == [tuple(route) for route in ROUTES]


def test_the_interface_document_describes_every_route_with_its_access_level() -> None:
    # Given docs/INTERFACE.md's route tables
    text = (ROOT / "docs" / "INTERFACE.md").read_text(encoding="utf-8")
    rows = [match.groups() for line in text.splitlines() if (match := INTERFACE_ROW.match(line))]
    # Then each route is described once, with the access level the code enforces
    described = sorted((method, path, ACCESS[access]) for method, path, access in rows)
    assert described == sorted((route.method, route.path, route.access) for route in ROUTES)


def test_the_readme_links_to_the_docs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    documents = ("INTERFACE.md", "DECISIONS.md", "DATA_MODEL.md", "DEMO_DATA.md", "ARCHITECTURE.md", "PERFORMANCE.md")
    for document in documents:
        assert f"(docs/{document})" in text
        assert (ROOT / "docs" / document).is_file()


def test_no_tracked_file_refers_to_documents_outside_the_repository() -> None:
    # Given every file git tracks (this one excepted: it spells the patterns out)
    git = shutil.which("git")
    assert git is not None, "git is needed to list the tracked files"
    # A fixed command, no input: nothing untrusted reaches the process.
    tracked = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True)  # noqa: S603
    names = tracked.stdout.split("\0")
    this_file = "tests/unit/contract/test_readme.py"
    # When each text file is searched for a reference to ../shared, its documents or their sections
    found = []
    for name in filter(None, names):
        path = ROOT / name
        if name == this_file or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binaries
        found += [
            f"{name}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), 1)
            if OUTSIDE_REFERENCE.search(line)
        ]
    # Then there is none: the repository stands alone, its docs/ say what the service serves
    assert found == []
