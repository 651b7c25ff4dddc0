"""Cancellation refunds: the back office cancels an order with card payments, and each payment is given
back through the card processor exactly once, also when the processor fails the first time (the
payment reconciliation finishes it). The processor is the sandbox, with its cancel and status replaced
by a ledger that remembers what it gave back, as a real processor does."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from domain.payments import reconciliation
from domain.payments.processor import PaymentState, PaymentStatus, ProcessorPayment, ProcessorUnavailable
from domain.payments.sandbox import PAYS_UZCARD, SandboxProcessor
from ops.__main__ import main as ops_main
from tests.data import order_body, purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]


@dataclass
class Ledger:
    """The processor's side: the payments it gave back, and the cancel calls it will fail first."""

    failures: int = 0
    lose_answer: bool = False  # give the money back but fail to answer (the caller cannot know)
    refunded: list[str] = field(default_factory=list)
    cancel_calls: int = 0

    def cancel(self, payment: ProcessorPayment) -> None:
        self.cancel_calls += 1
        if self.failures:
            self.failures -= 1
            if self.lose_answer:
                self.refunded.append(payment.processor_id)
            raise ProcessorUnavailable("the processor timed out")
        self.refunded.append(payment.processor_id)

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        if payment.processor_id in self.refunded:
            return PaymentStatus(PaymentState.CANCELLED)
        return PaymentStatus(PaymentState.CHARGED)


@pytest.fixture
def ledger(monkeypatch: pytest.MonkeyPatch) -> Ledger:
    kept = Ledger()
    # Bound to the ledger: the sandbox processor's calls land on it.
    monkeypatch.setattr(SandboxProcessor, "cancel", kept.cancel)
    monkeypatch.setattr(SandboxProcessor, "status", kept.status)
    return kept


def paid_order(api: ApiClient, db: Db, amounts: tuple[int, ...]) -> dict[str, Any]:
    """An order of sum(amounts), paid by card in these parts through the API (sandbox processor)."""
    api.login()
    car = purchasable_car(db, prices=(sum(amounts),))
    order: dict[str, Any] = api.post("/api/v1/orders", json=order_body(car)).json()["data"]
    target = {"brandId": order["brandId"], "orderId": order["_id"]}
    for amount in amounts:
        card = {"cardNumber": PAYS_UZCARD, "expiry": "12/39", "cardType": "UZCARD"}
        created = api.post("/api/v1/transactions/create", json={"amount": amount, **card, **target})
        transaction_id = created.json()["data"]["transactionId"]
        applied = api.post(
            "/api/v1/transactions/apply",
            json={"transactionId": transaction_id, "otp": 666666, "amount": amount, **target},
        )
        assert applied.status_code == 200, applied.text
    return order


def history(api: ApiClient, order: dict[str, Any]) -> list[dict[str, Any]]:
    found = api.get("/api/v1/transactions/history", params={"orderId": order["_id"]})
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["data"]["items"]
    return items


