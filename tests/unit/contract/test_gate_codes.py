"""Every code the request gate answers for a route is in that route's list in openapi.json: the gate is
run on each route's own declaration (its access level, its signed links) with requests that break each
of its rules, and the answer's code must be one the document lists for that status.

The lists are read from the code (`tools.error_reach`, `tools.openapi.route_codes`); this test catches a
route whose declaration the document reads differently from the gate (a JWT route that also opens by a
signed link lost TOKEN_MISSING: it was told apart from JWT by which policy object it was)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from core.errors import AppError, NotAuthenticated
from edge.app import RouteDeclaration, gate
from edge.errors import status_of
from tests.factories import DEMO_CLIENT_KEY, api_event
from tools.openapi import COMMON_HEADER_SCHEMES, DOCUMENT, resolver_routes

ROUTES = [
    pytest.param(route, app, declared, id=f"{route.method} {route.path}") for route, app, declared in resolver_routes()
]


OTHER_PARTNERS_TOKEN = "issued-to-another-partner"


class RefusingCallers:
    """Knows the demo partner; every token is refused as forged, or as another partner's."""

    def partner_name(self, client_key: str) -> str | None:
        return "Demo partner" if client_key == DEMO_CLIENT_KEY else None

    def user_exists(self, user_id: str) -> bool:
        return False

    def verify_access_token(self, token: str, partner: str) -> str:
        if token == OTHER_PARTNERS_TOKEN:
            raise NotAuthenticated("TOKEN_OTHER_PARTNER")
        raise NotAuthenticated("TOKEN_INVALID")


# Requests breaking one rule of the gate each: a common header, the partner key, the token, a signed link.
BREAKS: dict[str, dict[str, Any]] = {
    "no User-Agent": {"headers": {"User-Agent": ""}},
    "no fingerprint": {"headers": {"fingerprint": ""}},
    "no client": {"headers": {"client": ""}},
    "a long fingerprint": {"headers": {"fingerprint": "f" * 513}},
    "an unknown partner": {"headers": {"client": "nobody"}},
    "no token": {},
    "not a bearer token": {"headers": {"Authorization": "Basic abc"}},
    "a forged token": {"headers": {"Authorization": "Bearer forged"}},
    "another partner's token": {"headers": {"Authorization": f"Bearer {OTHER_PARTNERS_TOKEN}"}},
    "a forged signed link": {"query": {"signature": "forged", "expires": "1"}},
}


def documented(method: str, path: str, status: int) -> list[str]:
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    response = document["paths"][path][method.lower()]["responses"].get(str(status), {})
    schema = response.get("content", {}).get("application/json", {}).get("schema", {"allOf": [{}, {}]})
    codes: list[str] = schema["allOf"][1].get("properties", {}).get("code", {}).get("enum", [])
    return codes


@pytest.mark.parametrize(("route", "app", "declared"), ROUTES)
@pytest.mark.parametrize("broken", BREAKS)
def test_every_refusal_of_the_gate_is_in_the_routes_list(
    route: Any, app: Any, declared: RouteDeclaration, broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a request of the route that breaks one rule of the gate
    monkeypatch.setattr(app, "callers", RefusingCallers())
    event = api_event(route.method, route.path, **BREAKS[broken])
    headers = {name.lower(): value for name, value in event["headers"].items()}
    # When the gate judges it
    refused: AppError | None = None
    try:
        gate(app, event, headers, "en", declared)
    except AppError as refusal:
        refused = refusal
    # Then a refusal's code is one the document lists for the route and the status
    if refused is not None:
        assert refused.code in documented(route.method, route.path, status_of(refused)), (broken, refused.code)


@pytest.mark.parametrize(("route", "app", "declared"), ROUTES)
@pytest.mark.parametrize("scheme", COMMON_HEADER_SCHEMES.values(), ids=lambda scheme: scheme["name"])
def test_a_missing_common_header_is_the_status_its_scheme_declares(
    route: Any, app: Any, declared: RouteDeclaration, scheme: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given what openapi.json tells a client about a missing common header ("Missing: 400")
    declared_status = int(re.search(r"Missing: (\d+)", scheme["description"]).group(1))  # type: ignore[union-attr]
    monkeypatch.setattr(app, "callers", RefusingCallers())
    event = api_event(route.method, route.path, headers={scheme["name"]: ""})
    headers = {name.lower(): value for name, value in event["headers"].items() if value}
    # When a request of the route comes without it
    with pytest.raises(AppError) as refused:
        gate(app, event, headers, "en", declared)
    # Then the gate answers that status, with a code the route's list has for it
    assert status_of(refused.value) == declared_status
    assert refused.value.code in documented(route.method, route.path, declared_status)
