"""The MyID and OneID adapters on their own, each against a fake server that speaks its provider's
protocol: the exchange, the person, a wrong or reused code, a token that dies mid-flow, bounded retries
with backoff on 5xx and timeouts (an injected sleep, never a real wait), never a retry on a 4xx, and
nothing personal in the logs."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from core.clock import FrozenClock
from core.errors import InvalidInput
from domain.identity import myid
from domain.identity.myid import MyIdProvider
from domain.identity.oneid import OneIdProvider
from domain.identity.provider import CodeRejected, IdentityProvider, ProviderUnavailable
from domain.identity.provider_http import ProviderClient, ProviderHttp
from edge.errors import status_of
from tests import fake_myid, fake_oneid
from tests.factories import valid_pinfl
from tests.fake_http import FakeServer
from tests.fake_myid import FakeMyId, running_fake_myid
from tests.fake_oneid import FakeOneId, running_fake_oneid

PIN = valid_pinfl("5020591000042")


def made(fake: FakeServer) -> dict[str, int]:
    """The calls a fake got, by step (the steps never called left out)."""
    return {step: count for step, count in fake.calls.items() if count}


class FakeTime:
    """monotonic() and sleep() of one fake clock: sleeping only moves it, and is recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@dataclass
class Provider:
    """One provider under test: its fake server, and which of its steps reads the person."""

    name: str
    fake: Any  # FakeOneId | FakeMyId
    person_step: str
    time: FakeTime

    def adapter(self, *, client_secret: str | None = None, **http: Any) -> IdentityProvider:
        transport = ProviderHttp(
            sleep=self.time.sleep, monotonic=self.time.monotonic, **{"timeout_seconds": 2.0, **http}
        )
        if self.name == "oneid":
            client = ProviderClient(self.fake.url, fake_oneid.CLIENT_ID, client_secret or fake_oneid.CLIENT_SECRET)
            return OneIdProvider(client, redirect_uri=fake_oneid.REDIRECT_URI, http=transport)
        client = ProviderClient(self.fake.base_url, fake_myid.CLIENT_ID, client_secret or fake_myid.CLIENT_SECRET)
        return MyIdProvider(client, http=transport)


@pytest.fixture(params=["oneid", "myid"])
def provider(request: pytest.FixtureRequest) -> Iterator[Provider]:
    myid.tokens.clear()
    running = running_fake_oneid() if request.param == "oneid" else running_fake_myid()
    with running as fake:
        fake.add_person("good-code", PIN)
        person_step = "identify" if request.param == "oneid" else "data"
        yield Provider(request.param, fake, person_step, FakeTime())
    myid.tokens.clear()


# -- the exchange


def test_a_code_is_exchanged_for_the_persons_data(provider: Provider) -> None:
    person = provider.adapter().verify("good-code")
    assert person.pin == PIN
    assert (person.first_name, person.last_name, person.middle_name) == ("DILNOZA", "RAHIMOVA", "BAHODIROVNA")
    assert person.birth_date is not None
    assert person.birth_date.isoformat() == "1991-05-17"
    assert person.document == "AB1234567"
    assert made(provider.fake) == {"token": 1, provider.person_step: 1}
    assert provider.time.sleeps == []


def test_an_unknown_code_is_rejected(provider: Provider) -> None:
    with pytest.raises(CodeRejected) as raised:
        provider.adapter().verify("code-nobody-issued")
    assert status_of(raised.value) == 400


def test_a_code_is_single_use_at_the_provider(provider: Provider) -> None:
    adapter = provider.adapter()
    adapter.verify("good-code")
    with pytest.raises(CodeRejected):
        adapter.verify("good-code")


def test_wrong_client_credentials_are_our_outage_not_a_bad_code(provider: Provider) -> None:
    with pytest.raises(ProviderUnavailable) as raised:
        provider.adapter(client_secret="wrong").verify("good-code")
    assert status_of(raised.value) == 503
    assert provider.fake.calls["token"] == 1  # a 4xx is never retried


