"""Locale from `accept-language`: ru, uz or en; anything else is uz. Localized fields are stored as
`{ru, uz, en}` and rendered as one string in the chosen locale."""

from __future__ import annotations

import functools
from typing import Any, Literal

Locale = Literal["ru", "uz", "en"]
LOCALES: tuple[Locale, ...] = ("ru", "uz", "en")
DEFAULT_LOCALE: Locale = "uz"


@functools.lru_cache(maxsize=256)  # clients send a few distinct values, each on every request
def parse_accept_language(header: str | None) -> Locale:
    """`ru-RU,ru;q=0.9` gives ru. The first supported language in the client's order of preference wins."""
    if not header:
        return DEFAULT_LOCALE
    candidates: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        candidates.append((-quality, position, tag.strip().lower().split("-")[0]))
    for negative_quality, _, language in sorted(candidates):
        if negative_quality < 0 and language in LOCALES:
            return language
    return DEFAULT_LOCALE


# The languages a localized text is looked up in, for each locale: its own, uz, then the others.
FALLBACKS: dict[Locale, tuple[Locale, ...]] = {
    locale: tuple(dict.fromkeys((locale, DEFAULT_LOCALE, *LOCALES))) for locale in LOCALES
}


def localize(value: Any, locale: Locale) -> Any:
    """One string from a `{ru, uz, en}` mapping, falling back to uz, then any language; other values pass."""
    if isinstance(value, dict):
        for key in FALLBACKS[locale]:
            text = value.get(key)
            if text:
                return text
        # Every language empty: no text; a mapping of other keys is not a localized text.
        return "" if any(key in value for key in LOCALES) else value
    return value
