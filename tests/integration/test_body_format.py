"""Bodies are UTF-8 JSON: anything else is a client error in the envelope, never a 500 (found by fuzzing)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from pymongo.database import Database

from local.invoke import invoke
from tests.factories import ApiClient, api_event

LOGIN = "/api/v1/auth/login"


@pytest.mark.parametrize("content_type", ["text/plain", "multipart/form-data", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_json_is_415(db: Database[dict[str, Any]], content_type: str) -> None:
    event = api_event(
        "POST", "/api/v1/auth/login", body={"phone": "+998901112233"}, headers={"Content-Type": content_type}
    )
    result = invoke("Auth", event)
    assert result["statusCode"] == 415
    assert json.loads(result["body"])["message"] == "Unsupported Content-Type: send the body as application/json"


def test_a_body_that_is_not_utf8_is_400_naming_the_body(db: Database[dict[str, Any]]) -> None:
    event = api_event("POST", "/api/v1/auth/refresh-token", headers={"Content-Type": "application/json"})
    event.update(body=base64.b64encode(b"<\xb1^\xff").decode(), isBase64Encoded=True)
    result = invoke("Auth", event)
    assert result["statusCode"] == 400
    assert json.loads(result["body"])["errors"] == [
        {"field": "body", "code": "BODY_NOT_UTF8", "message": "The body must be UTF-8 encoded JSON"}
    ]


def test_a_json_body_with_a_charset_is_accepted(db: Database[dict[str, Any]]) -> None:
    event = api_event(
        "POST",
        "/api/v1/auth/login",
        body={"phone": "+998901112233"},
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert invoke("Auth", event)["statusCode"] == 201


def test_a_body_nested_too_deeply_to_parse_is_400_naming_the_body(db: Database[dict[str, Any]]) -> None:
    event = api_event("POST", "/api/v1/auth/login", body="[" * 50_000, headers={"Content-Type": "application/json"})
    result = invoke("Auth", event)
    assert result["statusCode"] == 400
    assert json.loads(result["body"])["errors"] == [
        {"field": "body", "code": "BODY_TOO_DEEP", "message": "The body is nested too deeply"}
    ]


def test_a_body_that_is_not_json_at_all_is_still_a_400(db: Database[dict[str, Any]]) -> None:
    event = api_event("POST", "/api/v1/auth/login", body="{not json", headers={"Content-Type": "application/json"})
    assert invoke("Auth", event)["statusCode"] == 400


def test_a_number_too_long_to_read_is_400_naming_the_body_even_on_the_public_login(api: ApiClient) -> None:
    # Given a body whose integer literal has more digits than Python converts (4,300)
    body = '{"phone": "+998901112233", "pin": ' + "1" * 5_000 + "}"
    # When it is posted to the public login route
    response = api.post(LOGIN, data=body, headers={"Content-Type": "application/json"}, auth=False)
    # Then it is a client error naming the body, not a 500
    assert response.status_code == 400, response.text
    assert response.json()["errors"] == [
        {"field": "body", "code": "NUMBER_TOO_LONG", "message": "The body holds a number with too many digits"}
    ]


@pytest.mark.parametrize("base64_encoded", [False, True])
def test_a_body_larger_than_any_route_takes_is_413_before_it_is_parsed(
    db: Database[dict[str, Any]], base64_encoded: bool
) -> None:
    # Given 10 MB of small JSON objects sent to the public login, as text or base64 (what API Gateway lets through)
    hostile = "[" + ",".join(["{}"] * (10 * 1024 * 1024 // 3)) + "]"
    event = api_event("POST", LOGIN, headers={"Content-Type": "application/json"})
    if base64_encoded:
        event.update(body=base64.b64encode(hostile.encode()).decode(), isBase64Encoded=True)
    else:
        event.update(body=hostile)
    # When the function gets it
    result = invoke("Auth", event)
    # Then it is refused as too large for the route (a login body is a few dozen bytes)
    assert result["statusCode"] == 413
    assert json.loads(result["body"])["code"] == "BODY_TOO_LARGE"
    assert json.loads(result["body"])["message"] == "Request body is larger than this route takes (64 KB)"


def test_a_body_within_the_route_limit_is_read(db: Database[dict[str, Any]]) -> None:
    # Given a login body padded with an unknown field to just under 64 KB
    body = json.dumps({"phone": "+998901112233", "note": "x" * (64 * 1024 - 100)})
    event = api_event("POST", LOGIN, body=body, headers={"Content-Type": "application/json"})
    # When it is sent; then the unknown field is ignored and the login answers
    assert invoke("Auth", event)["statusCode"] == 201
