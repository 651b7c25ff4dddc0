"""Each Lambda ships only its own package and the layer: code several functions use lives in the
layer, so no function package may import another, and the layer imports none."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "functions"
LAYER = ROOT / "layers" / "shared"
GROUPS = sorted(path.name for path in FUNCTIONS.iterdir() if (path / "__init__.py").exists())


def imported_packages(source: Path) -> set[str]:
    """Top-level package of every import in the module, including imports inside functions."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(), filename=str(source))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_every_function_group_is_found():
    # Given / When the packages under functions/ / Then the seven route groups, the scheduled outbox publisher
    # the webhook delivery and the deploy hooks
    assert GROUPS == [
        "auth",
        "catalog",
        "deploy_hooks",
        "dictionaries",
        "orders",
        "outbox_publisher",
        "payments",
        "sales",
        "saved_cars",
        "transactions",
        "webhooks",
    ]


@pytest.mark.parametrize("group", GROUPS)
def test_a_function_imports_no_other_function(group):
    # Given every module of one function's package
    modules = sorted((FUNCTIONS / group).rglob("*.py"))

    # When its imports are read
    foreign = {
        f"{module.relative_to(ROOT)} imports {package}"
        for module in modules
        for package in imported_packages(module) & (set(GROUPS) - {group})
    }

    # Then none names another function's package (shared code belongs in the layer, layers/shared)
    assert not foreign


def test_the_layer_imports_no_function():
    # Given / When every module of the layer is read
    foreign = {
        f"{module.relative_to(ROOT)} imports {package}"
        for module in sorted(LAYER.rglob("*.py"))
        for package in imported_packages(module) & set(GROUPS)
    }

    # Then the layer depends on no function package
    assert not foreign
