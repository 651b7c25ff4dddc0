"""The ATMOS and Payme card-processor adapters against fake servers on 127.0.0.1 written from each
provider's published protocol and public integrations (tests/fake_atmos.py, tests/fake_payme.py): the
flow in tiyin, the card as each takes it (ATMOS its number, Payme a token the app got), the code and its
lifetime, their refusals as final declines, a token that dies mid-flow, timeouts, 5xx and a processor
that hangs, an answer lost after the charge, the reverse by the charge's own id, the credentials; then
the whole API paying through each, and the reconciliation of what was left in doubt."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from logging import INFO
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core import outbound
from core.clock import FrozenClock
from core.errors import Unavailable
from core.settings import reset_settings
from domain.orders import lifecycle
from domain.orders.records import OrderRecord
from domain.payments import processor_factory, refunds, settlement, store
from domain.payments.atmos import AtmosProcessor
from domain.payments.payme import PaymeProcessor
from domain.payments.processor import (
    CARD_BLOCKED,
    CARD_DECLINED,
    INSUFFICIENT_FUNDS,
    CardDetails,
    CardProcessor,
    CardToken,
    OtpExpired,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorUnavailable,
    WrongOtp,
    to_tiyin,
)
from domain.payments.sandbox import PAYS_UZCARD
from domain.payments.settings import PaymentSettings, card_processor_credentials
from local.context import LocalLambdaContext
from tests import fake_atmos, fake_payme
from tests.data import insert_order, purchasable_car
from tests.factories import ApiClient
from tests.fake_http import Answer, Outcome, serving
from transactions.reconciliation import lambda_handler as reconcile_handler

CARD = CardDetails(PAYS_UZCARD, 2099, 3)  # both fakes know it, valid through 03/99
POOR_CARD = "8600069195406311"  # a test card of Payme's sandbox; each fake gives it too little money

Db = Database[dict[str, Any]]


@dataclass
class Provider:
    """One processor's fake and what a test needs to drive it the same way for either."""

    name: str
    fake: fake_atmos.FakeAtmos | fake_payme.FakePayme
    otp: str  # the code its sandbox sends
    create_call: str
    charge_call: str
    cancel_call: str

    @property
    def processor(self) -> CardProcessor:
        return processor_factory.get_processor()

    def card(self, number: str = PAYS_UZCARD) -> CardDetails | CardToken:
        """The card as this processor takes it: ATMOS its number, Payme the token the partner's app got
        from Payme's front-end cards.create."""
        if isinstance(self.fake, fake_payme.FakePayme):
            return CardToken(self.fake.tokenize(number))
        return CardDetails(number, 2099, 3)

    def card_fields(self, number: str = PAYS_UZCARD) -> dict[str, str]:
        """The create body's card fields the partner app sends for this processor."""
        card = self.card(number)
        if isinstance(card, CardToken):
            return {"cardToken": card.token}
        return {"cardNumber": number, "expiry": "03/99", "cardType": "UZCARD"}


def _atmos_env(url: str) -> dict[str, str]:
    return {
        "PAYMENT_PROCESSOR": "atmos",
        "ATMOS_API_URL": url,
        "ATMOS_STORE_ID": str(fake_atmos.STORE_ID),
        "ATMOS_CONSUMER_KEY": fake_atmos.CONSUMER_KEY,
        "ATMOS_CONSUMER_SECRET": fake_atmos.CONSUMER_SECRET,
    }


def _payme_env(url: str) -> dict[str, str]:
    return {
        "PAYMENT_PROCESSOR": "payme",
        "PAYME_API_URL": f"{url}/api",
        "PAYME_CASHBOX_ID": fake_payme.CASHBOX_ID,
        "PAYME_KEY": fake_payme.KEY,
    }


