"""The order state machine against the real database: legal paths, refusals, races, events."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from core.errors import Conflict
from data import outbox
from domain.orders import lifecycle, views
from domain.orders.records import OrderRecord
from domain.orders.states import OrderStatus
from edge.errors import status_of
from tests.data import insert_order
from tests.factories import race

USER = ObjectId()


def slugs(steps: list[dict[str, Any]]) -> list[str]:
    return [step["slug"] for step in steps]


def current(steps: list[dict[str, Any]]) -> str:
    [step] = [step for step in steps if step["isCurrent"]]
    return str(step["slug"])


def test_an_order_walks_the_whole_path_and_each_step_is_logged(db: Database[dict[str, Any]]) -> None:
    # Given a new order of 100 sums
    order = insert_order(db, USER, amount_due=100)
    assert current(views.steps(order, "en")) == "NEW"
    # When it is paid in two parts, made ready and handed over
    order = lifecycle.record_payment(order["_id"], 40, payment_id="t1", cause="card payment 1")
    assert order["statusSlug"] == "PARTIALLY_PAID"
    assert order["paidAmount"] == 40
    order = lifecycle.record_payment(order["_id"], 60, payment_id="t2", cause="card payment 2")
    assert order["statusSlug"] == "PAID"
    order = lifecycle.transition(order["_id"], OrderStatus.READY, cause="arrived at the branch")
    order = lifecycle.transition(order["_id"], OrderStatus.IMPLEMENTED, cause="handed over")
    # Then the log holds every change with its cause, and the steps end at IMPLEMENTED
    logs = list(db.order_logs.find({"orderId": order["_id"]}).sort("at", 1))
    assert [(log["from"], log["to"]) for log in logs] == [
        (None, "NEW"),
        ("NEW", "PARTIALLY_PAID"),
        ("PARTIALLY_PAID", "PAID"),
        ("PAID", "READY"),
        ("READY", "IMPLEMENTED"),
    ]
    assert logs[-1]["cause"] == "handed over"
    steps = views.steps(order, "ru")
    assert slugs(steps) == ["NEW", "PARTIALLY_PAID", "PAID", "READY", "IMPLEMENTED"]
    assert current(steps) == "IMPLEMENTED"
    assert steps[-1]["name"] == "Автомобиль выдан"
    assert all(step["at"] is not None for step in steps)


def test_steps_mark_the_current_step_and_leave_later_ones_undated(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.record_payment(order["_id"], 30, payment_id="t1", cause="card")
    steps = views.steps(order, "en")
    assert current(steps) == "PARTIALLY_PAID"
    assert [step["done"] for step in steps] == [True, False, False, False, False]
    assert [step["at"] is None for step in steps] == [False, False, True, True, True]


def test_an_order_paid_in_full_at_once_skips_the_partial_step(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.record_payment(order["_id"], 100, payment_id="t1", cause="card")
    assert slugs(views.steps(order, "en")) == ["NEW", "PAID", "READY", "IMPLEMENTED"]


def test_a_cancelled_order_shows_the_path_it_took_then_cancelled(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.transition(order["_id"], OrderStatus.CANCELLED, cause="customer changed their mind")
    steps = views.steps(order, "uz")
    assert slugs(steps) == ["NEW", "CANCELLED"]
    assert current(steps) == "CANCELLED"


@pytest.mark.parametrize("target", [OrderStatus.PAID, OrderStatus.PARTIALLY_PAID])
def test_no_transition_marks_an_order_paid_without_a_payment(db: Database[dict[str, Any]], target: OrderStatus) -> None:
    order = insert_order(db, USER, amount_due=100)
    with pytest.raises(Conflict, match="ORDER_STATUS_NEEDS_PAYMENT"):
        lifecycle.transition(order["_id"], target, cause="back office")
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "NEW"


@pytest.mark.parametrize(
    ("start", "target"),
    [
        ("NEW", OrderStatus.READY),
        ("NEW", OrderStatus.IMPLEMENTED),
        ("PARTIALLY_PAID", OrderStatus.READY),
        ("READY", OrderStatus.CANCELLED),
        ("IMPLEMENTED", OrderStatus.CANCELLED),
        ("CANCELLED", OrderStatus.NEW),
        ("PAID", OrderStatus.NEW),
    ],
)
def test_illegal_transitions_are_refused_and_change_nothing(
    db: Database[dict[str, Any]], start: str, target: OrderStatus
) -> None:
    order = insert_order(db, USER, status=start)
    with pytest.raises(Conflict) as refused:
        lifecycle.transition(order["_id"], target, cause="test")
    assert refused.value.details == {**(refused.value.details or {}), "statusSlug": start}
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == start
    assert db.order_logs.count_documents({"orderId": order["_id"]}) == 1


def test_payments_beyond_the_amount_due_or_on_unpayable_orders_are_refused(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    with pytest.raises(Conflict, match="PAYMENT_ABOVE_DUE"):
        lifecycle.record_payment(order["_id"], 101, payment_id="t1", cause="card")
    paid = insert_order(db, USER, amount_due=100, paid=100, status="PAID")
    with pytest.raises(Conflict, match="ORDER_NOT_PAYABLE"):
        lifecycle.record_payment(paid["_id"], 1, payment_id="t2", cause="card")
    with pytest.raises(Conflict):
        lifecycle.record_payment(order["_id"], 0, payment_id="t3", cause="card")


def test_a_payment_that_loses_every_compare_and_set_is_busy_not_refused(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    order = insert_order(db, USER, amount_due=100)
    monkeypatch.setattr(lifecycle, "MAX_CAS_ATTEMPTS", 0)  # stands for that many lost compare-and-sets
    with pytest.raises(lifecycle.OrderBusy) as busy:
        lifecycle.record_payment(order["_id"], 50, payment_id="t1", cause="card")
    assert status_of(busy.value) == 503
    assert not isinstance(busy.value, Conflict)


def test_only_one_payment_holds_the_charging_claim_and_only_if_the_order_can_take_it(
    db: Database[dict[str, Any]], frozen_clock: FrozenClock
) -> None:
    order = insert_order(db, USER, amount_due=100)
    now = clock.now()
    with pytest.raises(Conflict, match="PAYMENT_ABOVE_DUE"):
        lifecycle.take_charge(order["_id"], "too-much", 101, now=now, claim_seconds=60)
    # Of eight payments racing for the claim, one holds it
    payment_ids = iter(f"t{number}" for number in range(8))
    results = race(lambda: lifecycle.take_charge(order["_id"], next(payment_ids), 60, now=now, claim_seconds=60), 8)
    assert sorted(results) == ["CHARGE_IN_PROGRESS"] * 7 + ["ok"]
    holder = (db.orders.find_one({"_id": order["_id"]}) or {})["chargingPaymentId"]
    # Recording the holder's payment releases the claim; the next payment takes it if it fits
    lifecycle.record_payment(order["_id"], 60, payment_id=holder, cause="card")
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["chargingPaymentId"] is None
    with pytest.raises(Conflict, match="PAYMENT_ABOVE_DUE"):
        lifecycle.take_charge(order["_id"], "t9", 41, now=now, claim_seconds=60)
    lifecycle.take_charge(order["_id"], "t9", 40, now=now, claim_seconds=60)
    # A claim older than its duration belongs to a dead holder and can be taken over
    with pytest.raises(lifecycle.ChargeInProgress):
        lifecycle.take_charge(order["_id"], "t10", 40, now=now, claim_seconds=60)
    frozen_clock.advance(60)
    lifecycle.take_charge(order["_id"], "t10", 40, now=clock.now(), claim_seconds=60)


def test_the_same_payment_applied_twice_counts_once(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    lifecycle.record_payment(order["_id"], 50, payment_id="t1", cause="card")
    again = lifecycle.record_payment(order["_id"], 50, payment_id="t1", cause="card")
    assert again["paidAmount"] == 50
    assert again["statusSlug"] == "PARTIALLY_PAID"


def everyone_reads_before_anyone_writes(monkeypatch: pytest.MonkeyPatch, parties: int) -> None:
    """Force the worst interleaving: every racer reads the order (seeing the same state) before any of
    them writes, so only the conditional update can keep the state machine right. Without this the
    embedded server, which runs commands one at a time, would let the racers take turns."""
    barrier = threading.Barrier(parties, timeout=10)
    first_read = threading.local()
    load = lifecycle._load

    def load_then_wait(order_id: ObjectId) -> OrderRecord:
        order = load(order_id)
        if not getattr(first_read, "done", False):
            first_read.done = True
            barrier.wait()
        return order

    monkeypatch.setattr(lifecycle, "_load", load_then_wait)


def test_racing_transitions_have_exactly_one_winner(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a paid order that eight back-office workers, all seeing it PAID, try to mark ready at once
    order = insert_order(db, USER, amount_due=100, paid=100, status="PAID")
    everyone_reads_before_anyone_writes(monkeypatch, 8)
    # When they race
    results = race(lambda: lifecycle.transition(order["_id"], OrderStatus.READY, cause="race"), 8)
    # Then exactly one succeeded, the others were refused, and exactly one change was logged
    assert results.count("ok") == 1
    assert all(result == "ORDER_TRANSITION_NOT_ALLOWED" for result in results if result != "ok")
    assert db.order_logs.count_documents({"orderId": order["_id"], "to": "READY"}) == 1


def test_racing_payments_never_overpay(db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    # Given an order of 100 and ten different payments of 30, all seeing nothing paid yet
    order = insert_order(db, USER, amount_due=100)
    everyone_reads_before_anyone_writes(monkeypatch, 10)
    payment_ids = iter(range(10))
    lock = threading.Lock()

    def pay() -> object:
        with lock:
            payment_id = f"t{next(payment_ids)}"
        return lifecycle.record_payment(order["_id"], 30, payment_id=payment_id, cause="race")

    # When they race
    results = race(pay, 10)
    # Then three fit, every other one is refused as an overpayment, and the stored total matches the winners
    stored = db.orders.find_one({"_id": order["_id"]}) or {}
    assert results.count("ok") == 3
    assert all(result == "PAYMENT_ABOVE_DUE" for result in results if result != "ok")
    assert stored["paidAmount"] == 90
    assert len(stored["paymentIds"]) == 3


def test_each_transition_is_published_on_eventbridge(
    db: Database[dict[str, Any]], eventbridge: Any, frozen_clock: FrozenClock
) -> None:
    order = insert_order(db, USER, amount_due=100)
    lifecycle.record_payment(order["_id"], 100, payment_id="t1", cause="card payment")
    outbox.flush()  # what a request's end does
    [event] = eventbridge()
    assert event["detail-type"] == "OrderStatusChanged"
    assert event["source"] == "car-retail-api"
    assert event["detail"]["orderId"] == str(order["_id"])
    assert (event["detail"]["from"], event["detail"]["to"]) == ("NEW", "PAID")
    assert event["detail"]["paidAmount"] == 100