def test_a_profile_without_a_valid_pinfl_is_unavailable(provider: Provider) -> None:
    provider.fake.add_person("broken", "12345678901234")
    with pytest.raises(ProviderUnavailable, match="IDENTITY_PROVIDER_UNAVAILABLE"):
        provider.adapter().verify("broken")


# -- the provider misbehaving


def test_5xx_is_retried_with_exponential_backoff(provider: Provider) -> None:
    provider.fake.fail("token", 500, 503)
    person = provider.adapter(backoff_seconds=0.25).verify("good-code")
    assert person.pin == PIN
    assert provider.fake.calls["token"] == 3
    assert provider.time.sleeps == [0.25, 0.5]


def test_retries_are_bounded_then_the_provider_is_unavailable(provider: Provider) -> None:
    provider.fake.fail(provider.person_step, 502, 502, 502, 502)
    with pytest.raises(ProviderUnavailable) as raised:
        provider.adapter(max_retries=2).verify("good-code")
    assert status_of(raised.value) == 503
    assert provider.fake.calls[provider.person_step] == 3
    assert provider.time.sleeps == [0.25, 0.5]


def test_retries_stop_at_the_time_budget(provider: Provider) -> None:
    provider.fake.fail("token", 503, 503, 503, 503, 503)
    with pytest.raises(ProviderUnavailable):
        provider.adapter(max_retries=5, backoff_seconds=1.0, deadline_seconds=2.5).verify("good-code")
    # 1 s of backoff fits the 2.5 s budget; the next 2 s would not
    assert provider.time.sleeps == [1.0]
    assert provider.fake.calls["token"] == 2


@pytest.mark.parametrize("status", [400, 404, 422])
def test_a_4xx_reading_the_person_is_a_rejected_code_never_retried(provider: Provider, status: int) -> None:
    provider.fake.fail(provider.person_step, status)
    with pytest.raises(CodeRejected) as raised:
        provider.adapter().verify("good-code")
    assert status_of(raised.value) == 400
    assert provider.fake.calls[provider.person_step] == 1
    assert provider.time.sleeps == []


def test_a_timeout_is_retried_then_unavailable(provider: Provider) -> None:
    provider.fake.fail("token", "timeout", "timeout")
    with pytest.raises(ProviderUnavailable):
        provider.adapter(timeout_seconds=0.2, max_retries=1).verify("good-code")
    assert provider.fake.calls["token"] == 2


def test_a_timeout_then_an_answer_verifies(provider: Provider) -> None:
    provider.fake.fail(provider.person_step, "timeout")
    person = provider.adapter(timeout_seconds=0.2).verify("good-code")
    assert person.pin == PIN


def test_a_non_json_answer_is_unavailable_without_retry(provider: Provider) -> None:
    provider.fake.fail("token", "garbage")
    with pytest.raises(ProviderUnavailable, match="IDENTITY_PROVIDER_UNAVAILABLE"):
        provider.adapter().verify("good-code")
    assert provider.fake.calls["token"] == 1


def test_a_refused_connection_is_retried_then_unavailable(provider: Provider) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens here once the socket closes
    provider.fake.base_url = f"http://127.0.0.1:{port}"
    with pytest.raises(ProviderUnavailable):
        provider.adapter().verify("good-code")
    assert provider.time.sleeps == [0.25, 0.5]


# -- what stays secret