def _use(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PAYMENT_PROCESSOR_TIMEOUT_SECONDS", "2")
    reset_settings()
    processor_factory.reset_processor()


@pytest.fixture
def atmos(monkeypatch: pytest.MonkeyPatch) -> Iterator[Provider]:
    fake = fake_atmos.FakeAtmos()
    fake.issue_card(PAYS_UZCARD, 3, 2099)
    fake.issue_card(POOR_CARD, 3, 2099, balance=100)
    with serving(fake):
        _use(_atmos_env(fake.base_url), monkeypatch)
        yield Provider("atmos", fake, fake_atmos.TEST_OTP, "pay/create", "pay/apply", "pay/reverse")
    processor_factory.reset_processor()


@pytest.fixture
def payme(monkeypatch: pytest.MonkeyPatch) -> Iterator[Provider]:
    fake = fake_payme.FakePayme()
    fake.issue_card(POOR_CARD, 3, 2099, balance=100)
    with serving(fake):
        _use(_payme_env(fake.base_url), monkeypatch)
        yield Provider("payme", fake, fake_payme.TEST_CODE, "receipts.create", "receipts.pay", "receipts.cancel")
    processor_factory.reset_processor()


@pytest.fixture(params=["atmos", "payme"])
def provider(request: pytest.FixtureRequest) -> Provider:
    chosen: Provider = request.getfixturevalue(request.param)
    return chosen


# --- the adapters ----------------------------------------------------------------------------------


def test_a_payment_goes_through_in_tiyin_with_the_expiry_in_the_processors_format(provider: Provider) -> None:
    # Given a registered payment of 150,000 sums
    processor = provider.processor
    payment = processor.create(provider.card(), to_tiyin(150_000), "42")
    # When the code is sent again and the buyer's code confirms it
    assert processor.resend_otp(payment).otp_hash is None  # the processor checks the code itself
    processor.confirm(payment, provider.otp)
    # Then the card was debited 15,000,000 tiyin once, and the processor says charged
    assert provider.fake.debited(PAYS_UZCARD) == 15_000_000
    assert processor.status(payment).state is PaymentState.CHARGED
    # And the expiry went in the processor's own format: ATMOS YYMM, Payme MMYY
    if isinstance(provider.fake, fake_atmos.FakeAtmos):
        pre_apply = provider.fake.bodies[1]
        assert (pre_apply["expiry"], pre_apply["store_id"], provider.fake.bodies[0]["account"]) == ("9903", 1981, "42")
        assert provider.fake.payment(payment.processor_id)["codes_sent"] == 2
    else:
        # Payme: the token only; no card number ever went to Payme from us
        assert "cards.create" not in provider.fake.sequence
        assert PAYS_UZCARD not in json.dumps(provider.fake.requests)
        assert payment.card_mask == "860049******6478"
        assert provider.fake.payment(payment.processor_id)["account"] == {"transaction_id": "42"}
        assert provider.fake.calls["cards.get_verify_code"] == 2


def test_a_wrong_code_is_refused_and_debits_nothing(provider: Provider) -> None:
    processor = provider.processor
    payment = processor.create(provider.card(), 100_000, "1")
    with pytest.raises(WrongOtp):
        processor.confirm(payment, "000000")
    assert provider.fake.debited(PAYS_UZCARD) == 0
    assert processor.status(payment) == PaymentStatus(PaymentState.NOT_CHARGED)
    # And the right code then pays
    processor.confirm(payment, provider.otp)
    assert provider.fake.debited(PAYS_UZCARD) == 100_000


def test_not_enough_money_is_a_decline_that_debits_nothing(provider: Provider) -> None:
    processor = provider.processor
    payment = processor.create(provider.card(POOR_CARD), 100_000, "1")
    with pytest.raises(PaymentDeclined) as declined:
        processor.confirm(payment, provider.otp)
    assert declined.value.reason == INSUFFICIENT_FUNDS
    assert provider.fake.debited(POOR_CARD) == 0
    assert processor.status(payment).state is PaymentState.NOT_CHARGED


def test_an_answer_lost_after_the_charge_is_not_charged_twice(provider: Provider) -> None:
    # Given a charge the processor made, but whose answer never came back (502)
    processor = provider.processor
    payment = processor.create(provider.card(), 100_000, "1")
    provider.fake.lose_answer(provider.charge_call)
    with pytest.raises(ProcessorUnavailable):
        processor.confirm(payment, provider.otp)
    assert processor.status(payment).state is PaymentState.CHARGED
    # When the apply is retried
    processor.confirm(payment, provider.otp)
    # Then it is a success that charged once
    assert provider.fake.debited(PAYS_UZCARD) == 100_000
    assert provider.fake.calls[provider.charge_call] == 1


def test_a_charge_is_cancelled_through_the_processors_cancel(provider: Provider) -> None:
    processor = provider.processor
    payment = processor.create(provider.card(), 100_000, "1")
    charge_id = processor.confirm(payment, provider.otp)
    processor.cancel(payment._replace(charge_id=charge_id))
    assert provider.fake.calls[provider.cancel_call] == 1
    assert processor.status(payment) == PaymentStatus(PaymentState.CANCELLED)
    assert provider.fake.debited(PAYS_UZCARD) == 0
    # Cancelling again, or a payment never charged, is done: nothing is (any longer) debited
    processor.cancel(payment)
    processor.cancel(processor.create(provider.card(), 100_000, "2"))


@pytest.mark.parametrize(
    "failure", [500, 503, "garbage", (200, {"unexpected": True})], ids=["500", "503", "not-json", "unknown-shape"]
)
def test_5xx_and_answers_we_cannot_read_are_outages_never_successes(
    provider: Provider, failure: Outcome | Answer
) -> None:
    def fail(call: str) -> None:
        if isinstance(failure, tuple):
            provider.fake.answer_instead(call, failure)
        else:
            provider.fake.fail(call, failure)

    processor = provider.processor
    payment = processor.create(provider.card(), 100_000, "1")
    fail(provider.charge_call)
    with pytest.raises(ProcessorUnavailable):
        processor.confirm(payment, provider.otp)
    assert provider.fake.debited(PAYS_UZCARD) == 0
    # And at registration, nothing is half-made into a success either
    fail(provider.create_call)
    with pytest.raises(ProcessorUnavailable):
        processor.create(provider.card(), 100_000, "2")


def test_a_processor_that_does_not_answer_times_out(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts connections, never answers
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        monkeypatch.setenv("ATMOS_API_URL" if provider.name == "atmos" else "PAYME_API_URL", url)
        monkeypatch.setenv("PAYMENT_PROCESSOR_TIMEOUT_SECONDS", "0.2")
        reset_settings()
        processor_factory.reset_processor()
        with pytest.raises(ProcessorUnavailable):
            provider.processor.create(provider.card(), 100_000, "1")


def test_an_unreachable_processor_is_an_outage(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.create_server(("127.0.0.1", 0)) as closed:
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    monkeypatch.setenv("ATMOS_API_URL" if provider.name == "atmos" else "PAYME_API_URL", url)
    reset_settings()
    processor_factory.reset_processor()
    with pytest.raises(ProcessorUnavailable):
        provider.processor.create(provider.card(), 100_000, "1")


# --- ATMOS: the access token ---------------------------------------------------------------------


def test_atmos_token_is_cached_and_fetched_again_shortly_before_it_expires(
    atmos: Provider, frozen_clock: FrozenClock
) -> None:
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    fake.token_lifetime = 120
    payment = atmos.processor.create(CARD, 100, "1")
    frozen_clock.advance(89)
    atmos.processor.resend_otp(payment)
    assert fake.issued_tokens == ["atmos-token-1"]
    frozen_clock.advance(1)  # 30 s before it expires
    atmos.processor.resend_otp(payment)
    assert fake.issued_tokens == ["atmos-token-1", "atmos-token-2"]


def test_atmos_token_that_dies_mid_flow_is_renewed_once(atmos: Provider) -> None:
    # Given a payment registered with a token that then dies
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    payment = atmos.processor.create(CARD, 100, "1")
    fake.kill_tokens()
    # When the payment is confirmed: 401, a fresh token, the call again
    atmos.processor.confirm(payment, atmos.otp)
    assert fake.sequence[-4:] == ["pay/get", "token", "pay/get", "pay/apply"]
    assert fake.debited(PAYS_UZCARD) == 100
    # And a gateway refusing every token is an outage, not a loop
    fake.fail("pay/get", 401, 401)
    with pytest.raises(ProcessorUnavailable):
        atmos.processor.status(payment)


def test_atmos_wrong_consumer_secret_is_an_outage(atmos: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATMOS_CONSUMER_SECRET", "not-the-secret")
    reset_settings()
    with pytest.raises(ProcessorUnavailable):
        atmos.processor.create(CARD, 100, "1")
    assert atmos.fake.sequence == ["token"]


def test_atmos_unknown_result_codes_are_outages(atmos: Provider) -> None:
    payment = atmos.processor.create(CARD, 100, "1")
    atmos.fake.answer_instead("pay/apply", (200, {"result": {"code": "STPIMS-ERR-999", "description": "?"}}))
    with pytest.raises(ProcessorUnavailable):
        atmos.processor.confirm(payment, atmos.otp)
    unknown_state = {"confirmed": True, "status_code": "7"}  # a status ATMOS's sources never show
    atmos.fake.answer_instead("pay/get", (200, {"result": fake_atmos.OK, "store_transaction": unknown_state}))
    with pytest.raises(ProcessorUnavailable):
        atmos.processor.status(payment)


def test_atmos_wrong_card_is_a_decline(atmos: Provider) -> None:
    with pytest.raises(PaymentDeclined):
        atmos.processor.create(CardDetails(PAYS_UZCARD, 2099, 4), 100, "1")  # not the card's expiry


# --- Payme: its errors and its receipts ----------------------------------------------------------


def test_payme_test_card_without_sms_is_declined_at_create(payme: Provider) -> None:
    # Given a card the app tokenized, whose holder has no SMS notifications / When a payment starts
    with pytest.raises(PaymentDeclined) as declined:
        payme.processor.create(payme.card(fake_payme.NO_SMS_CARD), 100_000, "1")
    # Then it is a decline of the card (the blocked and expired test cards never get a token in the app)
    assert declined.value.reason == CARD_BLOCKED


def test_payme_expired_code_and_too_many_attempts_need_a_new_code(payme: Provider) -> None:
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    payment = payme.processor.create(payme.card(), 100_000, "1")
    fake.expire_codes()
    with pytest.raises(OtpExpired):
        payme.processor.confirm(payment, payme.otp)
    payme.processor.resend_otp(payment)
    for _ in range(fake_payme.MAX_ATTEMPTS):
        with pytest.raises(WrongOtp):
            payme.processor.confirm(payment, "000000")
    with pytest.raises(OtpExpired):
        payme.processor.confirm(payment, payme.otp)
    assert fake.debited(PAYS_UZCARD) == 0


def test_payme_key_goes_with_cards_check_and_the_receipts_never_with_the_front_end_methods(payme: Provider) -> None:
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    # When a payment is made (the fake takes either X-Auth for cards.check: the sources disagree)
    payment = payme.processor.create(payme.card(), 100_000, "1")
    payme.processor.confirm(payment, payme.otp)
    # Then cards.check went as a server method, with the key; the front-end's methods with the id alone
    sent = dict(zip(fake.sequence, fake.auth, strict=True))
    with_key = f"{fake_payme.CASHBOX_ID}:{fake_payme.KEY}"
    assert sent["cards.check"] == sent["receipts.pay"] == sent["receipts.create"] == with_key
    assert sent["cards.verify"] == sent["cards.get_verify_code"] == fake_payme.CASHBOX_ID


def test_payme_31630_is_a_decline_that_names_no_cause(payme: Provider) -> None:
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    # Given a card whose debit Payme refuses with -31630 (its cause differs between sources)
    fake.cards[PAYS_UZCARD].debit_error = -31630
    payment = payme.processor.create(payme.card(), 100_000, "1")
    # When it is confirmed / Then it is declined by the bank, not said to lack funds
    with pytest.raises(PaymentDeclined) as declined:
        payme.processor.confirm(payment, payme.otp)
    assert declined.value.reason == CARD_DECLINED
    assert fake.debited(PAYS_UZCARD) == 0


def test_payme_refused_credentials_and_receipts_in_progress_are_outages(
    payme: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    payment = payme.processor.create(payme.card(), 100_000, "1")
    payme.fake.answer_instead("receipts.check", (200, {"jsonrpc": "2.0", "id": 1, "result": {"state": 2}}))
    with pytest.raises(ProcessorUnavailable):
        payme.processor.status(payment)  # 2: the card is being debited, the outcome not known yet
    monkeypatch.setenv("PAYME_KEY", "not-the-key")
    reset_settings()
    with pytest.raises(ProcessorUnavailable):
        payme.processor.status(payment)  # -32504, not enough privileges


# --- credentials and choosing the adapter ----------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "secret"),
    [
        (("ATMOS_STORE_ID", "ATMOS_CONSUMER_KEY", "ATMOS_CONSUMER_SECRET"), {"ATMOS_STORE_ID": "1981"}),
        (("PAYME_CASHBOX_ID", "PAYME_KEY"), {"PAYME_CASHBOX_ID": "5e73"}),
    ],
)
def test_credentials_come_from_the_processors_json_secret_when_deployed(
    secretsmanager: Any, monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...], secret: dict[str, str]
) -> None:
    whole = {name: secret.get(name, f"value-of-{name}") for name in names}
    good = secretsmanager.create_secret(Name="car-retail/test/processor", SecretString=json.dumps(whole))
    bad = secretsmanager.create_secret(Name="car-retail/test/broken", SecretString=json.dumps({names[0]: "x"}))
    monkeypatch.setenv("PAYMENT_PROCESSOR_SECRET_ID", good["ARN"])
    reset_settings()
    assert card_processor_credentials(*names) == whole
    monkeypatch.setenv("PAYMENT_PROCESSOR_SECRET_ID", bad["ARN"])
    reset_settings()
    with pytest.raises(Unavailable):
        card_processor_credentials(*names)
    monkeypatch.delenv("PAYMENT_PROCESSOR_SECRET_ID")
    reset_settings()
    with pytest.raises(Unavailable):
        card_processor_credentials(*names)


def test_the_sandbox_is_the_local_default_and_the_real_processors_are_chosen_by_name() -> None:
    unset = PaymentSettings()
    assert unset.effective_payment_processor("local") == "sandbox"
    assert unset.effective_payment_processor("dev") == "sandbox"
    assert unset.effective_payment_processor("staging") is None
    build: Callable[[PaymentSettings, str], CardProcessor] = processor_factory._build  # the builder under the cache
    try:
        for refused in (
            PaymentSettings(payment_processor="sandbox"),
            unset,  # not chosen
            PaymentSettings(payment_processor="atmos"),  # no ATMOS_API_URL
        ):
            with pytest.raises(Unavailable):
                build(refused, "prod")
        atmos = build(PaymentSettings(payment_processor="atmos", atmos_api_url="https://partner.atmos.uz"), "prod")
        assert isinstance(atmos, AtmosProcessor)
        payme_url = "https://checkout.paycom.uz/api"
        payme = build(PaymentSettings(payment_processor="payme", payme_api_url=payme_url), "prod")
        assert isinstance(payme, PaymeProcessor)
    finally:
        processor_factory.reset_processor()


# --- the API paying through each processor ---------------------------------------------------------


def signed_in_order(api: ApiClient, db: Db, amount_due: int) -> tuple[OrderRecord, dict[str, str]]:
    """A signed-in caller's order, and its ids as a payment's body names them."""
    api.login()
    user_id = ObjectId(api.get("/api/v1/auth/me").json()["data"]["_id"])
    order = insert_order(db, user_id, purchasable_car(db), amount_due=amount_due)
    return order, {"brandId": str(order["brandId"]), "orderId": str(order["_id"])}


def start_payment(
    api: ApiClient, db: Db, provider: Provider, amount: int, amount_due: int
) -> tuple[OrderRecord, dict[str, Any]]:
    """A signed-in caller's order and a created transaction, the card sent as the processor takes it;
    returns (order, apply body without the code)."""
    order, ids = signed_in_order(api, db, amount_due)
    created = api.post("/api/v1/transactions/create", json={"amount": amount, **provider.card_fields(), **ids})
    assert created.status_code == 200, created.text
    return order, {"transactionId": created.json()["data"]["transactionId"], "amount": amount, **ids}


def test_the_api_pays_through_the_processor_end_to_end(
    api: ApiClient,
    db: Db,
    provider: Provider,
    captured_logs: Callable[[], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given a card payment of 1,000 sums started through the API
    order, body = start_payment(api, db, provider, 1_000, amount_due=1_000)
    # When the buyer types a wrong code
    wrong = api.post("/api/v1/transactions/apply", json={**body, "otp": "000000"})
    # Then it is a 400 with the attempts left, and nothing was debited
    assert (wrong.status_code, wrong.json()["details"]) == (400, {"attemptsLeft": 2})
    assert provider.fake.debited(PAYS_UZCARD) == 0
    # And when the processor's token dies before the right code comes, it is renewed and the order paid
    if isinstance(provider.fake, fake_atmos.FakeAtmos):
        provider.fake.kill_tokens()
    applied = api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp})
    assert applied.status_code == 200, applied.text
    assert provider.fake.debited(PAYS_UZCARD) == 100_000  # 1,000 sums in tiyin
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "PAID"
    transaction = db.transactions.find_one({"_id": body["transactionId"]}) or {}
    assert (transaction["processor"], transaction["status"]) == (provider.name, "CONFIRMED")
    # And no card number, code, access token or credential reached any log, even at DEBUG
    logs = captured_logs()
    assert "card payment confirmed" in logs
    for secret in (PAYS_UZCARD, provider.otp, fake_atmos.CONSUMER_SECRET, fake_payme.KEY, "atmos-token-"):
        assert not re.search(rf"(?<!\d){re.escape(secret)}(?!\d)", logs), secret
    # And no card token either at the levels a stage logs (the driver's DEBUG lines show stored documents)
    if isinstance(provider.fake, fake_payme.FakePayme):
        logged = [record.getMessage() + repr(record.__dict__) for record in caplog.records if record.levelno >= INFO]
        assert not any(token in line for token in provider.fake.tokens for line in logged)


def test_an_outage_at_apply_is_a_503_and_a_retry_after_the_claim_pays_once(
    api: ApiClient, db: Db, provider: Provider, frozen_clock: FrozenClock
) -> None:
    order, body = start_payment(api, db, provider, 1_000, amount_due=2_000)
    provider.fake.lose_answer(provider.charge_call)
    first = api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp})
    assert (first.status_code, first.headers["Retry-After"]) == (503, "60")
    frozen_clock.advance(60)
    retried = api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp})
    assert retried.status_code == 200, retried.text
    paid = db.orders.find_one({"_id": order["_id"]}) or {}
    assert (paid["paidAmount"], paid["paymentIds"]) == (1_000, [str(body["transactionId"])])
    assert provider.fake.debited(PAYS_UZCARD) == 100_000


