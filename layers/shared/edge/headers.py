"""Reading a request's headers from an API Gateway (REST, v1) event and adding headers to a proxy result."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

# Headers whose values are lists: a second setter adds to them instead of replacing them.
LISTS = frozenset({"vary"})


@functools.lru_cache(maxsize=64)
def _joined(before: str, given: str) -> str:
    """A list header's values and those added, each once (`Vary`: "Accept-Language, fingerprint" and
    "Origin"). Kept per pair: the values are our own few constants, and splitting and joining them again
    was most of putting an answer's headers on."""
    parts = [part.strip() for part in f"{before}, {given}".split(",") if part.strip()]
    return ", ".join(dict.fromkeys(parts))


def request_headers(event: Mapping[str, Any]) -> dict[str, str]:
    """The request's headers by lower-case name, read once per request (header names have no case)."""
    return {str(name).lower(): str(value) for name, value in (event.get("headers") or {}).items()}


def combined(first: Mapping[str, str], then: Mapping[str, str]) -> dict[str, str]:
    """Two sets of headers as one, as `set_headers` puts them when given one, then the other (`Vary`
    values joined): one pass over the answer's headers instead of two."""
    merged = dict(first)
    for name, given in then.items():
        before = merged.pop(name, None)
        if before is not None and name.lower() in LISTS:
            merged[name] = _joined(before, given)
        else:
            merged[name] = given
    return merged


def set_headers(result: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
    """Put `headers` on a function's proxy result (`multiValueHeaders` when it has them, else `headers`);
    `Vary` values are added to those already there."""
    key = "multiValueHeaders" if "multiValueHeaders" in result else "headers"
    current: dict[str, Any] = dict(result.get(key) or {})
    names: dict[str, str] = {}  # lower-case name -> the name as it is set
    for name in current:
        names.setdefault(name.lower(), name)
    for name, given in headers.items():
        lower = name.lower()
        value = given
        existing = names.get(lower)
        if existing is not None:
            before = current.pop(existing)
            if lower in LISTS:
                value = _joined(", ".join(before) if isinstance(before, list) else str(before), given)
        current[name] = [value] if key == "multiValueHeaders" else value
        names[lower] = name
    result[key] = current
    return result
