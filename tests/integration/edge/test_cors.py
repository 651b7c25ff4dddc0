"""CORS through the local API Gateway, as a browser does it: a preflight, then the cross-origin call.
Locally the allowed origins are http://localhost:* and http://127.0.0.1:* (any port)."""

from __future__ import annotations

import pytest
import requests

from tests.factories import ApiClient

ME = "/api/v1/auth/me"
LOGIN = "/api/v1/auth/login"
ORDERS = "/api/v1/orders"
WEB_APP = "http://localhost:5173"
NOT_ALLOWED = "https://evil.example"


def preflight(api: ApiClient, path: str, origin: str, method: str = "POST") -> requests.Response:
    """What a browser sends before a call with an Authorization header or a JSON body: no common headers."""
    return api.session.options(
        api.base_url + path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization,content-type,fingerprint,client",
        },
        timeout=30,
    )


def allowed_header_names(response: requests.Response) -> set[str]:
    return {name.strip().lower() for name in response.headers["Access-Control-Allow-Headers"].split(",")}


@pytest.mark.parametrize("origin", [WEB_APP, "http://127.0.0.1:8080", "http://localhost:3000"])
def test_a_preflight_from_an_allowed_origin_is_answered_without_a_function(api: ApiClient, origin: str) -> None:
    # When a browser on a local web app asks whether it may POST an order with a token
    response = preflight(api, ORDERS, origin)
    # Then the gateway allows exactly that origin, the method and every header the API needs
    assert response.status_code == 204, response.text
    assert response.headers["Access-Control-Allow-Origin"] == origin
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert {"authorization", "content-type", "fingerprint", "client", "idempotency-key"} <= allowed_header_names(
        response
    )
    assert int(response.headers["Access-Control-Max-Age"]) > 0


def test_a_cross_origin_post_and_get_from_an_allowed_origin_can_be_read(api: ApiClient) -> None:
    # Given a browser on an allowed origin
    origin = {"Origin": WEB_APP}
    # When it logs in (POST) and reads the profile (GET) with the token
    login = api.post(LOGIN, json={"phone": "+998901112233"}, headers=origin, auth=False)
    token = login.json()["data"]["accessToken"]
    me = api.get(ME, headers={**origin, "Authorization": f"Bearer {token}"}, auth=False)
    # Then both answers name the origin, so the page may read them, and expose what clients need
    for response in (login, me):
        assert response.status_code in (200, 201), response.text
        assert response.headers["Access-Control-Allow-Origin"] == WEB_APP
        assert "Origin" in response.headers["Vary"]
        assert "Retry-After" in response.headers["Access-Control-Expose-Headers"]


def test_errors_carry_the_cors_headers_too(api: ApiClient) -> None:
    # A page must be able to read why it failed: the function's 401 and the gateway's own 404
    unauthorized = api.get(ME, headers={"Origin": WEB_APP}, auth=False)
    unknown = api.get("/api/v1/nothing-here", headers={"Origin": WEB_APP})
    assert (unauthorized.status_code, unknown.status_code) == (401, 404)
    for response in (unauthorized, unknown):
        assert response.headers["Access-Control-Allow-Origin"] == WEB_APP


@pytest.mark.parametrize(
    "origin", [NOT_ALLOWED, "http://localhost.evil.example:80", "http://localhost:", "https://localhost:5173"]
)
def test_an_origin_that_is_not_allowed_fails_the_preflight_and_cannot_read_answers(api: ApiClient, origin: str) -> None:
    # When a page on another origin asks, or calls anyway
    refused = preflight(api, ORDERS, origin)
    called = api.post(LOGIN, json={"phone": "+998901112233"}, headers={"Origin": origin}, auth=False)
    # Then the preflight is refused and no answer names the origin: the browser withholds them
    assert refused.status_code == 403
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "Access-Control-Allow-Origin" not in called.headers


def test_a_preflight_for_an_unknown_path_is_404(api: ApiClient) -> None:
    assert preflight(api, "/api/v1/nothing-here", WEB_APP).status_code == 404


def test_deployed_origins_come_from_the_setting_and_are_exact(api: ApiClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.settings import reset_settings

    # Given an environment that allows one partner web app
    monkeypatch.setenv("ALLOWED_ORIGINS", "https://app.partner.uz")
    reset_settings()
    # Then that origin is allowed and the local ones are not
    assert preflight(api, ORDERS, "https://app.partner.uz").status_code == 204
    assert preflight(api, ORDERS, WEB_APP).status_code == 403
    answer = api.get(ME, headers={"Origin": "https://app.partner.uz"}, auth=False)
    assert answer.headers["Access-Control-Allow-Origin"] == "https://app.partner.uz"
