"""Identity verification logic without I/O: sandbox codes, PINFL masking, OneID profile fields,
choosing the adapter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.errors import Unavailable
from core.pinfl import pinfl_is_valid
from core.settings import reset_settings
from domain.identity.oneid import OneIdProvider, parse_profile
from domain.identity.provider import CodeRejected, ProviderUnavailable, mask_pin
from domain.identity.sandbox import SandboxIdentityProvider, sandbox_person
from domain.identity.verification import get_provider
from edge.errors import status_of
from tests.factories import valid_pinfl

SANDBOX = SandboxIdentityProvider()


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    reset_settings()
    yield
    reset_settings()


@pytest.mark.parametrize(
    ("code", "number"),
    [
        ("sandbox-verified", 1),
        ("sandbox-verified-1", 1),
        ("sandbox-verified-2", 2),
        ("sandbox-verified-99999", 99999),
        ("sandbox-verified-2-another-attempt", 2),
    ],
)
def test_sandbox_verified_codes_give_a_fixed_person(code: str, number: int) -> None:
    person = SANDBOX.verify(code)
    assert person == sandbox_person(number)
    assert pinfl_is_valid(person.pin)


def test_sandbox_people_are_distinct() -> None:
    pins = {sandbox_person(number).pin for number in range(1, 200)}
    assert len(pins) == 199


@pytest.mark.parametrize(
    "code", ["sandbox-rejected", "sandbox-verified-0", "sandbox-verified-100000", "sandbox-verified-", "anything"]
)
def test_other_sandbox_codes_are_rejected(code: str) -> None:
    with pytest.raises(CodeRejected):
        SANDBOX.verify(code)


@pytest.mark.parametrize("code", ["sandbox-outage", "sandbox-outage-2"])
def test_sandbox_outage_codes_are_an_outage(code: str) -> None:
    with pytest.raises(ProviderUnavailable) as raised:
        SANDBOX.verify(code)
    assert status_of(raised.value) == 503


def test_a_pinfl_shows_only_its_last_four_digits() -> None:
    assert mask_pin("30101990000017") == "**********0017"


def test_oneid_profile_fields_become_the_person() -> None:
    pin = valid_pinfl("6150477000123")
    person = parse_profile(
        {"pin": int(pin), "first_name": " ALISHER ", "sur_name": "NAVOIY", "mid_name": "", "birth_date": "09.02.1977"}
    )
    assert (person.pin, person.first_name, person.last_name, person.middle_name) == (pin, "ALISHER", "NAVOIY", None)
    assert str(person.birth_date) == "1977-02-09"


def test_an_unreadable_birth_date_does_not_fail_the_verification() -> None:
    person = parse_profile({"pin": valid_pinfl(), "first_name": "A", "sur_name": "B", "birth_date": "soon"})
    assert person.birth_date is None


@pytest.mark.parametrize("missing", ["pin", "first_name", "sur_name"])
def test_a_profile_without_pin_or_names_is_unexpected(missing: str) -> None:
    profile = {"pin": valid_pinfl(), "first_name": "A", "sur_name": "B"}
    del profile[missing]
    with pytest.raises(ProviderUnavailable):
        parse_profile(profile)


def test_the_sandbox_is_the_default(fresh_settings: None) -> None:
    assert isinstance(get_provider(), SandboxIdentityProvider)


def test_the_sandbox_is_refused_in_prod(fresh_settings: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The template refuses such a deploy; should one happen anyway, callers get a 503, not a verification
    monkeypatch.setenv("STAGE", "prod")
    reset_settings()
    with pytest.raises(Unavailable, match="SERVICE_NOT_CONFIGURED"):
        get_provider()


def test_the_http_provider_needs_its_endpoints(fresh_settings: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IDENTITY_PROVIDER", "http")
    reset_settings()
    with pytest.raises(RuntimeError, match="ONEID_TOKEN_URL"):
        get_provider()


def test_the_http_provider_is_built_from_settings(fresh_settings: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "IDENTITY_PROVIDER": "http",
        "ONEID_TOKEN_URL": "https://oneid.example/token",
        "ONEID_PROFILE_URL": "https://oneid.example/profile",
        "ONEID_CLIENT_ID": "car-retail",
        "ONEID_CLIENT_SECRET": "s3cret",
        "ONEID_TIMEOUT_SECONDS": "1.5",
        "ONEID_MAX_RETRIES": "1",
    }.items():
        monkeypatch.setenv(name, value)
    reset_settings()
    provider = get_provider()
    assert isinstance(provider, OneIdProvider)
    assert (provider.client_secret, provider.timeout_seconds, provider.max_retries) == ("s3cret", 1.5, 1)
