"""The OneID HTTP adapter on its own, against the fake provider server: the OAuth2 exchange, the
profile, bounded retries with backoff (an injected sleep, never a real wait), no retry on a 4xx."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from domain.identity.oneid import OneIdProvider
from domain.identity.provider import CodeRejected, ProviderUnavailable
from edge.errors import status_of
from tests.factories import valid_pinfl
from tests.fake_oneid import CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, FakeOneId, running_fake_oneid

PIN = valid_pinfl("5020591000042")


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


@pytest.fixture
def fake() -> Iterator[FakeOneId]:
    with running_fake_oneid() as server:
        server.add_person("good-code", PIN)
        yield server


@pytest.fixture
def time_source() -> FakeTime:
    return FakeTime()


def adapter(fake: FakeOneId, time_source: FakeTime, **overrides: object) -> OneIdProvider:
    options: dict[str, object] = {
        "token_url": fake.token_url,
        "profile_url": fake.profile_url,
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "redirect_uri": REDIRECT_URI,
        "timeout_seconds": 2.0,
        "sleep": time_source.sleep,
        "monotonic": time_source.monotonic,
        **overrides,
    }
    return OneIdProvider(**options)  # type: ignore[arg-type]


def test_a_code_is_exchanged_for_the_persons_profile(fake: FakeOneId, time_source: FakeTime) -> None:
    person = adapter(fake, time_source).verify("good-code")
    assert person.pin == PIN
    assert (person.first_name, person.last_name, person.middle_name) == ("Dilnoza", "Rahimova", "Bahodirovna")
    assert person.birth_date is not None
    assert person.birth_date.isoformat() == "1991-05-17"
    assert person.document == "AB1234567"
    assert fake.calls == {"token": 1, "profile": 1}
    assert time_source.sleeps == []


def test_5xx_is_retried_with_exponential_backoff(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("token", 500, 503)
    person = adapter(fake, time_source, backoff_seconds=0.25).verify("good-code")
    assert person.pin == PIN
    assert fake.calls["token"] == 3
    assert time_source.sleeps == [0.25, 0.5]


def test_retries_are_bounded_then_the_provider_is_unavailable(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("profile", 502, 502, 502, 502)
    with pytest.raises(ProviderUnavailable) as raised:
        adapter(fake, time_source, max_retries=2).verify("good-code")
    assert status_of(raised.value) == 503
    assert fake.calls["profile"] == 3
    assert time_source.sleeps == [0.25, 0.5]


def test_retries_stop_at_the_time_budget(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("token", 503, 503, 503, 503, 503)
    with pytest.raises(ProviderUnavailable):
        adapter(fake, time_source, max_retries=5, backoff_seconds=1.0, deadline_seconds=2.5).verify("good-code")
    # 1 s of backoff fits the 2.5 s budget; the next 2 s would not
    assert time_source.sleeps == [1.0]
    assert fake.calls["token"] == 2


@pytest.mark.parametrize("status", [400, 403, 404, 422])
def test_a_4xx_is_never_retried(fake: FakeOneId, time_source: FakeTime, status: int) -> None:
    fake.fail("token", status)
    with pytest.raises(CodeRejected) as raised:
        adapter(fake, time_source).verify("good-code")
    assert status_of(raised.value) == 400
    assert fake.calls["token"] == 1
    assert time_source.sleeps == []


def test_an_unknown_or_expired_code_is_rejected(fake: FakeOneId, time_source: FakeTime) -> None:
    with pytest.raises(CodeRejected, match="invalid or expired"):
        adapter(fake, time_source).verify("code-nobody-issued")


def test_a_code_is_single_use_at_the_provider(fake: FakeOneId, time_source: FakeTime) -> None:
    provider = adapter(fake, time_source)
    provider.verify("good-code")
    with pytest.raises(CodeRejected):
        provider.verify("good-code")


def test_a_refused_profile_is_rejected_without_retry(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("profile", 401)
    with pytest.raises(CodeRejected, match="profile"):
        adapter(fake, time_source).verify("good-code")
    assert fake.calls["profile"] == 1


def test_wrong_client_credentials_are_our_outage_not_a_bad_code(fake: FakeOneId, time_source: FakeTime) -> None:
    with pytest.raises(ProviderUnavailable):
        adapter(fake, time_source, client_secret="wrong").verify("good-code")
    assert fake.calls["token"] == 1


def test_a_timeout_is_retried_then_unavailable(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("token", "timeout", "timeout")
    with pytest.raises(ProviderUnavailable):
        adapter(fake, time_source, timeout_seconds=0.2, max_retries=1).verify("good-code")
    assert fake.calls["token"] == 2


def test_a_timeout_then_an_answer_verifies(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("profile", "timeout")
    person = adapter(fake, time_source, timeout_seconds=0.2).verify("good-code")
    assert person.pin == PIN


def test_a_refused_connection_is_retried_then_unavailable(time_source: FakeTime) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens here once the socket closes
    nowhere = f"http://127.0.0.1:{port}"
    provider = OneIdProvider(
        token_url=f"{nowhere}/oauth/token",
        profile_url=f"{nowhere}/oauth/profile",
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        sleep=time_source.sleep,
        monotonic=time_source.monotonic,
    )
    with pytest.raises(ProviderUnavailable):
        provider.verify("good-code")
    assert time_source.sleeps == [0.25, 0.5]


def test_a_non_json_answer_is_unavailable_without_retry(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.fail("token", "garbage")
    with pytest.raises(ProviderUnavailable, match="unexpected response"):
        adapter(fake, time_source).verify("good-code")
    assert fake.calls["token"] == 1


def test_a_person_the_provider_marks_not_valid_is_rejected(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.add_person("unconfirmed", PIN, valid="false")
    with pytest.raises(CodeRejected, match="did not confirm"):
        adapter(fake, time_source).verify("unconfirmed")


def test_a_profile_without_a_valid_pinfl_is_unavailable(fake: FakeOneId, time_source: FakeTime) -> None:
    fake.add_person("broken", "12345678901234")
    with pytest.raises(ProviderUnavailable, match="unexpected response"):
        adapter(fake, time_source).verify("broken")


def test_the_adapter_never_shows_its_secret() -> None:
    provider = OneIdProvider(
        token_url="https://oneid.example/token",
        profile_url="https://oneid.example/profile",
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
    )
    assert CLIENT_SECRET not in repr(provider)


def test_only_http_urls_are_accepted() -> None:
    with pytest.raises(RuntimeError, match="http"):
        OneIdProvider(token_url="file:///etc/passwd", profile_url="https://x", client_id="a", client_secret="b")
