"""Auth through HTTP against the local API Gateway, with the real pymongo driver."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import jwt
import pytest
from pymongo.database import Database

from core.clock import FrozenClock
from core.errors import NotAuthenticated
from tests.data import order_body, purchasable_car
from tests.factories import ApiClient, bearer, valid_pinfl

LOGIN = "/api/v1/auth/login"
REFRESH = "/api/v1/auth/refresh-token"
ME = "/api/v1/auth/me"


def test_login_by_phone_creates_the_user_and_returns_a_token_pair(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # When a new phone signs in
    response = api.post(LOGIN, json={"phone": "+998901112233", "firstName": "Aziza", "lastName": "Rahimova"})
    # Then it is 201 with both tokens in the envelope
    assert response.status_code == 201
    body = response.json()
    assert body["success"] is True
    assert body["statusCode"] == 201
    assert body["message"] == "Success"
    assert set(body["data"]) == {"accessToken", "refreshToken"}
    # And the user exists with a zero balance
    user = db.users.find_one({"phone": "+998901112233"}) or {}
    assert user["firstName"] == "Aziza"
    assert user["balance"] == 0


def test_login_again_updates_the_same_user(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    api.login("+998901112233", firstName="Old")
    api.login("+998901112233", firstName="New")
    assert db.users.count_documents({}) == 1
    assert api.get(ME).json()["data"]["firstName"] == "New"


def test_login_by_pin_then_by_phone_and_pin_links_them(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    pin = valid_pinfl()
    first = api.post(LOGIN, json={"pin": pin}, auth=False)
    assert first.status_code == 201
    second = api.post(LOGIN, json={"pin": pin, "phone": "+998935550011"}, auth=False)
    assert second.status_code == 201
    assert db.users.count_documents({}) == 1
    assert (db.users.find_one({"pin": pin}) or {})["phone"] == "+998935550011"


def test_phone_and_pin_of_two_different_users_conflict(api: ApiClient) -> None:
    api.login("+998901110001")
    api.post(LOGIN, json={"pin": valid_pinfl()}, auth=False)
    response = api.post(LOGIN, json={"pin": valid_pinfl(), "phone": "+998901110001"}, auth=False)
    assert response.status_code == 409
    assert response.json()["data"] is None


def test_me_returns_the_profile_of_spec_4_2(api: ApiClient) -> None:
    api.login("+998901112233", firstName="Aziza", lastName="Rahimova")
    response = api.get(ME)
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["firstName"] == "Aziza"
    assert data["lastName"] == "Rahimova"
    assert data["phone"] == "+998901112233"
    assert data["balance"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "body"),
        ({"firstName": "Only"}, "body"),
        ({"phone": "901234567"}, "body.phone"),
        ({"pin": "12345678901234"}, "body.pin"),
        ({"phone": 998901234567}, "body.phone"),
    ],
)
def test_login_refuses_bad_identity_with_400_naming_the_field(api: ApiClient, body: dict[str, Any], field: str) -> None:
    response = api.post(LOGIN, json=body, auth=False)
    assert response.status_code == 400
    payload = response.json()
    assert payload["success"] is False
    assert payload["data"] is None
    assert field in [error["field"] for error in payload["errors"]]


def test_unknown_properties_are_stripped_and_numbers_coerced(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # When a client sends fields the endpoint does not declare and a number where a string goes
    response = api.post(LOGIN, json={"phone": "+998901112233", "balance": 10**9, "verified": True, "firstName": 42})
    # Then the undeclared fields never reach the database and the number became text
    assert response.status_code == 201
    user = db.users.find_one({"phone": "+998901112233"}) or {}
    assert user["balance"] == 0
    assert user["verified"] is False
    assert user["firstName"] == "42"


def test_wrong_type_that_cannot_be_coerced_is_400(api: ApiClient) -> None:
    response = api.post(REFRESH, json={"token": {"nested": True}}, auth=False)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "body.token"


def test_malformed_json_is_400_in_the_envelope(api: ApiClient) -> None:
    response = api.post(LOGIN, data="{not json", headers={"Content-Type": "application/json"}, auth=False)
    assert response.status_code == 400
    assert response.json()["success"] is False


def test_refresh_rotates_the_pair(api: ApiClient) -> None:
    tokens = api.login()
    response = api.post(REFRESH, json={"token": tokens["refreshToken"]}, auth=False)
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == "auth.token.refresh"
    assert body["data"]["refreshToken"] != tokens["refreshToken"]
    assert api.get(ME, headers=bearer(body["data"]["accessToken"])).status_code == 200


def test_a_refresh_token_reused_after_the_grace_window_is_refused_and_revokes_its_family(
    api: ApiClient, frozen_clock: FrozenClock
) -> None:
    # Given a refresh token that was already rotated once
    original = api.login()["refreshToken"]
    rotated = api.post(REFRESH, json={"token": original}, auth=False).json()["data"]["refreshToken"]
    # When the old one is presented again, by the same client, after the 10 s grace window
    frozen_clock.advance(11)
    reuse = api.post(REFRESH, json={"token": original}, auth=False)
    # Then it is refused, and so is the token rotated from it (the family is revoked)
    assert reuse.status_code == 401
    assert api.post(REFRESH, json={"token": rotated}, auth=False).status_code == 401


def test_a_refresh_retried_by_the_same_client_within_the_grace_window_answers_a_working_pair(
    api: ApiClient, frozen_clock: FrozenClock
) -> None:
    # Given a refresh whose answer the client lost
    original = api.login()["refreshToken"]
    lost = api.post(REFRESH, json={"token": original}, auth=False).json()["data"]["refreshToken"]
    # When the same client (partner and device) retries it 9 s later
    frozen_clock.advance(9)
    retry = api.post(REFRESH, json={"token": original}, auth=False)
    # Then it gets a working pair, and the family was not revoked: the lost token works too
    assert retry.status_code == 201, retry.text
    pair = retry.json()["data"]
    assert api.get(ME, headers=bearer(pair["accessToken"])).status_code == 200
    assert api.post(REFRESH, json={"token": pair["refreshToken"]}, auth=False).status_code == 201
    assert api.post(REFRESH, json={"token": lost}, auth=False).status_code == 201


def test_a_refresh_token_reused_by_another_device_within_the_window_revokes_its_family(api: ApiClient) -> None:
    # Given a refresh token rotated by the device that holds it
    original = api.login()["refreshToken"]
    rotated = api.post(REFRESH, json={"token": original}, auth=False).json()["data"]["refreshToken"]
    # When another device presents the used token at once
    reuse = api.post(REFRESH, json={"token": original}, headers={"fingerprint": "another-device"}, auth=False)
    # Then it is theft: refused, and the whole family is revoked
    assert reuse.status_code == 401
    assert api.post(REFRESH, json={"token": rotated}, auth=False).status_code == 401


def test_the_grace_window_is_a_setting(
    api: ApiClient, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.settings import reset_settings

    monkeypatch.setenv("REFRESH_REUSE_GRACE_SECONDS", "0")
    reset_settings()
    original = api.login()["refreshToken"]
    assert api.post(REFRESH, json={"token": original}, auth=False).status_code == 201
    frozen_clock.advance(1)
    assert api.post(REFRESH, json={"token": original}, auth=False).status_code == 401


@pytest.mark.parametrize("round_", range(10))
def test_two_parts_of_one_app_refreshing_at_once_both_end_with_working_tokens(
    api: ApiClient, db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, round_: int
) -> None:
    from auth import service
    from auth.models import Tokens
    from domain.identity import sessions, tokens

    # Given one refresh token, and the worst interleaving of two refreshes of it by the same app: both
    # have consumed it (one for real, one as a reuse) before either is issued its new pair
    original = api.login()["refreshToken"]
    barrier = threading.Barrier(2, timeout=10)
    consume = sessions.consume_refresh

    def consume_then_wait(claims: tokens.Claims, *, client: str) -> str:
        family = consume(claims, client=client)
        barrier.wait()
        return family

    monkeypatch.setattr(sessions, "consume_refresh", consume_then_wait)

    def refresh(_: int) -> Tokens:
        return service.refresh(original, partner="Demo partner", fingerprint="device-test-0001")

    # When both refresh at once
    with ThreadPoolExecutor(max_workers=2) as pool:
        pairs = list(pool.map(refresh, range(2)))
    monkeypatch.setattr(sessions, "consume_refresh", consume)
    # Then both got a pair, no token handed out is revoked, and each refresh token works
    issued = [tokens.verify(pair.refreshToken, "refresh").jti for pair in pairs]
    assert db.refresh_tokens.count_documents({"_id": {"$in": issued}, "revokedAt": None}) == 2
    for pair in pairs:
        assert api.post(REFRESH, json={"token": pair.refreshToken}, auth=False).status_code == 201


def test_an_access_token_is_not_a_refresh_token_nor_the_reverse(api: ApiClient) -> None:
    tokens = api.login()
    assert api.post(REFRESH, json={"token": tokens["accessToken"]}, auth=False).status_code == 401
    assert api.get(ME, headers=bearer(tokens["refreshToken"])).status_code == 401


def test_refresh_for_a_user_that_no_longer_exists_is_401(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    tokens = api.login()
    db.users.delete_many({})
    response = api.post(REFRESH, json={"token": tokens["refreshToken"]}, auth=False)
    assert response.status_code == 401
    assert api.get(ME).status_code == 401


@pytest.mark.parametrize("token", ["garbage", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl"])
def test_refresh_with_an_invalid_token_is_401(api: ApiClient, token: str) -> None:
    response = api.post(REFRESH, json={"token": token}, auth=False)
    assert response.status_code == 401
    assert response.json()["code"] == "TOKEN_INVALID"


def _forge(claims: dict[str, Any], key: str, algorithm: str = "HS256") -> str:
    return jwt.encode(claims, key, algorithm=algorithm)


def _claims(sub: str, typ: str = "access", **extra: Any) -> dict[str, Any]:
    return {
        "sub": sub,
        "typ": typ,
        "jti": "x",
        "iat": 1_900_000_000,
        "exp": 4_000_000_000,
        "iss": "car-retail-api",
        **extra,
    }


def _user_id(api: ApiClient) -> str:
    api.login()
    return str(api.get(ME).json()["data"]["_id"])


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer not-a-jwt",
        "Basic dXNlcjpwYXNz",
        "Token abc",
    ],
)
def test_jwt_routes_refuse_missing_or_malformed_authorization(api: ApiClient, authorization: str | None) -> None:
    response = api.get(ME, headers={"Authorization": authorization}, auth=False)
    assert response.status_code == 401
    assert response.json()["success"] is False


def test_a_token_signed_with_another_key_is_401(api: ApiClient) -> None:
    token = _forge(_claims(_user_id(api)), "some-other-key-that-is-long-enough-for-hs256")
    assert api.get(ME, headers=bearer(token)).status_code == 401


def test_an_unsigned_alg_none_token_is_401(api: ApiClient) -> None:
    token = jwt.encode(_claims(_user_id(api)), key=None, algorithm="none")  # type: ignore[arg-type]
    assert api.get(ME, headers=bearer(token)).status_code == 401


def test_a_token_from_another_issuer_is_401(api: ApiClient) -> None:
    token = _forge(_claims(_user_id(api), iss="someone-else"), "test-signing-key-that-is-long-enough-for-hs256")
    assert api.get(ME, headers=bearer(token)).status_code == 401


def test_an_expired_access_token_is_401(api: ApiClient, frozen_clock: FrozenClock) -> None:
    # Given a token issued now
    api.login()
    assert api.get(ME).status_code == 200
    # When 15 minutes pass
    frozen_clock.advance(15 * 60)
    # Then it no longer works, and the message says why
    response = api.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "TOKEN_EXPIRED"


def test_an_expired_refresh_token_is_401(api: ApiClient, frozen_clock: FrozenClock) -> None:
    tokens = api.login()
    frozen_clock.advance(30 * 24 * 3600 + 1)
    assert api.post(REFRESH, json={"token": tokens["refreshToken"]}, auth=False).status_code == 401


def test_authentication_is_checked_before_the_body(api: ApiClient) -> None:
    # A caller without a token learns nothing about the body schema
    response = api.post("/api/v1/users/limit", json={"unexpected": 1}, auth=False)
    assert response.status_code == 401


def _login_limits(monkeypatch: pytest.MonkeyPatch, **limits: int) -> None:
    from core.settings import reset_settings

    for name, value in limits.items():
        monkeypatch.setenv(name.upper(), str(value))
    reset_settings()


def _login(api: ApiClient, phone: str, **headers: str | None) -> int:
    return api.post(LOGIN, json={"phone": phone}, headers=headers, auth=False).status_code


def test_too_many_logins_for_one_phone_are_429_whatever_device_the_caller_claims(
    api: ApiClient, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # Given a limit of 3 logins per person per minute, used up by one "device"
    _login_limits(monkeypatch, login_rate_limit=3)
    for _ in range(3):
        assert _login(api, "+998901112233") == 201
    # When the caller claims a new device fingerprint for the same phone
    refused = api.post(LOGIN, json={"phone": "+998901112233"}, headers={"fingerprint": "new-device"}, auth=False)
    # Then it is still refused, with Retry-After
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    # And another person is not affected, and the first may try again in the next window
    assert _login(api, "+998901112244") == 201
    frozen_clock.advance(61)
    assert _login(api, "+998901112233") == 201


def test_the_same_pinfl_is_limited_like_the_same_phone(
    api: ApiClient, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # The clock stands still: logins straddling a window's end would start a new count
    _login_limits(monkeypatch, login_rate_limit=2)
    pin = valid_pinfl("3010199000009")
    for _ in range(2):
        assert api.post(LOGIN, json={"pin": pin}, auth=False).status_code == 201
    assert api.post(LOGIN, json={"pin": pin}, headers={"fingerprint": "new-device"}, auth=False).status_code == 429


def test_too_many_logins_from_one_network_address_are_429_whatever_phone_or_device(
    api: ApiClient, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # Given a limit of 3 logins per source IP per minute (the local gateway's clients are all 127.0.0.1)
    _login_limits(monkeypatch, login_ip_rate_limit=3)
    for index in range(3):
        assert _login(api, f"+99890111330{index}", fingerprint=f"device-{index}") == 201
    # When a fourth person logs in from the same address on yet another device
    refused = api.post(LOGIN, json={"phone": "+998901113309"}, headers={"fingerprint": "device-9"}, auth=False)
    # Then it is refused, saying when to retry in the header and in details (as docs/INTERFACE.md promises)
    assert (refused.status_code, refused.json()["code"]) == (429, "TOO_MANY_LOGINS_FROM_ADDRESS")
    assert refused.json()["details"] == {"retryAfter": int(refused.headers["Retry-After"])}


def test_one_caller_hammering_login_cannot_make_another_users_login_fail(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    from local.invoke import invoke
    from tests.factories import api_event

    # Given the default limits, and a caller with the demo partner's public key hammering the login from
    # one address and one device with made-up phones (issue 37: a partner-wide budget let
    # such a caller lock every user of the partner out)
    _login_limits(monkeypatch, login_ip_rate_limit=100, login_device_rate_limit=10)

    def login_from(address: str, phone: str, device: str) -> tuple[int, str | None]:
        event = api_event("POST", LOGIN, body={"phone": phone}, headers={"fingerprint": device})
        event["requestContext"]["identity"]["sourceIp"] = address
        answer = invoke("Auth", event)
        return answer["statusCode"], json.loads(answer["body"]).get("code")

    hammered = [login_from("203.0.113.66", f"+9989{index:08d}", "attacker-device") for index in range(30)]
    # When another user of the same partner signs in from their own phone, address and device
    other = login_from("198.51.100.20", "+998901112233", "victims-phone")
    # Then the hammering caller is stopped by its own device's and address's limits, and the other user is not
    assert {code for status, code in hammered if status == 429} == {"TOO_MANY_LOGINS_FROM_DEVICE"}
    assert sum(status == 201 for status, _ in hammered) == 10
    assert other == (201, None)


def test_a_login_never_replaces_an_identifier_the_account_has(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # Given an account with a phone and a PINFL
    pin = valid_pinfl("3010199000001")
    assert api.post(LOGIN, json={"phone": "+998901110002", "pin": pin}, auth=False).status_code == 201
    # When someone logs in with that phone and another PINFL, or that PINFL and another phone
    other_pin = api.post(LOGIN, json={"phone": "+998901110002", "pin": valid_pinfl("3010199000002")}, auth=False)
    other_phone = api.post(LOGIN, json={"pin": pin, "phone": "+998901110003"}, auth=False)
    # Then both are refused and the account keeps its identifiers
    assert (other_pin.status_code, other_phone.status_code) == (409, 409)
    user = db.users.find_one({"phone": "+998901110002"}) or {}
    assert user["pin"] == pin


def test_a_login_does_not_rename_a_verified_person(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # Given a person verified through the identity provider
    api.login("+998901110004")
    assert api.post("/api/v1/users/limit", json={"code": "sandbox-verified-5"}).status_code == 200
    verified = db.users.find_one({"phone": "+998901110004"}) or {}
    # When a later login sends other names
    api.login("+998901110004", firstName="Evil", lastName="Mallory")
    # Then the provider's names stay
    user = db.users.find_one({"phone": "+998901110004"}) or {}
    assert (user["firstName"], user["lastName"], user["verified"]) == (
        verified["firstName"],
        verified["lastName"],
        True,
    )


def test_a_refresh_racing_a_reuse_cannot_keep_a_token_of_the_revoked_family(
    api: ApiClient, db: Database[dict[str, Any]]
) -> None:
    from domain.identity import sessions, tokens

    # Given an attacker who consumed a stolen refresh token, and has not yet been issued the next one
    stolen = api.login()["refreshToken"]
    claims = tokens.verify(stolen, "refresh")
    family = sessions.consume_refresh(claims, client=sessions.refresh_client("Demo partner", "attacker-device"))
    # When the victim presents the same token (a reuse, which revokes the family) before the issue
    assert api.post(REFRESH, json={"token": stolen}, auth=False).status_code == 401
    # Then the attacker's next token is refused as it is issued, and none of the family is usable
    with pytest.raises(NotAuthenticated):
        sessions.continue_family(claims.sub, family)
    assert db.refresh_tokens.count_documents({"family": family, "revokedAt": None}) == 0


@pytest.mark.parametrize("claim", ["exp", "iat"])
@pytest.mark.parametrize("value", [1e20, 10**30, -(10**30)])
def test_a_token_with_a_time_claim_out_of_range_is_401(api: ApiClient, claim: str, value: float) -> None:
    # Given a correctly signed token whose expiry or issue time no calendar holds
    claims = {**_claims(_user_id(api)), claim: value}
    token = _forge(claims, "test-signing-key-that-is-long-enough-for-hs256")
    # When it is used
    response = api.get(ME, headers=bearer(token))
    # Then it is refused as an invalid token, not a 500
    assert response.status_code == 401, response.text
    assert response.json()["code"] == "TOKEN_INVALID"


@pytest.mark.parametrize("claim", ["exp", "iat"])
def test_a_token_whose_time_claim_is_a_numeric_string_is_401(api: ApiClient, claim: str) -> None:
    # Given a correctly signed token whose time is the string of a valid time (RFC 7519: a JSON number)
    claims = _claims(_user_id(api))
    token = _forge({**claims, claim: str(claims[claim])}, "test-signing-key-that-is-long-enough-for-hs256")
    # When it is used / Then it is refused as an invalid token
    response = api.get(ME, headers=bearer(token))
    assert (response.status_code, response.json()["code"]) == (401, "TOKEN_INVALID")


def test_a_valid_token_of_a_user_that_no_longer_exists_cannot_act_for_them(
    api: ApiClient, db: Database[dict[str, Any]]
) -> None:
    # Given a signed-in user whose account is then deleted, with a car they could order
    car = purchasable_car(db)
    api.login()
    db.users.delete_many({})
    # When the still valid access token places an order or reads the orders
    placed = api.post("/api/v1/orders", json=order_body(car))
    listed = api.get("/api/v1/orders")
    # Then both are 401 and nothing is stored
    assert (placed.status_code, listed.status_code) == (401, 401), placed.text
    assert placed.json()["code"] == "USER_NOT_FOUND"
    assert db.orders.count_documents({}) == 0
