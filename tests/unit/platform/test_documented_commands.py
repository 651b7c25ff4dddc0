"""Every operator command the documents write out in full (shell blocks, the README's command table)
is one the command line accepts, as written: `python -m ops …` and `car-retail-ops …` alike; and every
developer tool they name (`python -m tools …`) is one `python -m tools` accepts. The commands themselves
are run by their own tests (tests/integration/ops/, and the runbook's; the benches' in tests/*/costs)."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex

import pytest

from local.template import ROOT
from ops.__main__ import build_parser
from ops.output import BadArgument
from tests.documented import shell_blocks
from tools import bench
from tools.__main__ import build_parser as tools_parser

DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
PREFIXES = ("python -m ops ", "car-retail-ops ", ".venv/bin/car-retail-ops ")
TABLE_COMMAND = re.compile(r"^\| `((?:python -m ops|car-retail-ops) [^`]*)` \|", re.MULTILINE)
# A placeholder, not a value: `…`, `<partner>`, `add|list`, `MODIFICATION PRICE`.
PLACEHOLDER = re.compile(r"…|<|\\\||\|\b|\b(?!READY\b|IMPLEMENTED\b|CANCELLED\b)[A-Z]{4,}\b(?![0-9])")
# A developer tool as the documents name it, in running text or a table (`python -m tools bench --opening`).
TOOL_COMMAND = re.compile(r"`(?:PYTHONPATH=\S+ )?python -m tools ([^`]*)`")


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
    try:
        build_parser().parse_args(arguments)
    except BadArgument as refused:
        pytest.fail(f"{command}: {refused}")


def documented_tool_commands() -> list[str]:
    found = {
        " ".join(command.split())
        for document in DOCUMENTS
        for command in TOOL_COMMAND.findall(document.read_text(encoding="utf-8"))
    }
    return sorted(command for command in found if not PLACEHOLDER.search(command))


def test_the_documents_name_the_developer_tools() -> None:
    assert {command.split()[0] for command in documented_tool_commands()} == {"bench", "openapi"}


def exit_status(parser: argparse.ArgumentParser, arguments: list[str]) -> tuple[int, str]:
    """What parsing `arguments` ends with: 0 when accepted (`--help` prints and exits 0), argparse's 2 when
    refused, and what it wrote."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as written:
        try:
            parser.parse_args(arguments)
        except SystemExit as stopped:
            return int(stopped.code or 0), written.getvalue()
    return 0, ""


@pytest.mark.parametrize("command", documented_tool_commands())
def test_a_documented_developer_tool_is_accepted_as_written(command: str) -> None:
    # Given a developer tool's command as a document writes it (bench has its own options)
    arguments = shlex.split(command)
    parser, rest = (bench.build_parser(), arguments[1:]) if arguments[0] == "bench" else (tools_parser(), arguments)
    # When it is parsed / Then it is accepted
    status, written = exit_status(parser, rest)
    assert status == 0, f"{command}: {written}"


def test_a_developer_tool_written_wrong_is_refused() -> None:
    # Given / When a bench option that does not exist is parsed / Then it is refused, so the check above bites
    assert exit_status(bench.build_parser(), ["--no-such-option"])[0] == 2