def shown(order: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert ops_main(["order", "show", order["contractNumber"]]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def cancel(order: dict[str, Any]) -> int:
    return ops_main(["order", "transition", order["contractNumber"], "CANCELLED", "--cause", "customer request"])


def test_cancelling_a_paid_order_refunds_each_card_payment_once(
    api: ApiClient, db: Db, ledger: Ledger, eventbridge: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an order paid by card in two parts, 400 and 600
    order = paid_order(api, db, (400, 600))
    eventbridge()  # its placement and payments
    # When the back office cancels it
    assert cancel(order) == 0
    # Then both payments are given back through the processor, once each
    assert sorted(ledger.refunded) == sorted(f"sandbox-{item['transactionId']}" for item in history(api, order))
    assert ledger.cancel_calls == 2
    # And the order log and the event say how much was refunded
    [log] = db.order_logs.find({"orderId": ObjectId(order["_id"]), "to": "CANCELLED"})
    assert (log["from"], log["refundAmount"]) == ("PAID", 1_000)
    [event] = [event for event in eventbridge() if event["detail-type"] == "OrderStatusChanged"]
    assert (event["detail"]["to"], event["detail"]["refundAmount"], event["detail"]["paidAmount"]) == (
        "CANCELLED",
        1_000,
        1_000,
    )
    # And the buyer's payment history and the back office see the refunds done
    assert [(item["status"], item["refund"]) for item in history(api, order)] == [("CONFIRMED", "DONE")] * 2
    assert all(item["refundedAt"] for item in history(api, order))
    assert [payment["refund"] for payment in shown(order, capsys)["payments"]] == ["DONE", "DONE"]
    # And a reconciliation pass finds nothing left to do
    assert reconciliation.reconcile().outcomes == {}
    assert ledger.cancel_calls == 2


def test_a_refund_the_processor_fails_is_pending_and_the_reconciliation_finishes_it_once(
    api: ApiClient, db: Db, ledger: Ledger, frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an order paid by card, and a processor that fails the first refund it is asked for
    order = paid_order(api, db, (1_000,))
    ledger.failures = 1
    # When the back office cancels it
    assert cancel(order) == 0
    # Then the order is cancelled, and the refund waits, visible to the buyer and the back office
    assert "1 card refund(s) could not be done yet" in capsys.readouterr().err
    assert (db.orders.find_one({"_id": ObjectId(order["_id"])}) or {})["statusSlug"] == "CANCELLED"
    assert [(item["refund"], item["refundedAt"]) for item in history(api, order)] == [("PENDING", None)]
    assert [payment["refund"] for payment in shown(order, capsys)["payments"]] == ["PENDING"]
    assert ledger.refunded == []
    # When the reconciliation runs, and again
    frozen_clock.advance(60)
    first, second = reconciliation.reconcile(), reconciliation.reconcile()
    # Then the money went back once, and the refund is done
    assert (first.outcomes, second.outcomes) == ({"Refunded": 1}, {})
    assert ledger.refunded == [f"sandbox-{history(api, order)[0]['transactionId']}"]
    assert ledger.cancel_calls == 2
    assert [item["refund"] for item in history(api, order)] == ["DONE"]


def test_a_refund_whose_answer_was_lost_is_not_asked_for_again(
    api: ApiClient, db: Db, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    # Given a cancelled order whose refund the processor did but whose answer was lost
    order = paid_order(api, db, (1_000,))
    ledger.failures, ledger.lose_answer = 1, True
    assert cancel(order) == 0
    assert [item["refund"] for item in history(api, order)] == ["PENDING"]
    # When the reconciliation runs
    frozen_clock.advance(60)
    report = reconciliation.reconcile()
    # Then it learns from the processor that the money is back, and does not ask again
    assert report.outcomes == {"Refunded": 1}
    assert (len(ledger.refunded), ledger.cancel_calls) == (1, 1)
    assert [item["refund"] for item in history(api, order)] == ["DONE"]


def test_a_refund_pending_for_an_hour_is_counted_for_the_alarm(
    api: ApiClient, db: Db, ledger: Ledger, frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a cancelled order whose refund the processor keeps failing
    order = paid_order(api, db, (1_000,))
    ledger.failures = 100
    assert cancel(order) == 0
    # When the reconciliation runs for an hour
    frozen_clock.advance(60)
    early = reconciliation.reconcile()
    frozen_clock.advance(reconciliation.UNRESOLVED_ALARM_SECONDS)
    capsys.readouterr()
    exit_code = ops_main(["reconcile"])
    # Then it stays pending, and after an hour it is counted (the refunds-pending alarm) and the command fails
    assert (early.outcomes, early.refunds_pending_over_an_hour) == ({"Unresolved": 1}, 0)
    assert exit_code == 1
    assert json.loads(capsys.readouterr().out)["refundsPendingOverAnHour"] == 1
    assert ledger.refunded == []


def test_a_cancel_run_without_the_processor_leaves_the_refunds_to_the_reconciliation(
    api: ApiClient, db: Db, ledger: Ledger, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a paid order, and an operator's shell where no card processor is configured
    order = paid_order(api, db, (1_000,))
    with monkeypatch.context() as shell:
        shell.setenv("PAYMENT_PROCESSOR", "atmos")
        shell.delenv("ATMOS_API_URL", raising=False)
        reset_settings()
        # When the back office cancels the order there
        exit_code = cancel(order)
    reset_settings()
    # Then the order is cancelled and its refund written down, waiting for the reconciliation
    assert exit_code == 0
    assert "1 card refund(s) could not be done yet" in capsys.readouterr().err
    assert [item["refund"] for item in history(api, order)] == ["PENDING"]
    # And the reconciliation, which has the processor, gives the money back
    assert reconciliation.reconcile().outcomes == {"Refunded": 1}
    assert len(ledger.refunded) == 1