def test_nothing_personal_or_secret_reaches_the_logs(provider: Provider, caplog: pytest.LogCaptureFixture) -> None:
    # Given a verification that goes through retries, a refusal and a success
    caplog.set_level(logging.DEBUG)
    provider.fake.fail("token", 503)
    adapter = provider.adapter()
    adapter.verify("good-code")
    with pytest.raises(CodeRejected):
        adapter.verify("good-code")
    # Then no log line holds the code, the PINFL, the secret or a token
    logged = caplog.text + " ".join(str(record.__dict__) for record in caplog.records)
    for secret in ("good-code", PIN, "fake-oneid-client-secret", "fake-myid-client-secret", "DILNOZA"):
        assert secret not in logged
    assert "client-secret" not in repr(adapter)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://myid.example", "api.myid.uz"])
def test_only_http_urls_are_accepted(url: str) -> None:
    with pytest.raises(RuntimeError, match="http"):
        ProviderClient(url, "a", "b")


# -- OneID's protocol


@pytest.fixture
def oneid() -> Iterator[FakeOneId]:
    with running_fake_oneid() as fake:
        fake.add_person("good-code", PIN)
        yield fake


def test_oneid_gets_its_two_grants_on_its_one_endpoint(oneid: FakeOneId) -> None:
    Provider("oneid", oneid, "identify", FakeTime()).adapter().verify("good-code")
    token = oneid.forms[1]["access_token"] if len(oneid.forms) > 1 else ""
    assert oneid.forms == [
        {
            "grant_type": "one_authorization_code",
            "client_id": fake_oneid.CLIENT_ID,
            "client_secret": fake_oneid.CLIENT_SECRET,
            "code": "good-code",
            "redirect_uri": fake_oneid.REDIRECT_URI,
        },
        {
            "grant_type": "one_access_token_identify",
            "client_id": fake_oneid.CLIENT_ID,
            "client_secret": fake_oneid.CLIENT_SECRET,
            "access_token": token,
            "scope": fake_oneid.CLIENT_ID,
        },
    ]


def test_oneid_a_person_it_marks_not_valid_is_rejected(oneid: FakeOneId) -> None:
    oneid.add_person("unconfirmed", PIN, valid="false")
    with pytest.raises(CodeRejected, match="IDENTITY_NOT_CONFIRMED"):
        Provider("oneid", oneid, "identify", FakeTime()).adapter().verify("unconfirmed")


@pytest.mark.parametrize("ret_cd", ["0", 0, None], ids=["string-0", "number-0", "absent"])
def test_oneid_a_person_with_a_success_return_code_or_none_is_verified(oneid: FakeOneId, ret_cd: Any) -> None:
    # Given OneID's identify answer with `ret_cd` 0 (as a string or a number) or without it
    oneid.add_person("returned", PIN, ret_cd=ret_cd)
    # When it is redeemed / Then the person is verified
    assert Provider("oneid", oneid, "identify", FakeTime()).adapter().verify("returned").pin == PIN
    assert ("ret_cd" in oneid.answered[-1]) is (ret_cd is not None)


@pytest.mark.parametrize("ret_cd", ["1", "-1", 2])
def test_oneid_a_failing_return_code_never_verifies(oneid: FakeOneId, ret_cd: Any) -> None:
    # Given OneID's identify answer naming a person with a return code other than 0
    oneid.add_person("failed", PIN, ret_cd=ret_cd)
    # When it is redeemed / Then nobody is verified: a 400 saying OneID did not confirm the person
    with pytest.raises(CodeRejected, match="IDENTITY_NOT_CONFIRMED"):
        Provider("oneid", oneid, "identify", FakeTime()).adapter().verify("failed")


# -- MyID's protocol


@pytest.fixture
def myid_server(frozen_clock: FrozenClock) -> Iterator[FakeMyId]:
    myid.tokens.clear()
    with running_fake_myid() as fake:
        for number in range(1, 4):
            fake.add_person(f"code-{number}", PIN)
        yield fake
    myid.tokens.clear()


def myid_adapter(fake: FakeServer) -> IdentityProvider:
    return Provider("myid", fake, "data", FakeTime()).adapter()