# --- the payment reconciliation ------------------------------------------------------------------


def run_reconciliation() -> dict[str, Any]:
    """What EventBridge Scheduler runs every 5 minutes."""
    result: dict[str, Any] = reconcile_handler({}, LocalLambdaContext(function_name="PaymentReconciliation"))
    return result


def test_reconciliation_asks_the_processor_about_a_charge_whose_answer_was_lost(
    api: ApiClient, db: Db, provider: Provider, frozen_clock: FrozenClock
) -> None:
    # Given a charge the processor made, whose answer was lost, and a client that never retried
    order, body = start_payment(api, db, provider, 1_000, amount_due=2_000)
    provider.fake.lose_answer(provider.charge_call)
    assert api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp}).status_code == 503
    # When the reconciliation runs a few minutes later, twice
    frozen_clock.advance(6 * 60)
    first, second = run_reconciliation(), run_reconciliation()
    # Then it asked the processor's status call and recorded the payment on the order once
    assert (first["outcomes"], second["outcomes"]) == ({"Confirmed": 1}, {})
    paid = db.orders.find_one({"_id": order["_id"]}) or {}
    assert (paid["statusSlug"], paid["paidAmount"]) == ("PARTIALLY_PAID", 1_000)
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["status"] == "CONFIRMED"


