"""The Eskiz SMS adapter against a fake Eskiz written from its published API (tests/fake_eskiz.py): the
token taken once and kept, renewed when it expires, a refused number, a gateway error; and through HTTP,
an `otp` partner's login with `SMS_PROVIDER=eskiz`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from pymongo.database import Database

from core.clock import FrozenClock
from domain.identity import eskiz
from domain.identity.eskiz import EskizGateway
from domain.identity.sms import SmsRefused, SmsUnavailable
from ops.__main__ import main as ops_main
from tests import fake_eskiz
from tests.factories import ApiClient
from tests.fake_eskiz import FakeEskiz, running_fake_eskiz

LOGIN = "/api/v1/auth/login"


# The sign-in texts the operator registered with Eskiz, as Eskiz's cabinet holds them (`{code}`: the digits).
TEMPLATES = {
    "en": "Car Retail: your sign-in code is {code}. Do not tell it to anyone.",
    "ru": "Car Retail: ваш код входа {code}. Никому его не сообщайте.",
    "uz": "Car Retail: kirish kodingiz {code}. Uni hech kimga aytmang.",
}


@pytest.fixture
def fake() -> Iterator[FakeEskiz]:
    eskiz.forget_tokens()
    with running_fake_eskiz() as running:
        # Given the texts Eskiz's moderators approved for the account
        running.approve(
            "one", "two", "code", "code {code}", "Car Retail: your sign-in code is {code}.", *TEMPLATES.values()
        )
        yield running
    eskiz.forget_tokens()


def gateway(fake: FakeEskiz, *, password: str = fake_eskiz.PASSWORD) -> EskizGateway:
    return EskizGateway(fake.base_url, fake_eskiz.EMAIL, password, sender="4546", timeout_seconds=0.5)


def test_a_message_goes_to_the_number_without_plus_from_the_sender(fake: FakeEskiz) -> None:
    # When a code is sent to an Uzbek number
    gateway(fake).send("+998901234567", "Car Retail: your sign-in code is 123456.")
    # Then Eskiz got its documented fields, and one login gave the token
    assert fake.sent == [
        {"mobile_phone": "998901234567", "message": "Car Retail: your sign-in code is 123456.", "from": "4546"}
    ]
    assert fake.calls["login"] == 1


def test_the_token_is_kept_across_messages(fake: FakeEskiz) -> None:
    # When two messages are sent, by two gateway objects of one process
    gateway(fake).send("+998901234567", "one")
    gateway(fake).send("+998901234568", "two")
    # Then Eskiz was logged in to once
    assert (fake.calls["login"], fake.calls["send"]) == (1, 2)


def test_an_expired_token_is_refreshed_and_the_message_sent(fake: FakeEskiz, frozen_clock: FrozenClock) -> None:
    # Given a token taken, which then expires
    gateway(fake).send("+998901234567", "one")
    frozen_clock.advance(int(timedelta(days=31).total_seconds()))
    # When another message is sent
    gateway(fake).send("+998901234567", "two")
    # Then the token was refreshed (PATCH), not taken again, and the message went
    assert (fake.calls["login"], fake.calls["refresh"], len(fake.sent)) == (1, 1, 2)


def test_a_token_eskiz_forgot_is_taken_again_by_logging_in(fake: FakeEskiz) -> None:
    # Given a token Eskiz no longer knows (refreshing it fails)
    gateway(fake).send("+998901234567", "one")
    fake.revoke_tokens()
    # When another message is sent / Then the adapter logs in again and sends it
    gateway(fake).send("+998901234567", "two")
    assert (fake.calls["login"], fake.calls["refresh"], len(fake.sent)) == (2, 1, 2)


def test_a_number_eskiz_refuses_is_a_refused_number(fake: FakeEskiz) -> None:
    fake.refused_numbers.add("998901234569")
    with pytest.raises(SmsRefused):
        gateway(fake).send("+998901234569", "code")
    # A number outside Uzbekistan is refused without asking /send (it needs /send-global)
    with pytest.raises(SmsRefused):
        gateway(fake).send("+74951234567", "code")
    assert fake.sent == []


@pytest.mark.parametrize("outcome", [500, 502, "garbage", "timeout"])
def test_a_gateway_error_is_unavailable_and_never_retried(fake: FakeEskiz, outcome: Any) -> None:
    # Given Eskiz failing the send / When a message is sent / Then it is unavailable, sent once only
    fake.fail("send", outcome)
    with pytest.raises(SmsUnavailable):
        gateway(fake).send("+998901234567", "code")
    assert fake.calls["send"] == 1


def test_wrong_credentials_are_our_outage(fake: FakeEskiz) -> None:
    with pytest.raises(SmsUnavailable):
        gateway(fake, password="wrong").send("+998901234567", "code")
    assert fake.calls["send"] == 0


def test_nothing_of_a_message_or_token_reaches_the_logs(fake: FakeEskiz, caplog: pytest.LogCaptureFixture) -> None:
    fake.fail("send", 500)
    with pytest.raises(SmsUnavailable):
        gateway(fake).send("+998901234567", "code 482913")
    logged = caplog.text
    assert "482913" not in logged
    assert "901234567" not in logged
    assert fake_eskiz.PASSWORD not in logged


# -- through HTTP: an otp partner with SMS_PROVIDER=eskiz


@pytest.fixture
def otp_partner_on_eskiz(
    fake: FakeEskiz, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Database[Any]
) -> str:
    from core.settings import reset_settings

    templates = {f"ESKIZ_LOGIN_TEMPLATE_{language.upper()}": text for language, text in TEMPLATES.items()}
    for name, value in {**fake_eskiz.settings_env(fake), **templates}.items():
        monkeypatch.setenv(name, value)
    reset_settings()
    capsys.readouterr()
    assert ops_main(["partners", "add", "Bank App", "--login", "otp"]) == 0
    return capsys.readouterr().out.strip().splitlines()[-1]


def test_an_otp_login_signs_in_with_the_code_eskiz_delivered(
    api: ApiClient, fake: FakeEskiz, otp_partner_on_eskiz: str, frozen_clock: FrozenClock
) -> None:
    # Given a code asked through an otp partner, which Eskiz delivered
    key = otp_partner_on_eskiz
    sent = api.post(LOGIN, json={"phone": "+998901234567"}, headers={"client": key}, auth=False)
    assert sent.status_code == 202
    code = fake.last_code()
    # And the text sent is the registered template of the caller's language with the code in its place,
    # exactly: Eskiz (which refuses any text its moderators did not approve) took it
    assert fake.sent[-1]["message"] == TEMPLATES["en"].replace("{code}", code)
    assert fake.refused_texts == []
    # Then the sandbox's code does not sign in, the delivered one does
    sandbox = api.post(LOGIN, json={"phone": "+998901234567", "otp": "666666"}, headers={"client": key}, auth=False)
    signed_in = api.post(LOGIN, json={"phone": "+998901234567", "otp": code}, headers={"client": key}, auth=False)
    assert code != "666666"
    assert sandbox.json()["code"] == "LOGIN_CODE_WRONG"
    assert signed_in.status_code == 201


def test_a_gateway_error_is_503_with_no_tokens_and_the_code_may_be_asked_again(
    api: ApiClient, db: Database[Any], fake: FakeEskiz, otp_partner_on_eskiz: str
) -> None:
    # Given Eskiz failing
    key = otp_partner_on_eskiz
    fake.fail("send", 500)
    # When a code is asked / Then it is 503, no code is kept, and asking again at once sends one
    failed = api.post(LOGIN, json={"phone": "+998901234567"}, headers={"client": key}, auth=False)
    assert (failed.status_code, failed.json()["code"]) == (503, "SMS_GATEWAY_UNAVAILABLE")
    assert "accessToken" not in failed.text
    assert db.login_codes.count_documents({}) == 0
    assert api.post(LOGIN, json={"phone": "+998901234567"}, headers={"client": key}, auth=False).status_code == 202


def test_a_refused_number_is_400(api: ApiClient, fake: FakeEskiz, otp_partner_on_eskiz: str) -> None:
    fake.refused_numbers.add("998901234566")
    refused = api.post(LOGIN, json={"phone": "+998901234566"}, headers={"client": otp_partner_on_eskiz}, auth=False)
    assert (refused.status_code, refused.json()["code"]) == (400, "SMS_NUMBER_REFUSED")


@pytest.mark.parametrize("step", ["login", "send"])
def test_an_eskiz_that_never_answers_ends_the_login_within_the_request_budget(  # noqa: PLR0917 (fixtures)
    api: ApiClient,
    db: Database[Any],
    fake: FakeEskiz,
    otp_partner_on_eskiz: str,
    monkeypatch: pytest.MonkeyPatch,
    step: str,
) -> None:
    from core.settings import reset_settings

    # Given a request budget for partner calls of 1 s, a gateway timeout far above it, and Eskiz never
    # answering (its login, or the send itself)
    monkeypatch.setenv("PROVIDER_BUDGET_SECONDS", "1")
    monkeypatch.setenv("SMS_TIMEOUT_SECONDS", "20")
    reset_settings()
    fake.fail(step, "hang")
    # When a code is asked
    started = time.monotonic()
    failed = api.post(LOGIN, json={"phone": "+998901234567"}, headers={"client": otp_partner_on_eskiz}, auth=False)
    took = time.monotonic() - started
    # Then the login ends at the budget (generously: well before the gateway's own timeout) with 503, no
    # tokens, and no code kept
    assert (failed.status_code, failed.json()["code"]) == (503, "SMS_GATEWAY_UNAVAILABLE")
    assert "accessToken" not in failed.text
    assert took < 6
    assert db.login_codes.count_documents({}) == 0


def test_the_sms_is_in_the_callers_language(
    api: ApiClient, fake: FakeEskiz, otp_partner_on_eskiz: str, frozen_clock: FrozenClock
) -> None:
    # When a code is asked in Russian, then in Uzbek for another phone
    headers = {"client": otp_partner_on_eskiz, "accept-language": "ru"}
    assert api.post(LOGIN, json={"phone": "+998901234561"}, headers=headers, auth=False).status_code == 202
    headers["accept-language"] = "uz"
    assert api.post(LOGIN, json={"phone": "+998901234562"}, headers=headers, auth=False).status_code == 202
    # Then each went in that language's registered text
    ru, uz = fake.sent
    assert ru["message"] == TEMPLATES["ru"].replace("{code}", fake_eskiz.code_in(ru["message"]))
    assert uz["message"] == TEMPLATES["uz"].replace("{code}", fake_eskiz.code_in(uz["message"]))


def test_a_template_eskiz_did_not_approve_is_503_with_an_alarm_never_the_buyers_fault(  # noqa: PLR0917 (fixtures)
    api: ApiClient,
    db: Database[Any],
    fake: FakeEskiz,
    otp_partner_on_eskiz: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from core.settings import reset_settings

    # Given a template changed by one character from the text Eskiz approved
    monkeypatch.setenv("ESKIZ_LOGIN_TEMPLATE_EN", TEMPLATES["en"].replace("anyone.", "anyone!"))
    reset_settings()
    # When a code is asked
    refused = api.post(LOGIN, json={"phone": "+998901234563"}, headers={"client": otp_partner_on_eskiz}, auth=False)
    # Then it is our outage (503 SMS_TEXT_NOT_APPROVED), not the buyer's number, with an error line to alarm on
    assert (refused.status_code, refused.json()["code"]) == (503, "SMS_TEXT_NOT_APPROVED")
    assert "accessToken" not in refused.text
    assert fake.sent == []
    assert len(fake.refused_texts) == 1
    alarms = [
        record
        for record in caplog.records
        if record.levelname == "ERROR" and "ESKIZ_LOGIN_TEMPLATE" in record.getMessage()
    ]
    assert len(alarms) == 1
    # And no code is kept: once the template is fixed the person asks again at once
    assert db.login_codes.count_documents({}) == 0


def test_a_test_account_sends_eskizs_test_phrase_and_signs_in_with_the_sandbox_code(
    api: ApiClient, fake: FakeEskiz, otp_partner_on_eskiz: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.settings import reset_settings

    # Given Eskiz's test account (it sends only its test phrases), configured as such for staging
    fake.test_account = True
    monkeypatch.setenv("ESKIZ_TEST_ACCOUNT", "true")
    monkeypatch.setenv("ESKIZ_TEST_TEXT", "Bu Eskiz dan test")
    reset_settings()
    key = otp_partner_on_eskiz
    # When a code is asked / Then the phrase went, exactly, and the code is the sandbox's
    assert api.post(LOGIN, json={"phone": "+998901234564"}, headers={"client": key}, auth=False).status_code == 202
    assert [sent["message"] for sent in fake.sent] == ["Bu Eskiz dan test"]
    signed_in = api.post(LOGIN, json={"phone": "+998901234564", "otp": "666666"}, headers={"client": key}, auth=False)
    assert signed_in.status_code == 201


def test_a_test_account_is_refused_in_prod(fake: FakeEskiz, settings_env: Callable[..., None]) -> None:
    from core.errors import Unavailable
    from domain.identity.login_codes import get_gateway

    # Given a production stage configured with an Eskiz test account (whose code is fixed)
    settings_env(**fake_eskiz.settings_env(fake), ESKIZ_TEST_ACCOUNT="true", STAGE="prod")
    # When a code is to be sent / Then there is no gateway
    with pytest.raises(Unavailable):
        get_gateway()
