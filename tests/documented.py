"""What the documentation tells an operator: a section's shell blocks, its commands and the settings it
names; and what exists to be named: the settings models' fields, the template's outputs and the
environment variables the code, the template and the Makefile read."""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

from local.template import ROOT, load_template

OPERATIONS = ROOT / "docs" / "OPERATIONS.md"
README = ROOT / "README.md"
SHELL_BLOCK = re.compile(r"^[ \t]*```sh\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)
ENVIRONMENT_READ = re.compile(r"""(?:environ\.get|environ\[|getenv)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")


def section(path: Path, title: str) -> str:
    """The text of the `## title` section, up to the next `## ` heading."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def shell_blocks(text: str) -> list[list[str]]:
    """Each ```sh block as its lines, dedented, continuation lines (`\\`) joined."""
    blocks = []
    for found in SHELL_BLOCK.finditer(text):
        lines: list[str] = []
        pending = ""
        for raw in found.group(1).splitlines():
            line = raw.strip()
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            lines.append(pending + line)
            pending = ""
        blocks.append([line for line in lines if line])
    return blocks


def exported(lines: list[str]) -> dict[str, str]:
    """The variables `export A=1 B=2` lines set, commented-out alternatives included (`# or, ...: export`)."""
    found: dict[str, str] = {}
    for line in lines:
        _, marker, rest = line.partition("export ")
        if not marker:
            continue
        for word in shlex.split(rest):
            name, equals, value = word.partition("=")
            if equals:
                found.setdefault(name, value)
    return found


@cache
def settings_names() -> frozenset[str]:
    """Every setting the settings models read from the environment (each field's name in capitals)."""
    from core.settings import Settings
    from domain.identity.settings import IdentitySettings
    from domain.orders.settings import OrderSettings
    from domain.partners.settings import WebhookSettings
    from domain.payments.settings import PaymentSettings

    models: list[Any] = [Settings, IdentitySettings, OrderSettings, PaymentSettings, WebhookSettings]
    return frozenset(name.upper() for model in models for name in model.model_fields)


@cache
def template() -> dict[str, Any]:
    return load_template()


def template_variables() -> frozenset[str]:
    """The environment variables the template gives the functions (Globals and each function)."""
    found = set(template()["Globals"]["Function"].get("Environment", {}).get("Variables", {}))
    for resource in template()["Resources"].values():
        if resource.get("Type") == "AWS::Serverless::Function":
            found |= set(resource.get("Properties", {}).get("Environment", {}).get("Variables", {}))
    return frozenset(found)


@cache
def variables_the_code_reads() -> frozenset[str]:
    """Environment variables read by name in the code (`os.environ.get("PORT")`) and set or read by the
    Makefile (`export NAME`, `NAME ?=`)."""
    found: set[str] = set()
    for folder in ("layers/shared", "functions", "local", "ops", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(ENVIRONMENT_READ.findall(path.read_text(encoding="utf-8")))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found |= set(re.findall(r"^(?:export )?([A-Z][A-Z0-9_]+)\s*(?::=|\?=|=)", makefile, re.MULTILINE))
    return frozenset(found)