def test_myid_token_is_taken_with_client_credentials_and_kept(myid_server: FakeMyId) -> None:
    # When two verifications run on one warm instance
    myid_adapter(myid_server).verify("code-1")
    myid_adapter(myid_server).verify("code-2")
    # Then one token served both
    assert myid_server.token_requests == [{"client_id": fake_myid.CLIENT_ID, "client_secret": fake_myid.CLIENT_SECRET}]
    assert len(set(myid_server.data_authorizations)) == 1


def test_myid_token_is_fetched_again_once_it_expires(myid_server: FakeMyId, frozen_clock: FrozenClock) -> None:
    myid_adapter(myid_server).verify("code-1")
    # When the token's hour (less the safety margin) has passed
    frozen_clock.advance(3600 - 59)
    myid_adapter(myid_server).verify("code-2")
    # Then a new token was taken before the call, not after a refusal
    assert made(myid_server) == {"token": 2, "data": 2}


def test_myid_token_dying_mid_flow_is_renewed_and_the_call_repeated(myid_server: FakeMyId) -> None:
    # Given a kept token that MyID revokes between two verifications
    myid_adapter(myid_server).verify("code-1")
    myid_server.revoke_tokens()
    # When the next verification uses it
    person = myid_adapter(myid_server).verify("code-2")
    # Then the 401 brought a fresh token and one retry, and the person came through
    assert person.pin == PIN
    assert made(myid_server) == {"token": 2, "data": 3}


def test_myid_401_with_a_fresh_token_is_the_codes_refusal_not_our_outage(myid_server: FakeMyId) -> None:
    # Given a cached token, and MyID refusing the data call twice (the second time with a fresh token)
    myid_adapter(myid_server).verify("code-1")
    myid_server.fail("data", 401, 401)
    # When the next code is redeemed
    with pytest.raises(CodeRejected) as raised:
        myid_adapter(myid_server).verify("code-2")
    # Then the token was renewed once, and the second 401 is the code's: the buyer's 400
    assert status_of(raised.value) == 400
    assert made(myid_server) == {"token": 2, "data": 3}


def test_myid_used_code_is_the_buyers_400_as_myid_answers_401(myid_server: FakeMyId) -> None:
    # Given a code already redeemed, which MyID answers 401
    myid_adapter(myid_server).verify("code-1")
    # When it is sent again
    with pytest.raises(CodeRejected) as raised:
        myid_adapter(myid_server).verify("code-1")
    # Then the buyer gets a 400 (not a 503), after one renewal of the cached token
    assert status_of(raised.value) == 400
    assert made(myid_server) == {"token": 2, "data": 3}


def test_myid_expired_code_is_the_buyers_400(myid_server: FakeMyId) -> None:
    # Given a code MyID no longer knows (400) / When it is redeemed / Then a 400 without retry
    with pytest.raises(CodeRejected):
        myid_adapter(myid_server).verify("expired-code")
    assert made(myid_server) == {"token": 1, "data": 1}


def test_myid_answer_without_profile_is_a_re_verification_the_app_started(myid_server: FakeMyId) -> None:
    # Given a code of an SDK started for re-verification: MyID compares the face and names nobody
    myid_server.add_reverification("reverified")
    # When it is redeemed / Then a 400 that says so, not an outage
    with pytest.raises(CodeRejected, match="IDENTITY_NO_PROFILE") as raised:
        myid_adapter(myid_server).verify("reverified")
    assert status_of(raised.value) == 400


