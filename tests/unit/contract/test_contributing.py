"""CONTRIBUTING's "Adding a route" stays true: every file it names exists, it names every file that lists
every route (a new such list is a new place to declare a route in), and its test command runs every test
that enumerates the routes (the route table, the template's routes, the sample events, openapi.json)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

from local.template import ROOT
from tests.documented import section, shell_blocks
from tests.route_table import ROUTES

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
RECIPE = section(CONTRIBUTING, "Adding a route")
CODE_BLOCK = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
# A repository path in backticks: a relative path with a folder, or a file at the root; `<group>` a placeholder.
PATH = re.compile(r"`([\w.<>-]+/[\w./<>-]*|[\w-]+\.(?:md|yaml|toml|json))`")
# How a test module reaches every route: the route table, the template's routes or the resolvers, the
# sample events, or the document.
ENUMERATES_ROUTES = re.compile(
    r"from tests\.route_table import|\bapi_routes\(|\bresolver_routes\(|ROOT / \"events\"|"
    r"from tests\.integration\.platform\.test_events import|from ops\.openapi import [^\n]*\bDOCUMENT\b"
)


def named_paths() -> set[str]:
    return set(PATH.findall(CODE_BLOCK.sub("", RECIPE)))


def matches(named: str) -> list[Path]:
    """The files or folders a named path stands for, its placeholders (`<group>`) standing for any name."""
    return sorted(ROOT.glob(re.sub(r"<[^>]+>", "*", named).rstrip("/")))


def tracked_files() -> list[Path]:
    git = shutil.which("git")
    assert git is not None, "git is needed to list the tracked files"
    # A fixed command, no input: nothing untrusted reaches the process.
    listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True)  # noqa: S603
    return [ROOT / name for name in listed.stdout.split("\0") if name]


def lists_every_route(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        return False
    return all(route.path in text or route.path.replace("{id}", "<id>") in text for route in ROUTES)


def recipe_test_command() -> list[str]:
    """The paths the recipe's pytest command runs."""
    for block in shell_blocks(RECIPE):
        for line in block:
            if "-m pytest" in line:
                return [word for word in shlex.split(line) if word.startswith("tests/")]
    raise AssertionError("the recipe has no pytest command")


def test_every_path_the_recipe_names_exists() -> None:
    # Given every repository path the recipe names (at least the places a route is declared in)
    named = named_paths()
    assert {"template.yaml", "tests/route_table.py", "openapi.json", "CHANGELOG.md", "pyproject.toml"} <= named
    # Then each stands for something that is there
    assert [path for path in sorted(named) if not matches(path)] == []


def test_the_recipe_names_every_file_that_lists_every_route() -> None:
    # Given the tracked files that name every route (the template, the route table, the docs' tables...)
    registries = {path.relative_to(ROOT).as_posix() for path in tracked_files() if lists_every_route(path)}
    assert {"template.yaml", "tests/route_table.py", "docs/ARCHITECTURE.md", "docs/INTERFACE.md"} <= registries
    # Then the recipe names each: a new route must be added there too
    assert registries - named_paths() == set()


def test_the_recipes_command_runs_every_test_that_enumerates_the_routes() -> None:
    # Given the test modules that reach every route, and what the recipe's pytest command runs
    enumerating = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if ENUMERATES_ROUTES.search(path.read_text(encoding="utf-8"))
    }
    assert "tests/unit/contract/test_route_contract.py" in enumerating
    run = recipe_test_command()
    assert [path for path in run if not (ROOT / path).exists()] == []
    # Then the command runs each of them, and the architecture's tests
    covered = {
        module for module in enumerating if any(module == p or module.startswith(p.rstrip("/") + "/") for p in run)
    }
    assert enumerating - covered == set()
    assert "tests/unit/architecture" in run
