"""Identity verification logic without I/O: sandbox codes, PINFL masking, MyID's and OneID's person
fields, choosing the adapter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.errors import Unavailable
from core.pinfl import pinfl_is_valid
from core.settings import reset_settings
from domain.identity.myid import MyIdProvider, parse_sdk_data
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


def test_myid_sdk_data_becomes_the_person() -> None:
    pin = valid_pinfl("6150477000123")
    common = {
        "pinfl": pin,
        "first_name": "ALISHER",
        "last_name": "NAVOIY",
        "middle_name": None,
        "birth_date": "09.02.1977",
    }
    answer = {"profile": {"common_data": common, "doc_data": {"pass_data": "AD1234567"}}, "comparison_value": 0.9}
    for shape in (answer, {"data": answer}):  # MyID wraps its answer in `data`; older answers do not
        person = parse_sdk_data(shape)
        assert (person.pin, person.first_name, person.last_name, person.middle_name) == (pin, "ALISHER", "NAVOIY", None)
        assert (str(person.birth_date), person.document) == ("1977-02-09", "AD1234567")


def test_myid_data_without_a_profile_is_a_re_verification_not_an_outage() -> None:
    # Given MyID's answer to a re-verification: the comparison, no profile (absent or null)
    for data in ({"comparison_value": 0.4}, {"comparison_value": 0.4, "profile": None}):
        # When it is read / Then it is the app's 400, not a 503 a retry would repeat
        with pytest.raises(CodeRejected, match="IDENTITY_NO_PROFILE"):
            parse_sdk_data({"data": data})


@pytest.mark.parametrize("provider", ["myid", "oneid"])
def test_a_real_provider_needs_its_endpoint(
    fresh_settings: None, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv("IDENTITY_PROVIDER", provider)
    reset_settings()
    with pytest.raises(RuntimeError, match="IDENTITY_PROVIDER_URL"):
        get_provider()


@pytest.mark.parametrize(
    ("provider", "adapter", "url"),
    [
        ("myid", MyIdProvider, "https://api.devmyid.uz"),
        ("oneid", OneIdProvider, "https://sso.egov.uz/sso/oauth/Authorization.do"),
    ],
)
def test_a_real_provider_is_built_from_settings(
    fresh_settings: None,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
    adapter: type[MyIdProvider | OneIdProvider],
    url: str,
) -> None:
    for name, value in {
        "IDENTITY_PROVIDER": provider,
        "IDENTITY_PROVIDER_URL": url,
        "IDENTITY_CLIENT_ID": "car-retail",
        "IDENTITY_CLIENT_SECRET": "s3cret",
        "IDENTITY_TIMEOUT_SECONDS": "1.5",
        "IDENTITY_MAX_RETRIES": "1",
    }.items():
        monkeypatch.setenv(name, value)
    reset_settings()
    built = get_provider()
    assert isinstance(built, MyIdProvider | OneIdProvider)
    assert type(built) is adapter
    assert (built.client.client_secret, built.http.timeout_seconds, built.http.max_retries) == ("s3cret", 1.5, 1)


@pytest.mark.parametrize(
    "header",
    [b"not json", b'["a list"]', b'{"alg": "HS256", "kid": 7}', '{"kid": "é"}'.encode()],
    ids=["not-json", "not-an-object", "kid-not-a-string", "kid-of-no-key"],
)
def test_a_token_whose_header_names_no_key_of_ours_is_invalid(header: bytes) -> None:
    import base64

    from core.errors import NotAuthenticated
    from domain.identity import tokens

    # Given a token whose header is malformed or names no key of ours
    forged_header = base64.urlsafe_b64encode(header).rstrip(b"=").decode()
    token = f"{forged_header}.e30.c2lnbmF0dXJl"
    # When it is verified, then it is refused as invalid, saying nothing of it
    with pytest.raises(NotAuthenticated) as refused:
        tokens.verify(token, "access")
    assert refused.value.code == "TOKEN_INVALID"
