"""Every operator command the documents write out in full (shell blocks, the README's command table)
is one the command line accepts, as written: `python -m ops …` and `car-retail-ops …` alike. The
commands themselves are run by their own tests (tests/integration/ops/, and the runbook's)."""

from __future__ import annotations

import re
import shlex

import pytest

from local.template import ROOT
from ops.__main__ import build_parser
from ops.output import BadArgument
from tests.documented import shell_blocks

DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
PREFIXES = ("python -m ops ", "car-retail-ops ", ".venv/bin/car-retail-ops ")
TABLE_COMMAND = re.compile(r"^\| `((?:python -m ops|car-retail-ops) [^`]*)` \|", re.MULTILINE)
# A placeholder, not a value: `…`, `<partner>`, `add|list`, `MODIFICATION PRICE`.
PLACEHOLDER = re.compile(r"…|<|\\\||\|\b|\b(?!READY\b|IMPLEMENTED\b|CANCELLED\b)[A-Z]{4,}\b(?![0-9])")


def documented_commands() -> list[str]:
    found: set[str] = set()
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        lines = [line for block in shell_blocks(text) for line in block] + TABLE_COMMAND.findall(text)
        for line in lines:
            command = line.split(" # ")[0].strip()
            for prefix in PREFIXES:
                if prefix in command and not PLACEHOLDER.search(command):
                    found.add(command[command.index(prefix) + len(prefix) :])
    return sorted(found)


def test_the_documents_write_out_commands() -> None:
    assert len(documented_commands()) >= 20


@pytest.mark.parametrize("command", documented_commands())
def test_a_documented_command_is_accepted_as_written(command: str) -> None:
    # Given a command as a document writes it / When it is parsed / Then it is accepted
    arguments = shlex.split(command)
    if arguments[0] == "bench":
        return  # its own parser (ops.bench), run by `make bench`'s test
    try:
        build_parser().parse_args(arguments)
    except BadArgument as refused:
        pytest.fail(f"{command}: {refused}")
