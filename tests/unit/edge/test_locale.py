from __future__ import annotations

import pytest

from core.locale import localize, parse_accept_language


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ru", "ru"),
        ("en", "en"),
        ("uz", "uz"),
        ("ru-RU,ru;q=0.9", "ru"),
        ("en-US,en;q=0.9,ru;q=0.8", "en"),
        ("de-DE,de;q=0.9,ru;q=0.5", "ru"),
        ("fr", "uz"),
        ("", "uz"),
        (None, "uz"),
        ("en;q=0.1,ru;q=0.9", "ru"),
        ("EN", "en"),
        ("ru;q=abc", "uz"),
    ],
)
def test_accept_language_picks_the_preferred_supported_locale(header: str | None, expected: str) -> None:
    assert parse_accept_language(header) == expected


def test_localize_renders_one_string_and_falls_back_to_uzbek() -> None:
    name = {"ru": "Кобальт", "uz": "Kobalt", "en": "Cobalt"}
    assert localize(name, "ru") == "Кобальт"
    assert localize({"uz": "Kobalt", "en": ""}, "en") == "Kobalt"
    assert localize("plain", "en") == "plain"


def test_localize_falls_back_to_any_language_and_leaves_other_mappings_alone() -> None:
    # Given texts missing the caller's language and uz, an empty text, and a mapping that is no text
    only_russian = {"ru": "Кобальт", "uz": "", "en": None}
    empty = {"ru": "", "uz": "", "en": ""}
    location = {"lat": 41.28, "lng": 69.2}
    # When they are localized / Then the one language there is answers, the empty text is empty, the
    # mapping passes as it is
    assert localize(only_russian, "en") == "Кобальт"
    assert localize({"en": "Cobalt"}, "ru") == "Cobalt"
    assert localize(empty, "ru") == ""
    assert localize(location, "uz") is location
