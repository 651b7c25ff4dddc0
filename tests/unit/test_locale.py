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
