"""The README's route table is the spec's route table."""

from __future__ import annotations

import re

from local.template import ROOT
from tests.route_table import ROUTES

ACCESS = {"Public": "public", "JWT": "jwt", "Optional JWT": "optional_jwt"}
ROW = re.compile(r"^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \| (\w+) \| (Public|JWT|Optional JWT) \|$")


def test_the_readme_lists_every_route_with_its_function_and_access_level() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [match.groups() for line in text.splitlines() if (match := ROW.match(line))]
    listed = [(method, path, function, ACCESS[access]) for method, path, function, access in rows]
    assert listed == [tuple(route) for route in ROUTES]