@pytest.mark.parametrize("shape", ["top", "data"])
def test_myid_sdk_session_is_opened_under_our_registration(myid_server: FakeMyId, shape: Any) -> None:
    # Given MyID answering the session's id at the top level or inside `data` (the sources disagree)
    myid_server.session_shape = shape
    # And the adapter with the client hash MyID gave the registration
    transport = ProviderHttp(timeout_seconds=2.0)
    client = ProviderClient(myid_server.base_url, fake_myid.CLIENT_ID, fake_myid.CLIENT_SECRET)
    adapter = MyIdProvider(
        client, transport, client_hash=fake_myid.CLIENT_HASH, client_hash_id=fake_myid.CLIENT_HASH_ID
    )
    # When a session is started
    session = adapter.start_session()
    # Then MyID opened an empty one with our token, and the app gets what its SDK needs
    assert myid_server.sessions[0]["request"] == {}
    assert myid_server.sessions[0]["shape"] == shape
    assert session.session_id == myid_server.sessions[0]["session_id"]
    assert (session.client_hash, session.client_hash_id, session.expires_in) == (
        fake_myid.CLIENT_HASH,
        fake_myid.CLIENT_HASH_ID,
        3600,
    )


def test_myid_code_goes_in_the_query_escaped(myid_server: FakeMyId) -> None:
    myid_server.add_person("a&b=c d", PIN)
    assert myid_adapter(myid_server).verify("a&b=c d").pin == PIN


# -- OneID: redirect URIs and errors in a 200


def oneid_adapter(fake: FakeOneId, *, allowed: frozenset[str] = frozenset()) -> OneIdProvider:
    transport = ProviderHttp(sleep=FakeTime().sleep, timeout_seconds=2.0)
    client = ProviderClient(fake.url, fake_oneid.CLIENT_ID, fake_oneid.CLIENT_SECRET)
    return OneIdProvider(client, redirect_uri=fake_oneid.REDIRECT_URI, http=transport, allowed_redirect_uris=allowed)


PARTNER_REDIRECT = "https://other-partner.example/oneid/back"


def test_oneid_code_issued_for_a_partners_own_redirect_uri_is_redeemed_with_it(oneid: FakeOneId) -> None:
    # Given a partner app with its own redirect URI, allowed on the stage, and a code OneID issued for it
    oneid.add_person("partner-code", PIN, redirect_uri=PARTNER_REDIRECT)
    adapter = oneid_adapter(oneid, allowed=frozenset({PARTNER_REDIRECT}))
    # When the code comes with that URI
    person = adapter.verify("partner-code", redirect_uri=PARTNER_REDIRECT)
    # Then it was redeemed with it
    assert person.pin == PIN
    assert oneid.token_forms[-1]["redirect_uri"] == PARTNER_REDIRECT


def test_oneid_code_without_its_redirect_uri_is_refused_by_oneid(oneid: FakeOneId) -> None:
    # Given a code issued for a partner's own URI / When it comes without it (the stage's is sent)
    oneid.add_person("partner-code", PIN, redirect_uri=PARTNER_REDIRECT)
    with pytest.raises(CodeRejected):
        oneid_adapter(oneid, allowed=frozenset({PARTNER_REDIRECT})).verify("partner-code")


def test_oneid_redirect_uri_not_allowed_is_a_400_before_asking_oneid(oneid: FakeOneId) -> None:
    with pytest.raises(InvalidInput, match="REDIRECT_URI_NOT_ALLOWED") as raised:
        oneid_adapter(oneid).verify("good-code", redirect_uri="https://evil.example/cb")
    assert status_of(raised.value) == 400
    assert oneid.forms == []


@pytest.mark.parametrize("errors_as_200", [True, False], ids=["http-200", "http-4xx"])
def test_oneid_errors_are_errors_whatever_their_http_status(oneid: FakeOneId, errors_as_200: bool) -> None:
    oneid.errors_as_200 = errors_as_200
    # A code it will not redeem: the buyer's 400
    with pytest.raises(CodeRejected):
        oneid_adapter(oneid).verify("code-nobody-issued")
    # Our client refused: our 503
    wrong = OneIdProvider(
        ProviderClient(oneid.url, fake_oneid.CLIENT_ID, "wrong"), redirect_uri=fake_oneid.REDIRECT_URI
    )
    with pytest.raises(ProviderUnavailable):
        wrong.verify("good-code")