def test_reconciliation_cancels_through_the_processor_a_charge_the_order_refused(
    api: ApiClient, db: Db, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a charge the order refused (paid in cash while the card was charged), whose cancel failed (500)
    order, body = start_payment(api, db, provider, 1_000, amount_due=1_000)
    adapter = type(provider.processor)
    charge = adapter.confirm

    def charged_while_paid_in_cash(self: Any, payment: Any, otp: str) -> None:
        charge(self, payment, otp)
        lifecycle.record_payment(order["_id"], 1_000, payment_id="cash-1", cause="cash")

    monkeypatch.setattr(adapter, "confirm", charged_while_paid_in_cash)
    provider.fake.fail(provider.cancel_call, 500)
    response = api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp})
    assert response.status_code == 409, response.text
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["refund"] == "PENDING"
    # When the reconciliation runs
    result = run_reconciliation()
    # Then it cancelled the charge through the processor's cancel, and the money is back on the card
    assert result["outcomes"] == {"Refunded": 1}
    transaction = store.find_own(body["transactionId"], str(order["userId"]))
    assert transaction is not None
    assert transaction["refund"] == "DONE"
    assert provider.processor.status(settlement.payment_of(transaction)).state is PaymentState.CANCELLED
    assert provider.fake.debited(PAYS_UZCARD) == 0


