"""Identity verification, POST /api/v1/users/limit, through HTTP: every outcome against the sandbox
adapter, and against the MyID and OneID adapters talking to fake servers of their protocols."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from core.errors import AppError
from core.settings import reset_settings
from domain.identity import myid
from domain.identity.provider import VerifiedPerson
from domain.identity.sandbox import sandbox_person
from edge.errors import status_of
from tests.factories import ApiClient, valid_pinfl
from tests.fake_myid import FakeMyId, running_fake_myid
from tests.fake_oneid import FakeOneId, running_fake_oneid

LIMIT = "/api/v1/users/limit"
ME = "/api/v1/auth/me"
USER_FIELDS = ("firstName", "lastName", "middleName", "pin", "birthDate", "verified", "verifiedAt")


class SandboxCodes:
    """Codes of the sandbox adapter (docs/DEMO_DATA.md, "Identity codes")."""

    def verified(self, number: int = 1, again: str = "") -> str:
        return f"sandbox-verified-{number}" + (f"-{again}" if again else "")

    def rejected(self) -> str:
        return "sandbox-rejected"

    def outage(self) -> str:
        return "sandbox-outage"


class FakeServerCodes:
    """The sandbox's people again, issued by a fake MyID or OneID server, in its own field names."""

    def __init__(self, fake: FakeOneId | FakeMyId) -> None:
        self.fake = fake

    def verified(self, number: int = 1, again: str = "") -> str:
        code = f"code-{number}-{again or 'first'}"
        person = sandbox_person(number)
        if isinstance(self.fake, FakeOneId):
            self.fake.add_person(
                code,
                person.pin,
                first_name=person.first_name,
                sur_name=person.last_name,
                mid_name=person.middle_name,
                birth_date=person.birth_date.isoformat() if person.birth_date else None,
            )
        else:
            self.fake.add_person(
                code,
                person.pin,
                first_name=person.first_name,
                last_name=person.last_name,
                middle_name=person.middle_name,
                birth_date=person.birth_date,
            )
        return code

    def rejected(self) -> str:
        return "code-nobody-issued"

    def outage(self) -> str:
        code = self.verified(7, "outage")
        self.fake.fail("token", 503, 503, 503)  # the first try and both retries
        return code


Codes = SandboxCodes | FakeServerCodes


def configure(fake: FakeOneId | FakeMyId, monkeypatch: pytest.MonkeyPatch) -> None:
    """The API pointed at the fake server (no real backoff waits)."""
    for name, value in {**fake.env(), "IDENTITY_RETRY_BACKOFF_SECONDS": "0", "IDENTITY_TIMEOUT_SECONDS": "0.3"}.items():
        monkeypatch.setenv(name, value)
    reset_settings()
    myid.tokens.clear()


@pytest.fixture
def oneid_provider(db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOneId]:
    with running_fake_oneid() as fake:
        configure(fake, monkeypatch)
        yield fake


@pytest.fixture
def myid_provider(db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMyId]:
    with running_fake_myid() as fake:
        configure(fake, monkeypatch)
        yield fake


@pytest.fixture(params=["oneid", "myid"])
def real_provider(request: pytest.FixtureRequest) -> FakeOneId | FakeMyId:
    fake: FakeOneId | FakeMyId = request.getfixturevalue(f"{request.param}_provider")
    return fake


@pytest.fixture(params=["sandbox", "oneid", "myid"])
def codes(request: pytest.FixtureRequest, db: Database[dict[str, Any]]) -> Codes:
    if request.param == "sandbox":
        return SandboxCodes()
    return FakeServerCodes(request.getfixturevalue(f"{request.param}_provider"))


def user_of(db: Database[dict[str, Any]], phone: str) -> dict[str, Any]:
    return db.users.find_one({"phone": phone}) or {}


def assert_verified_as(data: dict[str, Any], person: VerifiedPerson) -> None:
    assert data["verified"] is True
    assert (data["firstName"], data["lastName"], data["middleName"]) == (
        person.first_name,
        person.last_name,
        person.middle_name,
    )
    assert data["pin"] == "**********" + person.pin[-4:]


# -- verified


