"""The order state machine against the real database: legal paths, refusals, races, events."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from common.clock import FrozenClock
from common.errors import Conflict
from orders import lifecycle
from orders.lifecycle import Status
from tests.data import insert_order

USER = ObjectId()


def slugs(steps: list[dict[str, Any]]) -> list[str]:
    return [step["slug"] for step in steps]


def current(steps: list[dict[str, Any]]) -> str:
    [step] = [step for step in steps if step["isCurrent"]]
    return str(step["slug"])


def test_an_order_walks_the_whole_path_and_each_step_is_logged(db: Database[dict[str, Any]]) -> None:
    # Given a new order of 100 sums
    order = insert_order(db, USER, amount_due=100)
    assert current(lifecycle.steps(order, "en")) == "NEW"
    # When it is paid in two parts, made ready and handed over
    order = lifecycle.record_payment(order["_id"], 40, payment_id="t1", cause="card payment 1")
    assert order["statusSlug"] == "PARTIALLY_PAID"
    assert order["paidAmount"] == 40
    order = lifecycle.record_payment(order["_id"], 60, payment_id="t2", cause="card payment 2")
    assert order["statusSlug"] == "PAID"
    order = lifecycle.transition(order["_id"], Status.READY, cause="arrived at the branch")
    order = lifecycle.transition(order["_id"], Status.IMPLEMENTED, cause="handed over")
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
    steps = lifecycle.steps(order, "ru")
    assert slugs(steps) == ["NEW", "PARTIALLY_PAID", "PAID", "READY", "IMPLEMENTED"]
    assert current(steps) == "IMPLEMENTED"
    assert steps[-1]["name"] == "Автомобиль выдан"
    assert all(step["at"] is not None for step in steps)


def test_steps_mark_the_current_step_and_leave_later_ones_undated(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.record_payment(order["_id"], 30, payment_id="t1", cause="card")
    steps = lifecycle.steps(order, "en")
    assert current(steps) == "PARTIALLY_PAID"
    assert [step["done"] for step in steps] == [True, False, False, False, False]
    assert [step["at"] is None for step in steps] == [False, False, True, True, True]


def test_an_order_paid_in_full_at_once_skips_the_partial_step(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.record_payment(order["_id"], 100, payment_id="t1", cause="card")
    assert slugs(lifecycle.steps(order, "en")) == ["NEW", "PAID", "READY", "IMPLEMENTED"]


def test_a_cancelled_order_shows_the_path_it_took_then_cancelled(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    order = lifecycle.transition(order["_id"], Status.CANCELLED, cause="customer changed their mind")
    steps = lifecycle.steps(order, "uz")
    assert slugs(steps) == ["NEW", "CANCELLED"]
    assert current(steps) == "CANCELLED"


@pytest.mark.parametrize(
    ("start", "target"),
    [
        ("NEW", Status.READY),
        ("NEW", Status.IMPLEMENTED),
        ("PARTIALLY_PAID", Status.READY),
        ("READY", Status.CANCELLED),
        ("IMPLEMENTED", Status.CANCELLED),
        ("CANCELLED", Status.NEW),
        ("PAID", Status.NEW),
    ],
)
def test_illegal_transitions_are_refused_and_change_nothing(
    db: Database[dict[str, Any]], start: str, target: Status
) -> None:
    order = insert_order(db, USER, status=start)
    with pytest.raises(Conflict) as refused:
        lifecycle.transition(order["_id"], target, cause="test")
    assert refused.value.details == {**(refused.value.details or {}), "statusSlug": start}
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == start
    assert db.order_logs.count_documents({"orderId": order["_id"]}) == 1


def test_payments_beyond_the_amount_due_or_on_unpayable_orders_are_refused(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    with pytest.raises(Conflict, match="larger than the amount still due"):
        lifecycle.record_payment(order["_id"], 101, payment_id="t1", cause="card")
    paid = insert_order(db, USER, amount_due=100, paid=100, status="PAID")
    with pytest.raises(Conflict, match="cannot take payments"):
        lifecycle.record_payment(paid["_id"], 1, payment_id="t2", cause="card")
    with pytest.raises(Conflict):
        lifecycle.record_payment(order["_id"], 0, payment_id="t3", cause="card")


def test_the_same_payment_applied_twice_counts_once(db: Database[dict[str, Any]]) -> None:
    order = insert_order(db, USER, amount_due=100)
    lifecycle.record_payment(order["_id"], 50, payment_id="t1", cause="card")
    again = lifecycle.record_payment(order["_id"], 50, payment_id="t1", cause="card")
    assert again["paidAmount"] == 50
    assert again["statusSlug"] == "PARTIALLY_PAID"


def test_racing_transitions_have_exactly_one_winner(db: Database[dict[str, Any]]) -> None:
    # Given a paid order that eight back-office workers try to mark ready at once
    order = insert_order(db, USER, amount_due=100, paid=100, status="PAID")

    def mark_ready(_: int) -> bool:
        try:
            lifecycle.transition(order["_id"], Status.READY, cause="race")
        except Conflict:
            return False
        return True

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(mark_ready, range(8)))
    # Then exactly one succeeded and exactly one change was logged
    assert results.count(True) == 1
    assert db.order_logs.count_documents({"orderId": order["_id"], "to": "READY"}) == 1


def test_racing_payments_never_overpay(db: Database[dict[str, Any]]) -> None:
    # Given an order of 100 and ten different payments of 30 racing for it
    order = insert_order(db, USER, amount_due=100)

    def pay(index: int) -> bool:
        try:
            lifecycle.record_payment(order["_id"], 30, payment_id=f"t{index}", cause="race")
        except Conflict:
            return False
        return True

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(pay, range(10)))
    # Then three fit, the fourth would overpay, and the stored total matches the winners
    stored = db.orders.find_one({"_id": order["_id"]}) or {}
    assert results.count(True) == 3
    assert stored["paidAmount"] == 90
    assert len(stored["paymentIds"]) == 3


def test_each_transition_is_published_on_eventbridge(
    db: Database[dict[str, Any]], eventbridge: Any, frozen_clock: FrozenClock
) -> None:
    order = insert_order(db, USER, amount_due=100)
    lifecycle.record_payment(order["_id"], 100, payment_id="t1", cause="card payment")
    [event] = eventbridge()
    assert event["detail-type"] == "OrderStatusChanged"
    assert event["source"] == "car-retail-api"
    assert event["detail"]["orderId"] == str(order["_id"])
    assert (event["detail"]["from"], event["detail"]["to"]) == ("NEW", "PAID")
    assert event["detail"]["paidAmount"] == 100
