"""Payment reconciliation with the sandbox processor: card payments whose apply stopped midway are
finished (the order shows the payment once), failed (the order unchanged) or given back, and what
stays unresolved for an hour is counted for the alarm. The clock is frozen, never slept on."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from data import outbox
from domain.payments import reconciliation, store
from domain.payments.processor import PaymentDeclined, ProcessorPayment, ProcessorUnavailable
from domain.payments.sandbox import INSUFFICIENT_FUNDS_CARD, PAYS_UZCARD, SandboxProcessor
from ops.__main__ import main as ops_main
from tests.data import order_body, purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
AMOUNT = 400_000


def lost_answer(*_: Any) -> None:
    raise ProcessorUnavailable("the answer was lost")


def charged_then_lost(self: SandboxProcessor, payment: ProcessorPayment, otp: str) -> None:
    """The sandbox charges (or declines) the card, then its answer is lost."""
    with contextlib.suppress(PaymentDeclined):
        SANDBOX_CONFIRM(self, payment, otp)
    raise ProcessorUnavailable("the answer was lost")


SANDBOX_CONFIRM = SandboxProcessor.confirm


def stuck_payment(api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch, card: str = PAYS_UZCARD) -> dict[str, Any]:
    """An order due 1,000,000 and a card payment of 400,000 whose apply reached the processor but
    never heard back (503): the transaction is left CONFIRMING. Returns the order as placed."""
    api.login()
    car = purchasable_car(db, prices=(1_000_000,))
    order: dict[str, Any] = api.post("/api/v1/orders", json=order_body(car)).json()["data"]
    payment = {"amount": AMOUNT, "brandId": order["brandId"], "orderId": order["_id"]}
    created = api.post(
        "/api/v1/transactions/create", json={**payment, "cardNumber": card, "expiry": "12/39", "cardType": "UZCARD"}
    )
    order["transactionId"] = created.json()["data"]["transactionId"]
    with monkeypatch.context() as lost:
        lost.setattr(SandboxProcessor, "confirm", charged_then_lost)
        applied = api.post(
            "/api/v1/transactions/apply", json={**payment, "transactionId": order["transactionId"], "otp": 666666}
        )
    assert applied.status_code == 503, applied.text
    assert (db.transactions.find_one({"_id": order["transactionId"]}) or {})["status"] == "CONFIRMING"
    return order


def stored_order(db: Db, order: dict[str, Any]) -> dict[str, Any]:
    return db.orders.find_one({"_id": ObjectId(order["_id"])}) or {}


def test_a_charged_payment_left_confirming_is_recorded_on_the_order_once(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock, eventbridge: Any
) -> None:
    # Given a payment the processor charged while its apply lost the answer
    order = stuck_payment(api, db, monkeypatch)
    eventbridge()  # the order's placement
    # When the reconciliation runs a few minutes later, and again
    frozen_clock.advance(reconciliation.STALE_AFTER_SECONDS + 1)
    first, second = reconciliation.reconcile(), reconciliation.reconcile()
    # Then the order shows the payment once, the transaction is confirmed, and dealers heard of it
    assert (first.outcomes, second.outcomes) == ({"Confirmed": 1}, {})
    paid = stored_order(db, order)
    assert (paid["statusSlug"], paid["paidAmount"], paid["paymentIds"]) == (
        "PARTIALLY_PAID",
        AMOUNT,
        [str(order["transactionId"])],
    )
    assert paid["chargingPaymentId"] is None
    assert (db.transactions.find_one({"_id": order["transactionId"]}) or {})["status"] == "CONFIRMED"
    outbox.publish_pending()
    kinds = sorted(event["detail-type"] for event in eventbridge())
    assert kinds == ["OrderStatusChanged", "PaymentConfirmed"]


def test_a_declined_payment_left_confirming_fails_and_the_order_is_unchanged(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # Given a payment the processor declined (insufficient funds) while its apply lost the answer
    order = stuck_payment(api, db, monkeypatch, card=INSUFFICIENT_FUNDS_CARD)
    before = stored_order(db, order)
    # When the reconciliation runs
    frozen_clock.advance(reconciliation.STALE_AFTER_SECONDS + 1)
    report = reconciliation.reconcile()
    # Then the transaction failed with the reason, and the order is as it was, its charging claim freed
    assert report.outcomes == {"Failed": 1}
    transaction = db.transactions.find_one({"_id": order["transactionId"]}) or {}
    assert (transaction["status"], transaction["failureReason"]) == ("FAILED", "INSUFFICIENT_FUNDS")
    after = stored_order(db, order)
    assert (after["statusSlug"], after["paidAmount"], after["paymentIds"]) == ("NEW", 0, [])
    assert before["chargingPaymentId"] == str(order["transactionId"])
    assert after["chargingPaymentId"] is None


def test_a_payment_still_being_confirmed_is_left_to_its_apply(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # Given a payment whose apply stopped a minute ago (it may still be retried by its client)
    order = stuck_payment(api, db, monkeypatch)
    frozen_clock.advance(60)
    # When the reconciliation runs
    report = reconciliation.reconcile()
    # Then it does nothing to it
    assert report.outcomes == {}
    assert (db.transactions.find_one({"_id": order["transactionId"]}) or {})["status"] == "CONFIRMING"


def test_an_apply_that_stopped_before_charging_gives_the_payment_back(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock
) -> None:
    # Given a payment claimed by an apply that stopped before asking the processor to charge
    order = stuck_payment(api, db, monkeypatch)
    db.transactions.update_one({"_id": order["transactionId"]}, {"$unset": {"confirmStartedAt": ""}})
    # When the reconciliation runs
    frozen_clock.advance(reconciliation.STALE_AFTER_SECONDS + 1)
    report = reconciliation.reconcile()
    # Then the transaction is pending again (a new code can be asked for), the order untouched and free
    assert report.outcomes == {"Released": 1}
    assert (db.transactions.find_one({"_id": order["transactionId"]}) or {})["status"] == "PENDING"
    after = stored_order(db, order)
    assert (after["paidAmount"], after["chargingPaymentId"]) == (0, None)


def test_an_unreachable_processor_leaves_it_for_later_and_an_hour_raises_the_count(
    api: ApiClient,
    db: Db,
    monkeypatch: pytest.MonkeyPatch,
    frozen_clock: FrozenClock,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given a stuck payment and a processor that cannot be reached
    order = stuck_payment(api, db, monkeypatch)
    monkeypatch.setattr(SandboxProcessor, "status", lost_answer)
    # When the reconciliation runs after a few minutes, then after an hour (by hand, through ops)
    frozen_clock.advance(reconciliation.STALE_AFTER_SECONDS + 1)
    early = reconciliation.reconcile()
    frozen_clock.advance(reconciliation.UNRESOLVED_ALARM_SECONDS)
    exit_code = ops_main(["reconcile"])
    # Then the payment waits, unresolved; after an hour it is counted for the alarm and the command fails
    assert (early.outcomes, early.unresolved_over_an_hour) == ({"Unresolved": 1}, 0)
    assert exit_code == 1
    assert '"unresolvedOverAnHour": 1' in capsys.readouterr().out
    assert (db.transactions.find_one({"_id": order["transactionId"]}) or {})["status"] == "CONFIRMING"
    assert stored_order(db, order)["paidAmount"] == 0


def test_a_confirmation_that_started_with_a_wrong_code_is_not_taken_for_a_charge(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a payment whose first apply had a wrong code (the processor was asked, charged nothing),
    # then claimed by an apply that stopped before it reached the processor
    api.login()
    car = purchasable_car(db, prices=(1_000_000,))
    order: dict[str, Any] = api.post("/api/v1/orders", json=order_body(car)).json()["data"]
    payment = {"amount": AMOUNT, "brandId": order["brandId"], "orderId": order["_id"]}
    created = api.post(
        "/api/v1/transactions/create",
        json={**payment, "cardNumber": PAYS_UZCARD, "expiry": "12/39", "cardType": "UZCARD"},
    )
    transaction_id = created.json()["data"]["transactionId"]
    wrong = api.post("/api/v1/transactions/apply", json={**payment, "transactionId": transaction_id, "otp": 111111})
    assert wrong.status_code == 400
    user_id = str((db.transactions.find_one({"_id": transaction_id}) or {})["userId"])
    assert store.claim(transaction_id, user_id, "an-apply-that-died", clock.now()) is not None
    # When the reconciliation asks the sandbox what happened
    frozen_clock.advance(reconciliation.STALE_AFTER_SECONDS + 1)
    report = reconciliation.reconcile()
    # Then the sandbox says never charged: the payment is pending again and the order unpaid
    assert report.outcomes == {"Released": 1}
    assert (db.transactions.find_one({"_id": transaction_id}) or {})["status"] == "PENDING"
    assert stored_order(db, order)["paidAmount"] == 0