def test_a_verified_code_verifies_the_caller_and_unlocks_the_purchase_limit(
    api: ApiClient, db: Database[dict[str, Any]], codes: Codes, frozen_clock: FrozenClock
) -> None:
    # Given a signed-in, unverified user
    api.login("+998901112233", firstName="Typed", lastName="ByHand")
    # When they send a code the provider vouches for
    response = api.post(LIMIT, json={"code": codes.verified(3)})
    # Then it is 200 with the updated profile and the limit verification unlocks
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["success"], body["statusCode"], body["message"]) == (True, 200, "Success")
    data = body["data"]
    person = sandbox_person(3)
    assert_verified_as(data, person)
    assert set(data) == {
        "_id",
        "firstName",
        "lastName",
        "middleName",
        "phone",
        "balance",
        "verified",
        "pin",
        "birthDate",
        "verifiedAt",
        "limit",
    }
    assert data["phone"] == "+998901112233"
    assert data["balance"] == 0
    assert data["birthDate"] == "1990-03-03"
    assert data["verifiedAt"] == clock.now().isoformat().replace("+00:00", "Z")
    assert data["limit"] == 500_000_000
    # And the user document holds the full PINFL and the verification
    user = user_of(db, "+998901112233")
    assert user["pin"] == person.pin
    assert user["verified"] is True
    assert user["verifiedAt"] == clock.now()
    # And the profile reads as verified
    assert api.get(ME).json()["data"]["verified"] is True


