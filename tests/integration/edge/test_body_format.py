"""Bodies are UTF-8 JSON: anything else is a client error in the envelope, never a 500 (found by fuzzing)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from pymongo.database import Database

from edge.access import MAX_BODY_BYTES
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


def test_a_body_nested_deeper_than_the_route_takes_is_413_before_it_is_parsed(db: Database[dict[str, Any]]) -> None:
    # Given a body nested far deeper than the parser could (a login body is one object)
    event = api_event("POST", LOGIN, body="[" * 50_000, headers={"Content-Type": "application/json"})
    # When the function gets it; then it is refused with the route's budget, never parsed
    result = invoke("Auth", event)
    assert result["statusCode"] == 413
    assert json.loads(result["body"])["code"] == "BODY_TOO_LARGE"
    assert json.loads(result["body"])["message"] == (
        "Request body holds more than this route takes: at most 5 levels of nesting and 4026 JSON tokens "
        "(strings, brackets, commas, colons)"
    )


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


def hostile(body: str, *, base64_encoded: bool = False) -> dict[str, Any]:
    """A login request carrying `body`, as text or base64 (as API Gateway passes a body it sees as binary)."""
    event = api_event("POST", LOGIN, headers={"Content-Type": "application/json"})
    if base64_encoded:
        event.update(body=base64.b64encode(body.encode()).decode(), isBase64Encoded=True)
    else:
        event.update(body=body)
    return event


@pytest.mark.parametrize("base64_encoded", [False, True])
def test_10_mb_of_small_json_values_is_413_before_it_is_parsed(
    db: Database[dict[str, Any]], base64_encoded: bool
) -> None:
    # Given 10 MB of small JSON objects sent to the public login, as text or base64 (what API Gateway lets through)
    body = "[" + ",".join(["{}"] * (MAX_BODY_BYTES // 3)) + "]"
    # When the function gets it
    result = invoke("Auth", hostile(body, base64_encoded=base64_encoded))
    # Then it is refused as more than the route takes (a login body is one object of a few strings)
    assert result["statusCode"] == 413
    assert json.loads(result["body"])["code"] == "BODY_TOO_LARGE"


@pytest.mark.parametrize("base64_encoded", [False, True])
def test_a_valid_body_padded_to_10_mb_is_read(db: Database[dict[str, Any]], base64_encoded: bool) -> None:
    # Given a login body padded with whitespace to exactly the interface's 10 MB
    head, tail = '{"phone": "+998901112233"', "}"
    body = head + " " * (MAX_BODY_BYTES - len(head) - len(tail)) + tail
    # When it is sent; then the login answers
    assert invoke("Auth", hostile(body, base64_encoded=base64_encoded))["statusCode"] == 201


@pytest.mark.parametrize("base64_encoded", [False, True])
def test_a_body_over_10_mb_is_413(db: Database[dict[str, Any]], base64_encoded: bool) -> None:
    # Given a login body one byte over the interface's 10 MB (API Gateway refuses it first; a direct
    # invocation does not)
    head, tail = '{"phone": "+998901112233"', "}"
    body = head + " " * (MAX_BODY_BYTES + 1 - len(head) - len(tail)) + tail
    # When it is sent; then it is refused as over 10 MB
    result = invoke("Auth", hostile(body, base64_encoded=base64_encoded))
    assert result["statusCode"] == 413
    assert json.loads(result["body"])["message"] == "Request body is larger than 10 MB"


@pytest.mark.parametrize(
    "note",
    [
        "x" * 1_000_000,  # long
        ",{[:" * 250_000,  # full of what tokens are made of: the scan skips it
        '\\"' * 250_000,  # escaped backslashes and quotes
    ],
    ids=["long", "token characters", "escapes"],
)
def test_a_long_undeclared_string_is_stripped_and_the_body_read(db: Database[dict[str, Any]], note: str) -> None:
    # Given a login body with an undeclared property holding a 1 MB string
    body = '{"phone": "+998901112233", "note": "' + note + '"}'
    # When it is sent; then the property is ignored and the login answers
    assert invoke("Auth", hostile(body))["statusCode"] == 201


def test_undeclared_properties_within_the_allowance_are_read(db: Database[dict[str, Any]]) -> None:
    # Given a login body with 900 undeclared members (3 tokens each) and one nested 4 levels below the body
    extra = {f"k{index}": index for index in range(900)} | {"nested": {"a": {"b": {"c": [1]}}}}
    body = json.dumps({"phone": "+998901112233", **extra})
    # When it is sent; then the login answers
    assert invoke("Auth", hostile(body))["statusCode"] == 201


@pytest.mark.parametrize(
    "extra",
    [
        {f"k{index}": index for index in range(1_500)},
        {"nested": {"a": {"b": {"c": [[1]]}}}},
    ],
    ids=["too many", "too deep"],
)
def test_undeclared_properties_over_the_allowance_are_413(db: Database[dict[str, Any]], extra: dict[str, Any]) -> None:
    # Given a login body with more, or deeper, undeclared properties than the allowance
    body = json.dumps({"phone": "+998901112233", **extra})
    # When it is sent; then it is refused as more than the route takes
    result = invoke("Auth", hostile(body))
    assert result["statusCode"] == 413
    assert json.loads(result["body"])["code"] == "BODY_TOO_LARGE"


def test_an_unterminated_string_is_a_400_not_json(db: Database[dict[str, Any]]) -> None:
    # Given a login body cut inside a string full of commas
    body = '{"phone": "+998901112233", "note": "' + "x," * 100_000
    # When it is sent; then it is a 400 saying the body is not JSON
    result = invoke("Auth", hostile(body))
    assert result["statusCode"] == 400
    assert json.loads(result["body"])["errors"][0]["code"] == "BODY_NOT_JSON"


def test_a_broken_body_names_its_line_and_column_in_details(db: Database[dict[str, Any]]) -> None:
    # Given a login body with a value missing on its third line
    body = '{\n  "phone": "+998901112233",\n  "firstName": ,\n}'
    # When it is sent
    result = invoke("Auth", hostile(body))
    # Then it is a 400 naming the body (not a character offset as a field) and where the parser stopped
    answer = json.loads(result["body"])
    assert result["statusCode"] == 400
    assert answer["code"] == "VALIDATION_FAILED"
    assert [(error["field"], error["code"]) for error in answer["errors"]] == [("body", "BODY_NOT_JSON")]
    assert answer["details"] == {"line": 3, "column": 16}


def test_a_base64_body_is_decoded_once_and_the_callers_event_left_as_it_was(db: Database[dict[str, Any]]) -> None:
    # Given a base64 login body
    event = hostile('{"phone": "+998901112233"}', base64_encoded=True)
    sent = dict(event)
    # When the function answers it
    assert invoke("Auth", event)["statusCode"] == 201
    # Then the event it was given is unchanged (the gate decodes into its own copy)
    assert event == sent
