"""The catalogue of error codes: each stable code with its kind (hence its HTTP status), what a client app
should do about it, and its message in English, Russian (Cyrillic) and Uzbek (Latin script).

Code anywhere raises a kind of `core.errors` with one of these codes (`raise Conflict("PROMO_CODE_USED_UP")`);
the edge answers it with the kind's status and the message in the request's language, its `{params}`
filled in. Each area's codes are in a module of this package; the catalogue gathers them in the order
docs/INTERFACE.md's table lists them, a table generated from here (`python -m tools openapi`).
Codes never change meaning and are never reused; messages may be reworded.
"""

from collections.abc import Mapping
from typing import Any

from core.errors import FieldProblem
from core.locale import Locale, localize
from edge.error_codes import catalog, common, fields, financing, gate, identity, operators, orders, payments
from edge.error_codes.entry import ErrorCode
from edge.error_codes.fields import PYDANTIC_TYPES

__all__ = ["CODES", "PYDANTIC_TYPES", "ErrorCode", "field_code", "message", "rendered_errors"]

CODES: dict[str, ErrorCode] = {
    **common.CODES,
    **gate.CODES,
    **identity.CODES,
    **catalog.CODES,
    **financing.CODES,
    **orders.CODES,
    **payments.CODES,
    **operators.CODES,
    **fields.CODES,
}


def message(code: str, locale: Locale, params: Mapping[str, Any] | None = None) -> str:
    """The code's message in `locale`, its params filled in; a code missing from the catalogue (a bug
    the catalogue's test catches) answers the generic message rather than fail the answer."""
    entry = CODES.get(code) or CODES["INTERNAL_ERROR"]
    template = entry.text(locale)
    # A param may itself be a text in each language (`{"ru": ..., "uz": ..., "en": ...}`).
    values = {name: localize(value, locale) for name, value in (params or {}).items()}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        # Up to the first param, without the clause that would name it ("...; quote request {requestId}").
        return entry.text(locale).split("{", 1)[0].split(";", 1)[0].rstrip(" :")


def field_code(pydantic_error: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The code and params of one pydantic validation error: our own validators' codes as they are
    (`core.errors.invalid_value`), pydantic's types through PYDANTIC_TYPES, anything else FIELD_INVALID."""
    kind = str(pydantic_error.get("type", ""))
    context: Mapping[str, Any] = pydantic_error.get("ctx") or {}
    if kind in CODES:
        return kind, dict(context)
    code, params = PYDANTIC_TYPES.get(kind, ("FIELD_INVALID", {}))
    return code, {name: context.get(source, "") for name, source in params.items()}


def rendered_errors(problems: list[FieldProblem] | None, locale: Locale) -> list[dict[str, str]] | None:
    """`errors[]` of the envelope: each field with its code and its message in `locale`."""
    if problems is None:
        return None
    return [
        {
            "field": problem["field"],
            "code": problem["code"],
            "message": message(problem["code"], locale, problem["params"]),
        }
        for problem in problems
    ]