# --- issue 38: what breaks first on contact with production ------------------------------------


def test_a_cancelled_atmos_orders_payment_is_reversed_by_its_success_trans_id_once(
    api: ApiClient, db: Db, atmos: Provider
) -> None:
    # Given an order paid by card through ATMOS
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    order, body = start_payment(api, db, atmos, 1_000, amount_due=1_000)
    assert api.post("/api/v1/transactions/apply", json={**body, "otp": atmos.otp}).status_code == 200
    charge = fake.payment(str(db.transactions.find_one({"_id": body["transactionId"]})["processorId"]))  # type: ignore[index]
    # When the back office cancels the order
    cancellation = refunds.cancel_order(order["_id"], cause="test: the buyer changed their mind")
    # Then the gateway got one reverse, by the charge's success_trans_id (not the create-time id)
    # in both fields the sources name (they disagree on which ATMOS reads)
    reverses = [request for request in fake.bodies if "reason" in request]
    assert [request["transaction_id"] for request in reverses] == [charge["success_trans_id"]]
    assert [request["success_trans_id"] for request in reverses] == [charge["success_trans_id"]]
    assert fake.reverse_fields == [["success_trans_id", "transaction_id"]]
    assert charge["success_trans_id"] != charge["trans_id"]
    assert (cancellation.refunds_pending, fake.debited(PAYS_UZCARD), charge["status_code"]) == (0, 0, "-20")
    transaction = db.transactions.find_one({"_id": body["transactionId"]}) or {}
    assert (transaction["processorChargeId"], transaction["refund"]) == (str(charge["success_trans_id"]), "DONE")
    # And the reconciliation asks for nothing more
    assert run_reconciliation()["outcomes"] == {}
    assert fake.calls["pay/reverse"] == 1


