"""Storage keys become URLs under the assets base; full URLs pass unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent

from core.assets import url
from core.settings import reset_settings
from edge.links import api_base_url


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


@pytest.mark.parametrize(
    ("domain", "called", "expected"),
    [
        # the execute-api domain puts the stage before the route; a custom domain its base path, or nothing
        (
            "abc123.execute-api.eu-central-1.amazonaws.com",
            "/dev/api/v1/x",
            "https://abc123.execute-api.eu-central-1.amazonaws.com/dev",
        ),
        ("api.car-retail.uz", "/v1/api/v1/x", "https://api.car-retail.uz/v1"),
        ("api.car-retail.uz", "/api/v1/x", "https://api.car-retail.uz"),
    ],
)
def test_links_to_the_apis_own_files_use_the_address_the_client_called(domain: str, called: str, expected: str) -> None:
    event = APIGatewayProxyEvent(
        {
            "path": "/api/v1/x",
            "headers": {"X-Forwarded-Proto": "https", "Host": domain},
            "requestContext": {"domainName": domain, "path": called},
        }
    )
    assert api_base_url(event) == expected
