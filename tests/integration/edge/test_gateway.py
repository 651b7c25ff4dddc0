"""What every route shares: common headers, partner keys, the envelope, limits, unknown routes."""

from __future__ import annotations

import http.client
from typing import Any
from urllib.parse import urlsplit

import pytest
from pymongo.database import Database

from domain.partners.store import register_partner
from tests.factories import ApiClient, common_headers

ME = "/api/v1/auth/me"
LOGIN = "/api/v1/auth/login"


@pytest.mark.parametrize("header", ["User-Agent", "fingerprint", "client"])
def test_each_common_header_is_required(api: ApiClient, header: str) -> None:
    # requests adds its own User-Agent unless told otherwise; an empty value removes it
    missing: dict[str, str | None] = {header: "" if header == "User-Agent" else None}
    response = api.post(LOGIN, json={"phone": "+998901112233"}, headers=missing, auth=False)
    assert response.status_code == 400
    body = response.json()
    assert body == {**body, "success": False, "statusCode": 400, "data": None}
    assert header in body["message"]


def test_an_unknown_client_key_is_403(api: ApiClient) -> None:
    response = api.post(LOGIN, json={"phone": "+998901112233"}, headers={"client": "nobody"}, auth=False)
    assert response.status_code == 403
    assert response.json()["success"] is False


def test_an_inactive_partner_is_403(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    register_partner("retired-partner-key", "Retired", active=False)
    response = api.post(LOGIN, json={"phone": "+998901112233"}, headers={"client": "retired-partner-key"}, auth=False)
    assert response.status_code == 403


def test_partner_keys_are_stored_only_as_hashes(db: Database[dict[str, Any]]) -> None:
    stored = [doc["_id"] for doc in db.partners.find()]
    assert "demo-partner-key" not in stored
    assert all(len(key) == 64 for key in stored)


def test_an_unknown_route_is_404_in_the_envelope(api: ApiClient) -> None:
    response = api.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.json() == {
        "success": False,
        "statusCode": 404,
        "message": "Route not found",
        "data": None,
        "code": "ROUTE_NOT_FOUND",
    }


def test_a_known_path_with_another_method_is_405_naming_the_paths_methods(api: ApiClient) -> None:
    # Given a path the API serves by GET, and one by GET and POST
    # When each is called with another method
    me = api.request("DELETE", ME)
    orders = api.request("PUT", "/api/v1/orders", json={})
    # Then each is 405 with Allow, in the envelope, naming the method and the path's methods
    assert (me.status_code, me.headers["Allow"]) == (405, "GET")
    assert me.json() == {
        "success": False,
        "statusCode": 405,
        "message": "Method DELETE is not allowed on this path; it allows GET",
        "data": None,
        "code": "METHOD_NOT_ALLOWED",
    }
    assert (orders.status_code, orders.headers["Allow"]) == (405, "GET, POST")
    # And HEAD, which API Gateway does not serve on a GET route either, is 405 too (not the route's 401)
    head = api.request("HEAD", "/api/v1/brands")
    assert (head.status_code, head.headers["Allow"]) == (405, "GET")


def test_every_answer_carries_its_own_request_id(api: ApiClient) -> None:
    # Given answers of a function (a success, a refusal of its gate) and of the gateway itself (an unknown
    # route, a wrong method, a body too large)
    answers = [
        api.get("/api/v1/brands"),
        api.get("/api/v1/brands", headers={"fingerprint": None}),
        api.get("/api/v1/nothing-here"),
        api.request("DELETE", ME),
        api.post(LOGIN, data=b"x" * (10 * 1024 * 1024 + 1), headers={"Content-Type": "application/json"}),
    ]
    # Then each names its request, every id its own, and a browser page may read it
    ids = [answer.headers.get("X-Request-Id") for answer in answers]
    assert all(ids), ids
    assert len(set(ids)) == len(ids), ids
    cross_origin = api.get("/api/v1/brands", headers={"Origin": "http://localhost:5173"})
    assert "X-Request-Id" in cross_origin.headers["Access-Control-Expose-Headers"].split(", ")


def test_a_body_over_10_mb_is_413(api: ApiClient) -> None:
    response = api.post(LOGIN, data=b"x" * (10 * 1024 * 1024 + 1), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["statusCode"] == 413


def test_random_client_keys_cannot_grow_the_partner_cache_without_bound(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.settings import reset_settings
    from domain.partners import store as partners

    monkeypatch.setenv("PARTNER_CACHE_SECONDS", "60")
    reset_settings()
    for index in range(partners.MAX_CACHED_KEYS + 50):
        assert partners.find_active_partner(f"random-key-{index}") is None
    assert len(partners._cache) <= partners.MAX_CACHED_KEYS
    assert partners.find_active_partner("demo-partner-key") is not None


def test_the_local_access_log_masks_the_card_number_of_check_card(
    api: ApiClient, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a signed-in caller checking a card (the number travels in the query string)
    api.login()
    with caplog.at_level("INFO", logger="werkzeug"):
        response = api.get("/api/v1/transactions/check-card", params={"cardNumber": "8600495473316478"})
    # Then the server's access log shows the request without the number
    assert response.status_code == 200
    logged = "\n".join(record.getMessage() for record in caplog.records if record.name == "werkzeug")
    assert "check-card?cardNumber=[masked]" in logged
    assert "8600495473316478" not in logged


@pytest.mark.parametrize(
    "query",
    [
        "card%4Eumber=8600495473316478",
        "CARDNUMBER=8600495473316478",
        "%63ard%6Eumber=8600495473316478",
        "card%254Eumber=8600495473316478",
        "cardNumber=8600+4954+7331+6478",
        "cardNumber=8600%204954%207331%206478",
        "other=1&number=8600495473316478",
    ],
)
def test_the_local_access_log_masks_a_card_number_however_the_query_is_encoded(
    api: ApiClient, caplog: pytest.LogCaptureFixture, query: str
) -> None:
    # Given a caller who encodes the parameter's name or the number in a way the raw path hides
    api.login()
    # (http.client sends the target as written; requests would normalise %4E to N on the way)
    connection = http.client.HTTPConnection(urlsplit(api.base_url).netloc, timeout=30)
    with caplog.at_level("INFO", logger="werkzeug"):
        connection.request(
            "GET",
            f"/api/v1/transactions/check-card?{query}",
            headers={**common_headers(), "Authorization": f"Bearer {api.token}"},
        )
        connection.getresponse().read()
    connection.close()
    # Then the access log holds none of the card's digits
    logged = "\n".join(record.getMessage() for record in caplog.records if record.name == "werkzeug")
    assert "check-card" in logged
    for digits in ("8600495473316478", "4954", "73316478"):
        assert digits not in logged


def test_a_request_uri_too_long_for_the_server_is_414_in_the_envelope(api: ApiClient) -> None:
    response = api.get("/api/v1/cars?search=" + "a" * 70_000)
    assert response.status_code == 414
    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == {
        "success": False,
        "statusCode": 414,
        "message": "Request URI is too long",
        "data": None,
        "code": "URI_TOO_LONG",
    }


def test_a_header_too_large_for_the_server_is_431_in_the_envelope(api: ApiClient) -> None:
    response = api.get("/api/v1/cars", headers={"X-Padding": "a" * 70_000})
    assert response.status_code == 431
    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == {
        "success": False,
        "statusCode": 431,
        "message": "Request headers are too large",
        "data": None,
        "code": "HEADERS_TOO_LARGE",
    }