def test_an_atmos_charge_kept_without_its_id_is_reversed_by_the_id_pay_get_reports(atmos: Provider) -> None:
    # Given a charge whose success_trans_id we do not hold (charged before it was kept)
    payment = atmos.processor.create(atmos.card(), 100_000, "1")
    atmos.processor.confirm(payment, atmos.otp)
    # When it is cancelled / Then pay/get's success_trans_id reverses it
    atmos.processor.cancel(payment)
    assert atmos.fake.debited(PAYS_UZCARD) == 0
    assert atmos.processor.status(payment).state is PaymentState.CANCELLED


@pytest.mark.parametrize("field", ["transaction_id", "success_trans_id"])
def test_the_atmos_fake_reverses_a_charge_named_by_either_reading_of_the_sources(atmos: Provider, field: str) -> None:
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    # Given a charge, and a reverse naming it in one field only, as one source or the other sends it
    payment = atmos.processor.create(atmos.card(), 100_000, "1")
    charge_id = int(atmos.processor.confirm(payment, atmos.otp) or 0)
    reverse = {field: charge_id, "store_id": fake_atmos.STORE_ID, "reason": "a test"}
    headers = {"Authorization": f"Bearer {fake.issued_tokens[-1]}"}
    # When it is sent / Then the fake reverses it, and records the reading it got
    sent = outbound.json_request("POST", f"{fake.base_url}/merchant/pay/reverse", reverse, headers=headers)
    assert outbound.exchange(sent, timeout=5).body == {"result": fake_atmos.OK}
    assert (fake.debited(PAYS_UZCARD), fake.reverse_fields) == (0, [[field]])


@pytest.mark.parametrize(
    "auth", [fake_payme.CASHBOX_ID, f"{fake_payme.CASHBOX_ID}:{fake_payme.KEY}"], ids=["id", "id-key"]
)
def test_the_payme_fake_takes_cards_check_with_either_x_auth_of_the_sources(payme: Provider, auth: str) -> None:
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    # Given a card token, and cards.check with the cashbox id alone or with its key (the sources disagree)
    call = {"id": 1, "method": "cards.check", "params": {"token": fake.tokenize(PAYS_UZCARD)}}
    sent = outbound.json_request("POST", f"{fake.base_url}/api", call, headers={"X-Auth": auth})
    # When it is sent / Then the fake answers the card, and records the X-Auth it got
    assert "card" in outbound.exchange(sent, timeout=5).body["result"]
    assert fake.auth[-1] == auth


