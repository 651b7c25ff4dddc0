"""The catalogue of error codes: every code in three languages with the same params, every error the
code base builds names a declared code of its kind, and nothing declared is dead."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest

from core.errors import AppError, InvalidInput
from edge.error_codes import CODES, PYDANTIC_TYPES, field_code, message
from local.template import load_template
from tools import error_docs
from tools.error_reach import ROOT, CodeBase, Construction, source_files
from tools.openapi import AUTHENTICATE, GATE

CYRILLIC = re.compile("[А-Яа-яЁё]")
UPPER_SNAKE_CASE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")


@pytest.fixture(scope="module")
def everything() -> CodeBase:
    """The layer, the functions, the local server, the operator commands and the developer tools."""
    roots = (ROOT / "layers" / "shared", ROOT / "functions", ROOT / "local", ROOT / "ops", ROOT / "tools")
    return CodeBase(source_files(roots))


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_its_message_in_russian_uzbek_and_english_with_the_same_params(code: str) -> None:
    entry = CODES[code]
    assert UPPER_SNAKE_CASE.match(code)
    assert all((entry.en, entry.ru, entry.uz, entry.action))
    # Russian in Cyrillic, Uzbek in Latin script, English in English
    assert CYRILLIC.search(entry.ru), entry.ru
    assert not CYRILLIC.search(entry.uz), entry.uz
    assert re.search("[A-Za-z]", entry.uz), entry.uz
    assert entry.en.isascii(), entry.en
    # The same placeholders in all three
    assert set(re.findall(r"\{(\w+)\}", entry.ru)) == entry.params()
    assert set(re.findall(r"\{(\w+)\}", entry.uz)) == entry.params()


def test_a_message_is_filled_in_the_language_asked() -> None:
    assert message("ORDER_NOT_PAYABLE", "ru", {"status": "PAID"}) == "Заказ в статусе PAID и не принимает оплату"
    assert message("ORDER_NOT_PAYABLE", "uz", {"status": "PAID"}) == "Buyurtma PAID holatida va toʻlov qabul qilmaydi"
    # A code missing from the catalogue (a bug this file's tests catch) still answers a generic message
    assert message("NO_SUCH_CODE", "en") == "Internal server error"


def _kind(built: Construction) -> type[Any]:
    if built.kind == "invalid_value":
        return InvalidInput
    module, _, name = built.kind.rpartition(".")
    found: type[Any] = getattr(importlib.import_module(module), name)
    return found


def test_every_error_the_code_builds_names_a_declared_code_of_its_kind_with_its_params(everything: CodeBase) -> None:
    problems = []
    for built in everything.constructions():
        where = f"{built.module}:{built.line}"
        if built.code is None:
            if not built.passed_on:
                problems.append(f"{where}: the code is not a literal (nor a code passed on)")
            continue
        if built.code not in CODES:
            problems.append(f"{where}: {built.code} is not in the catalogue (edge/error_codes/)")
            continue
        entry = CODES[built.code]
        kind = _kind(built)
        if not (isinstance(kind, type) and issubclass(kind, AppError)):
            continue  # answered by the edge itself (edge.responses.error...)
        if not issubclass(kind, entry.kind):
            problems.append(f"{where}: {built.code} is a {entry.kind.__name__}, raised as {kind.__name__}")
        if built.params is not None and not entry.params() <= built.params:
            problems.append(f"{where}: {built.code} needs {sorted(entry.params())}, given {sorted(built.params)}")
    assert problems == []


def test_every_declared_code_is_answered_somewhere(everything: CodeBase) -> None:
    built = {item.code for item in everything.constructions()}
    built |= {code for table in everything.code_tables.values() for code in table}  # SERVER_REFUSALS...
    mapped = {code for code, _ in PYDANTIC_TYPES.values()} | {"FIELD_INVALID"}
    gateway = set(re.findall(r'"code":"(\w+)"', (ROOT / "template.yaml").read_text(encoding="utf-8")))
    assert set(CODES) - built - mapped - gateway == set()


def test_pydantic_errors_become_codes_with_their_params() -> None:
    assert field_code({"type": "missing", "loc": ("body", "phone")}) == ("FIELD_REQUIRED", {})
    assert field_code({"type": "greater_than_equal", "ctx": {"ge": 1}}) == ("MUST_BE_AT_LEAST", {"limit": 1})
    assert field_code({"type": "INVALID_PHONE", "ctx": {}}) == ("INVALID_PHONE", {})
    assert field_code({"type": "something_new"}) == ("FIELD_INVALID", {})
    for code, params in PYDANTIC_TYPES.values():
        assert set(params) == CODES[code].params(), code


def test_the_gateways_own_answers_carry_their_code_and_english_message() -> None:
    answers = load_template()["Resources"]["Api"]["Properties"]["GatewayResponses"]
    bodies = [
        answer["ResponseTemplates"]["application/json"] for answer in answers.values() if "ResponseTemplates" in answer
    ]
    assert bodies
    for body in bodies:
        code = re.search(r'"code":"(\w+)"', body)
        assert code, body
        entry = CODES[code.group(1)]
        assert f'"message":"{entry.en}"' in body
        assert f'"statusCode":{entry.http_status()}' in body


def test_the_gate_and_the_token_checks_are_found_where_the_document_looks_for_them() -> None:
    # tools.openapi lists these codes on every operation of an access level: they must really be there
    base = CodeBase(source_files())
    assert {"MISSING_HEADER", "CLIENT_KEY_UNKNOWN"} <= base.codes([GATE])
    assert {"TOKEN_MISSING", "TOKEN_INVALID", "TOKEN_EXPIRED"} <= base.codes(AUTHENTICATE)


def test_the_interface_documents_every_code_as_the_catalogue_says() -> None:
    committed = error_docs.INTERFACE.read_text(encoding="utf-8")
    assert committed == error_docs.rendered(committed), "docs/INTERFACE.md is out of date: run `make openapi`"
    assert all(f"| `{code}` |" in committed for code in CODES)
