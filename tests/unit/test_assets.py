"""Storage keys become URLs under the assets base; full URLs pass unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from common.assets import url
from common.settings import reset_settings


@pytest.fixture
def base(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ASSETS_BASE_URL", "https://cdn.example.com/media/")
    reset_settings()
    yield
    reset_settings()


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        ("cars/cobalt.svg", "https://cdn.example.com/media/cars/cobalt.svg"),
        ("/cars/cobalt.svg", "https://cdn.example.com/media/cars/cobalt.svg"),
        ("https://img.example.org/a.png", "https://img.example.org/a.png"),
        ("http://img.example.org/a.png", "http://img.example.org/a.png"),
        (None, None),
        ("", None),
    ],
)
def test_url(base: None, stored: str | None, expected: str | None) -> None:
    assert url(stored) == expected