def test_atmos_apply_confirmed_without_status_code_is_a_charge_with_its_id(atmos: Provider) -> None:
    # Given ATMOS's apply answer, as integrations report it: confirmed, a success_trans_id, no status_code
    payment = atmos.processor.create(atmos.card(), 100_000, "1")
    # When it confirms / Then it is a charge, and its id comes back
    charge_id = atmos.processor.confirm(payment, atmos.otp)
    applied = atmos.fake.payment(payment.processor_id)
    assert charge_id == str(applied["success_trans_id"])
    assert atmos.processor.status(payment) == PaymentStatus(PaymentState.CHARGED, charge_id=charge_id)


def test_atmos_answers_in_201_are_successes(atmos: Provider) -> None:
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    fake.success_status = 201
    payment = atmos.processor.create(atmos.card(), 100_000, "1")
    assert atmos.processor.confirm(payment, atmos.otp) is not None
    assert fake.debited(PAYS_UZCARD) == 100_000


@pytest.mark.parametrize("result", [fake_atmos.WRONG_CODE, fake_atmos.ERR_098], ids=["044", "098"])
def test_atmos_wrong_code_answers_are_wrong_codes(atmos: Provider, result: dict[str, str]) -> None:
    fake = atmos.fake
    assert isinstance(fake, fake_atmos.FakeAtmos)
    fake.wrong_code_result = result
    payment = atmos.processor.create(atmos.card(), 100_000, "1")
    with pytest.raises(WrongOtp):
        atmos.processor.confirm(payment, "000000")


def test_a_decline_is_a_4xx_that_fails_the_transaction_and_releases_the_charge_at_once(
    api: ApiClient, db: Db, provider: Provider
) -> None:
    # Given a payment declined for insufficient funds: a 400 with its code, the transaction FAILED
    order, body = start_payment(api, db, provider, 1_000, amount_due=1_000)
    provider.fake.cards[PAYS_UZCARD].balance = 10
    declined = api.post("/api/v1/transactions/apply", json={**body, "otp": provider.otp})
    assert (declined.status_code, declined.json()["code"]) == (400, "PAYMENT_DECLINED_INSUFFICIENT_FUNDS")
    assert declined.json()["details"] == {"reason": INSUFFICIENT_FUNDS, "status": "FAILED"}
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["paidAmount"] == 0
    # When the buyer tops the card up and pays again right away (no claim to wait out)
    provider.fake.cards[PAYS_UZCARD].balance = 10**12
    ids = {"brandId": body["brandId"], "orderId": body["orderId"]}
    again = api.post("/api/v1/transactions/create", json={"amount": 1_000, **provider.card_fields(), **ids})
    assert again.status_code == 200, again.text
    paid = api.post(
        "/api/v1/transactions/apply",
        json={**ids, "transactionId": again.json()["data"]["transactionId"], "amount": 1_000, "otp": provider.otp},
    )
    # Then it pays: the declined payment held nothing on the order
    assert paid.status_code == 200, paid.text
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "PAID"


def test_an_unknown_answer_is_a_503_the_reconciliation_settles(
    api: ApiClient, db: Db, atmos: Provider, frozen_clock: FrozenClock
) -> None:
    # Given an apply ATMOS answers with a code nobody documents
    order, body = start_payment(api, db, atmos, 1_000, amount_due=1_000)
    atmos.fake.answer_instead("pay/apply", (200, {"result": {"code": "STPIMS-ERR-999", "description": "?"}}))
    first = api.post("/api/v1/transactions/apply", json={**body, "otp": atmos.otp})
    assert (first.status_code, first.json()["code"]) == (503, "PROCESSOR_NO_ANSWER")
    # When the reconciliation runs / Then ATMOS says nothing was debited: the payment is free again
    frozen_clock.advance(6 * 60)
    assert run_reconciliation()["outcomes"] == {"Released": 1}
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["status"] == "PENDING"
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["paidAmount"] == 0


