"""`car-retail-ops --help` (and `python -m ops --help`) is the operator's: it lists the operator commands
alone. The developer tools (`python -m tools`: OpenAPI generation, the benches) are neither its commands
nor named in its help."""

from __future__ import annotations

import re

import pytest

from ops.__main__ import build_parser
from ops.output import BadArgument
from tools.__main__ import COMMANDS as TOOLS


def test_the_operator_help_names_no_developer_tool() -> None:
    # Given / When the operator command's help, as --help prints it
    printed = build_parser().format_help()
    # Then it lists the operator's commands, and names neither a developer tool nor their package
    assert all(command in printed for command in ("indexes", "order", "partners", "catalog", "sale", "webhooks"))
    assert [word for word in [*TOOLS, "tools"] if re.search(rf"\b{word}\b", printed)] == []


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_a_developer_tool_is_no_operator_command(tool: str) -> None:
    # Given a developer tool's command / When the operator command is asked to run it / Then it is refused
    with pytest.raises(BadArgument, match="invalid choice"):
        build_parser().parse_args([tool])