def test_the_purchase_limit_is_configured(api: ApiClient, codes: Codes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIED_PURCHASE_LIMIT", "750000000")
    reset_settings()
    api.login()
    response = api.post(LIMIT, json={"code": codes.verified()})
    assert response.json()["data"]["limit"] == 750_000_000


def test_a_verified_user_may_verify_again_as_the_same_person(api: ApiClient, codes: Codes) -> None:
    api.login()
    assert api.post(LIMIT, json={"code": codes.verified(2)}).status_code == 200
    response = api.post(LIMIT, json={"code": codes.verified(2, "again")})
    assert response.status_code == 200
    assert_verified_as(response.json()["data"], sandbox_person(2))


def test_a_user_who_signed_in_with_the_same_pin_is_verified(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # Given a user who signed in with the PINFL the provider will confirm
    response = api.post("/api/v1/auth/login", json={"pin": sandbox_person(1).pin}, auth=False)
    api.token = response.json()["data"]["accessToken"]
    # When they verify
    verified = api.post(LIMIT, json={"code": "sandbox-verified"})
    # Then it is the same account, now verified
    assert verified.status_code == 200
    assert db.users.count_documents({}) == 1


# -- code used twice


def test_a_code_used_twice_is_409_and_changes_nothing(
    api: ApiClient, db: Database[dict[str, Any]], codes: Codes, frozen_clock: FrozenClock
) -> None:
    # Given a user verified with a code
    api.login()
    code = codes.verified(4)
    assert api.post(LIMIT, json={"code": code}).status_code == 200
    before = user_of(db, "+998901112233")
    frozen_clock.advance(60)
    # When the same code is sent again
    response = api.post(LIMIT, json={"code": code})
    # Then it is 409 and the user is untouched
    assert response.status_code == 409
    assert response.json() == {
        "success": False,
        "statusCode": 409,
        "message": "This authorization code has already been used",
        "data": None,
        "code": "AUTHORIZATION_CODE_USED",
    }
    assert user_of(db, "+998901112233") == before


def test_a_code_used_by_another_user_is_409(api: ApiClient, db: Database[dict[str, Any]], codes: Codes) -> None:
    api.login("+998901110001")
    code = codes.verified(5)
    assert api.post(LIMIT, json={"code": code}).status_code == 200
    api.login("+998901110002")
    response = api.post(LIMIT, json={"code": code})
    assert response.status_code == 409
    assert user_of(db, "+998901110002")["verified"] is False


def test_used_codes_are_stored_only_as_keyed_hashes(api: ApiClient, db: Database[dict[str, Any]], codes: Codes) -> None:
    api.login()
    code = codes.verified(6)
    api.post(LIMIT, json={"code": code})
    stored = list(db.identity_codes.find())
    assert [record["state"] for record in stored] == ["used"]
    assert code not in str(stored)
    assert len(stored[0]["_id"]) == 64


# -- PINFL of another user


def test_a_pinfl_already_verified_for_another_user_is_409_and_changes_nothing(
    api: ApiClient, db: Database[dict[str, Any]], codes: Codes
) -> None:
    # Given one user verified as person 8
    api.login("+998901110001")
    assert api.post(LIMIT, json={"code": codes.verified(8)}).status_code == 200
    # And a second user
    api.login("+998901110002", firstName="Second")
    before = user_of(db, "+998901110002")
    # When the second user verifies as the same person with a fresh code
    response = api.post(LIMIT, json={"code": codes.verified(8, "second-user")})
    # Then it is 409 and the second user is untouched
    assert response.status_code == 409
    assert response.json()["message"] == "This person's PINFL is already registered to another user"
    assert user_of(db, "+998901110002") == before
    # And the failed code was not recorded as used
    retry = api.post(LIMIT, json={"code": codes.verified(8, "second-user")})
    assert retry.json()["message"] != "This authorization code has already been used"


def test_an_account_holding_another_pinfl_is_409(api: ApiClient, db: Database[dict[str, Any]], codes: Codes) -> None:
    # Given a user who signed in with a PINFL that is not person 9's
    other_pin = valid_pinfl("4120388000017")
    api.token = api.post("/api/v1/auth/login", json={"pin": other_pin}, auth=False).json()["data"]["accessToken"]
    # When the provider confirms person 9
    response = api.post(LIMIT, json={"code": codes.verified(9)})
    # Then the account is not rewritten to another person
    assert response.status_code == 409
    user = db.users.find_one({"pin": other_pin}) or {}
    assert user["verified"] is False


# -- rejected code


def test_a_rejected_code_is_400_and_changes_nothing(api: ApiClient, db: Database[dict[str, Any]], codes: Codes) -> None:
    api.login()
    before = user_of(db, "+998901112233")
    response = api.post(LIMIT, json={"code": codes.rejected()})
    assert response.status_code == 400
    assert response.json()["message"] == (
        "The identity provider rejected the authorization code: it is invalid or expired"
    )
    assert response.json()["data"] is None
    assert user_of(db, "+998901112233") == before
    # A refused code is not recorded: sent again it is refused again, not "already used"
    assert api.post(LIMIT, json={"code": codes.rejected()}).status_code == 400
    assert db.identity_codes.count_documents({}) == 0


# -- provider outage


def test_a_provider_outage_is_503_and_changes_nothing(
    api: ApiClient, db: Database[dict[str, Any]], codes: Codes
) -> None:
    api.login()
    before = user_of(db, "+998901112233")
    response = api.post(LIMIT, json={"code": codes.outage()})
    assert response.status_code == 503
    assert response.json()["message"] == "The identity provider is unavailable, try again later"
    assert user_of(db, "+998901112233") == before
    assert db.identity_codes.count_documents({}) == 0


def test_an_outage_does_not_burn_the_code(api: ApiClient, real_provider: FakeOneId | FakeMyId) -> None:
    # Given a code whose first exchange meets a provider outage
    api.login()
    code = FakeServerCodes(real_provider).outage()
    assert api.post(LIMIT, json={"code": code}).status_code == 503
    # When the provider is back and the same code is sent again
    response = api.post(LIMIT, json={"code": code})
    # Then it verifies
    assert response.status_code == 200
    assert_verified_as(response.json()["data"], sandbox_person(7))


def person_step(fake: FakeOneId | FakeMyId) -> str:
    return "identify" if isinstance(fake, FakeOneId) else "data"


def test_a_provider_that_times_out_is_503(
    api: ApiClient, real_provider: FakeOneId | FakeMyId, db: Database[dict[str, Any]]
) -> None:
    api.login()
    code = FakeServerCodes(real_provider).verified(10)
    real_provider.fail(person_step(real_provider), "timeout", "timeout", "timeout")
    response = api.post(LIMIT, json={"code": code})
    assert response.status_code == 503
    assert real_provider.calls[person_step(real_provider)] == 3
    assert user_of(db, "+998901112233")["verified"] is False


def test_a_provider_recovering_within_the_retries_verifies(api: ApiClient, real_provider: FakeOneId | FakeMyId) -> None:
    api.login()
    code = FakeServerCodes(real_provider).verified(11)
    real_provider.fail("token", 502)
    real_provider.fail(person_step(real_provider), 500, 504)
    response = api.post(LIMIT, json={"code": code})
    assert response.status_code == 200
    assert {step: n for step, n in real_provider.calls.items() if n} == {"token": 2, person_step(real_provider): 3}


def test_a_myid_token_revoked_between_verifications_is_renewed(
    api: ApiClient, myid_provider: FakeMyId, db: Database[dict[str, Any]]
) -> None:
    # Given a first verification, whose MyID token the instance keeps, then revoked at MyID
    codes = FakeServerCodes(myid_provider)
    api.login("+998901110001")
    assert api.post(LIMIT, json={"code": codes.verified(21)}).status_code == 200
    myid_provider.revoke_tokens()
    # When another user verifies
    api.login("+998901110002")
    response = api.post(LIMIT, json={"code": codes.verified(22)})
    # Then a fresh token was taken and the verification went through
    assert response.status_code == 200, response.text
    assert {step: n for step, n in myid_provider.calls.items() if n} == {"token": 2, "data": 3}


def test_the_oneid_adapter_sends_oneids_grant(api: ApiClient, oneid_provider: FakeOneId) -> None:
    api.login()
    code = FakeServerCodes(oneid_provider).verified(12)
    api.post(LIMIT, json={"code": code})
    assert oneid_provider.token_forms == [
        {
            "grant_type": "one_authorization_code",
            "client_id": "car-retail-test",
            "client_secret": "fake-oneid-client-secret",
            "code": code,
            "redirect_uri": "https://partner.example/oneid/callback",
        }
    ]


def test_wrong_client_credentials_are_503_not_the_callers_fault(
    api: ApiClient, real_provider: FakeOneId | FakeMyId, db: Database[dict[str, Any]]
) -> None:
    api.login()
    code = FakeServerCodes(real_provider).verified(13)
    real_provider.client_secret = "rotated-at-the-provider"
    response = api.post(LIMIT, json={"code": code})
    assert response.status_code == 503
    assert real_provider.calls["token"] == 1  # a 4xx is never retried
    assert db.identity_codes.count_documents({}) == 0


# -- the request


@pytest.mark.parametrize("body", [{}, {"code": ""}, {"code": None}, {"code": "x" * 2049}])
def test_a_missing_or_malformed_code_is_400(api: ApiClient, body: dict[str, Any]) -> None:
    api.login()
    response = api.post(LIMIT, json=body)
    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == ["body.code"]


def test_a_numeric_code_is_coerced_and_unknown_properties_ignored(api: ApiClient) -> None:
    api.login()
    assert api.post(LIMIT, json={"code": 123456}).status_code == 400  # an unknown code, not a type error
    assert api.post(LIMIT, json={"code": "sandbox-verified", "pin": "1"}).status_code == 200


def test_verification_needs_an_access_token(api: ApiClient) -> None:
    response = api.post(LIMIT, json={"code": "sandbox-verified"}, auth=False)
    assert response.status_code == 401


# -- races


def race(*calls: Any) -> list[int]:
    """Run the calls from threads at once; each result is 200 or the AppError status it raised."""
    from auth import service

    statuses: list[int] = []
    barrier = threading.Barrier(len(calls))

    def run(user_id: str, code: str) -> None:
        barrier.wait()
        try:
            service.verify_identity(user_id, code)
            statuses.append(200)
        except AppError as exc:
            statuses.append(status_of(exc))

    threads = [threading.Thread(target=run, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


def test_one_code_raced_by_two_requests_applies_once(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    api.login()
    user_id = str(user_of(db, "+998901112233")["_id"])
    assert race((user_id, "sandbox-verified-14"), (user_id, "sandbox-verified-14")) == [200, 409]


def test_one_person_raced_by_two_users_is_verified_for_one(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    api.login("+998901110001")
    api.login("+998901110002")
    first, second = (str(user_of(db, phone)["_id"]) for phone in ("+998901110001", "+998901110002"))
    assert race((first, "sandbox-verified-15-a"), (second, "sandbox-verified-15-b")) == [200, 409]
    assert db.users.count_documents({"verified": True}) == 1


# -- configuration


def test_the_client_secret_comes_from_secrets_manager(
    api: ApiClient, real_provider: FakeOneId | FakeMyId, secretsmanager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a deployed configuration: the provider's client secret only in Secrets Manager
    secretsmanager.create_secret(
        Name="car-retail/dev/identity-client-secret", SecretString="secret-from-secrets-manager"
    )
    monkeypatch.delenv("IDENTITY_CLIENT_SECRET")
    monkeypatch.setenv("IDENTITY_CLIENT_SECRET_ID", "car-retail/dev/identity-client-secret")  # by name, as deployed
    reset_settings()
    real_provider.client_secret = "secret-from-secrets-manager"
    api.login()
    # When the caller verifies
    response = api.post(LIMIT, json={"code": FakeServerCodes(real_provider).verified(16)})
    # Then the provider accepted the secret from Secrets Manager
    assert response.status_code == 200, response.text


# -- MyID's SDK session, OneID's redirect URIs, a provider that hangs

SESSION = "/api/v1/users/limit/myid-session"


def test_the_app_starts_a_myid_sdk_session_under_our_registration(api: ApiClient, myid_provider: FakeMyId) -> None:
    # Given a signed-in buyer on a stage verifying with MyID
    api.login()
    # When the app asks for a session
    response = api.post(SESSION)
    # Then it gets what MyID's SDK starts with, MyID having opened the session with our token
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data == {
        "sessionId": myid_provider.sessions[0]["session_id"],
        "clientHash": "fake-myid-client-hash",
        "clientHashId": "fake-myid-client-hash-id",
        "expiresIn": 3600,
    }


def test_a_myid_sdk_session_is_refused_where_the_stage_verifies_with_oneid(
    api: ApiClient, oneid_provider: FakeOneId
) -> None:
    api.login()
    response = api.post(SESSION)
    assert (response.status_code, response.json()["code"]) == (409, "IDENTITY_SDK_NOT_OFFERED")
    assert oneid_provider.forms == []


def test_the_sandbox_answers_a_session_for_its_own_codes(api: ApiClient) -> None:
    api.login()
    response = api.post(SESSION)
    assert response.status_code == 200, response.text
    assert response.json()["data"]["clientHash"] == "sandbox"


def test_myid_sessions_are_limited_per_user(
    api: ApiClient, myid_provider: FakeMyId, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYID_SESSION_RATE_LIMIT", "2")
    reset_settings()
    api.login()
    statuses = [api.post(SESSION).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert len(myid_provider.sessions) == 2


def test_a_used_myid_code_is_the_buyers_400_through_the_api(api: ApiClient, myid_provider: FakeMyId) -> None:
    # Given a code MyID gave out already (to another service of ours, say): MyID answers it 401
    code = FakeServerCodes(myid_provider).verified(31)
    myid_provider.fail("data", 401)
    api.login()
    # When the buyer sends it
    response = api.post(LIMIT, json={"code": code})
    # Then it is the buyer's 400, not a 503 a retry would repeat, and their code is free to try again
    assert (response.status_code, response.json()["code"]) == (400, "IDENTITY_CODE_REJECTED")
    assert {step: n for step, n in myid_provider.calls.items() if n} == {"token": 1, "data": 1}


def test_oneid_code_of_a_partners_own_redirect_uri(
    api: ApiClient, oneid_provider: FakeOneId, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a partner's own redirect URI allowed on the stage, and a code OneID issued for it
    partner_uri = "https://other-partner.example/oneid/back"
    monkeypatch.setenv("ONEID_REDIRECT_URIS", f"https://third.example/cb, {partner_uri}")
    reset_settings()
    oneid_provider.add_person("partner-code", valid_pinfl("5020591000033"), redirect_uri=partner_uri)
    api.login()
    # When the app sends another URI, then the right one
    refused = api.post(LIMIT, json={"code": "partner-code", "redirectUri": "https://evil.example/cb"})
    verified = api.post(LIMIT, json={"code": "partner-code", "redirectUri": partner_uri})
    # Then the URI not allowed is a 400 without asking OneID, and the code verifies with its own URI
    assert (refused.status_code, refused.json()["code"]) == (400, "REDIRECT_URI_NOT_ALLOWED")
    assert verified.status_code == 200, verified.text
    assert oneid_provider.token_forms[-1]["redirect_uri"] == partner_uri
    assert len(oneid_provider.token_forms) == 1


def test_a_provider_that_hangs_cannot_hold_the_request_past_its_budget(
    api: ApiClient, myid_provider: FakeMyId, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a provider that accepts connections and never answers, per-request timeouts longer than the
    # budget, and a budget of 1 s for the request's partner calls
    with socket.create_server(("127.0.0.1", 0)) as silent:
        monkeypatch.setenv("IDENTITY_PROVIDER_URL", f"http://127.0.0.1:{silent.getsockname()[1]}")
        monkeypatch.setenv("IDENTITY_TIMEOUT_SECONDS", "5")
        monkeypatch.setenv("PROVIDER_BUDGET_SECONDS", "1")
        reset_settings()
        api.login()
        # When the buyer verifies
        started = time.monotonic()
        response = api.post(LIMIT, json={"code": "any-code"})
        took = time.monotonic() - started
    # Then the answer is our 503 (the code untouched, to retry) well within the function's timeout
    assert (response.status_code, response.json()["code"]) == (503, "IDENTITY_PROVIDER_UNAVAILABLE")
    assert took < 3, took