def test_payme_pays_with_a_card_token_and_no_card_number_reaches_the_server(
    api: ApiClient, db: Db, payme: Provider, caplog: pytest.LogCaptureFixture
) -> None:
    # Given the partner app tokenized the card at Payme (the card number stays between the app and Payme)
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    fake.code_wait_ms = 90_000
    _, body = start_payment(api, db, payme, 1_000, amount_due=1_000)
    # When the buyer confirms with the code
    applied = api.post("/api/v1/transactions/apply", json={**body, "otp": payme.otp})
    # Then the order is paid through the token, the card shown as Payme masks it
    assert applied.status_code == 200, applied.text
    assert (applied.json()["data"]["cardMask"], applied.json()["data"]["cardType"]) == ("860049******6478", "UZCARD")
    assert fake.debited(PAYS_UZCARD) == 100_000
    # And nothing we sent Payme, stored or logged holds the card number
    assert PAYS_UZCARD not in json.dumps(fake.requests)
    assert PAYS_UZCARD not in json.dumps(db.transactions.find_one({"_id": body["transactionId"]}), default=str)
    assert PAYS_UZCARD not in caplog.text
    # And the code lived as long as Payme said
    transaction = db.transactions.find_one({"_id": body["transactionId"]}) or {}
    assert (transaction["expiresAt"] - transaction["lastSentAt"]).total_seconds() == 90


def test_payme_answer_says_how_long_the_code_lives(api: ApiClient, db: Db, payme: Provider) -> None:
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    fake.code_wait_ms = 45_000
    _, ids = signed_in_order(api, db, 1_000)
    created = api.post("/api/v1/transactions/create", json={"amount": 1_000, **payme.card_fields(), **ids})
    assert created.status_code == 200, created.text
    assert created.json()["data"]["codeValidSeconds"] == 45


def test_payme_refuses_card_numbers_and_atmos_card_tokens(api: ApiClient, db: Db, provider: Provider) -> None:
    # Given a buyer's order / When the app sends the card the way the stage's processor does not take it
    _, ids = signed_in_order(api, db, 1_000)
    wrong_way = (
        {"cardNumber": PAYS_UZCARD, "expiry": "03/99", "cardType": "UZCARD"}
        if provider.name == "payme"
        else {"cardToken": "a-token-from-somewhere"}
    )
    response = api.post("/api/v1/transactions/create", json={"amount": 1_000, **wrong_way, **ids})
    # Then a 400 naming what it takes, and the processor never heard of it
    assert (response.status_code, response.json()["code"]) == (400, "CARD_ENTRY_NOT_ACCEPTED")
    assert response.json()["details"]["accepted"] == (["token"] if provider.name == "payme" else ["number"])
    assert provider.fake.sequence == []


@pytest.mark.parametrize(("amount", "code"), [(500, -31611), (20_000_000, -31612)], ids=["below", "above"])
def test_payme_amount_out_of_range_is_a_clear_decline(
    api: ApiClient, db: Db, payme: Provider, amount: int, code: int
) -> None:
    _, ids = signed_in_order(api, db, 30_000_000)
    response = api.post("/api/v1/transactions/create", json={"amount": amount, **payme.card_fields(), **ids})
    assert (response.status_code, response.json()["code"]) == (400, "PAYMENT_DECLINED_AMOUNT_OUT_OF_RANGE")
    assert response.json()["details"] == {"reason": "AMOUNT_OUT_OF_RANGE"}
    assert db.transactions.count_documents({}) == 0


def test_payme_retried_apply_does_not_verify_the_card_again(
    api: ApiClient, db: Db, payme: Provider, frozen_clock: FrozenClock
) -> None:
    # Given an apply whose card was verified, and whose receipts.pay then failed (Payme down, 503)
    fake = payme.fake
    assert isinstance(fake, fake_payme.FakePayme)
    _, body = start_payment(api, db, payme, 1_000, amount_due=1_000)
    fake.fail("receipts.pay", 503)
    first = api.post("/api/v1/transactions/apply", json={**body, "otp": payme.otp})
    assert first.status_code == 503
    # When the buyer retries once the claim has run out
    frozen_clock.advance(60)
    retried = api.post("/api/v1/transactions/apply", json={**body, "otp": payme.otp})
    # Then it pays without sending the spent code to cards.verify again
    assert retried.status_code == 200, retried.text
    assert fake.calls["cards.verify"] == 1
    assert fake.debited(PAYS_UZCARD) == 100_000


def test_a_processor_that_hangs_cannot_make_a_request_outlive_its_budget(
    api: ApiClient, db: Db, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a processor that accepts connections and never answers, a per-call timeout longer than the
    # request's budget, and a budget of 1 s
    with socket.create_server(("127.0.0.1", 0)) as silent:
        _, ids = signed_in_order(api, db, 1_000)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        monkeypatch.setenv("ATMOS_API_URL" if provider.name == "atmos" else "PAYME_API_URL", url)
        monkeypatch.setenv("PAYMENT_PROCESSOR_TIMEOUT_SECONDS", "5")
        monkeypatch.setenv("PROVIDER_BUDGET_SECONDS", "1")
        reset_settings()
        processor_factory.reset_processor()
        # When a payment is started
        started = time.monotonic()
        response = api.post("/api/v1/transactions/create", json={"amount": 1_000, **provider.card_fields(), **ids})
        took = time.monotonic() - started
    # Then our 503 comes within the budget's reach, far inside the function's 10 s
    assert (response.status_code, response.json()["code"]) == (503, "PROCESSOR_UNAVAILABLE")
    assert took < 3, took
