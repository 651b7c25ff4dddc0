"""The transactional outbox with a moto EventBridge bus: events are stored with their state change,
delivered after a failure between the change and its publish, in sequence order per aggregate, and
never twice with the same id."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from outbox_publisher.app import lambda_handler as scheduled_publisher
from pymongo.database import Database

from core.clock import FrozenClock
from data import events, outbox, outbox_requests
from domain.orders import lifecycle
from domain.orders.states import OrderStatus
from local.context import LocalLambdaContext
from tests.data import insert_order, place_and_pay_by_card
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
Bus = Callable[[], list[dict[str, Any]]]


def run_scheduled_publisher() -> dict[str, Any]:
    """What EventBridge Scheduler does every minute."""
    result: dict[str, Any] = scheduled_publisher({}, LocalLambdaContext(function_name="OutboxPublisher"))
    return result


def refusing_bus(batch: list[events.Event]) -> list[bool]:
    return [False] * len(batch)


def recording(delivered: list[events.Event]) -> Callable[[list[events.Event]], list[bool]]:
    """events.deliver, remembering what it handed to the bus, in order."""
    deliver = events.deliver

    def record(batch: list[events.Event]) -> list[bool]:
        accepted = deliver(batch)
        delivered.extend(event for event, ok in zip(batch, accepted, strict=True) if ok)
        return accepted

    return record


def test_a_request_publishes_its_events_right_after_the_change(api: ApiClient, db: Db, eventbridge: Bus) -> None:
    # Given a buyer paying an order by card
    # When the payment is confirmed
    _, paid = place_and_pay_by_card(api, db)
    # Then the events are on the bus already, each with its outbox id, and the outbox has nothing pending
    published = eventbridge()
    confirmed = [event["detail"] for event in published if event["detail-type"] == "PaymentConfirmed"]
    assert [event["transactionId"] for event in confirmed] == [paid["transactionId"]]
    assert {event["detail"]["eventId"] for event in published} == {str(entry["_id"]) for entry in db.outbox.find()}
    assert db.outbox.count_documents({"status": "PENDING"}) == 0


@pytest.mark.parametrize("failure", ["EventBridge refuses", "the invocation ends after the commit"])
def test_events_lost_after_the_change_are_delivered_once_by_the_scheduled_publisher(
    api: ApiClient, db: Db, eventbridge: Bus, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    # Given a card payment confirmed while its events could not be published
    with monkeypatch.context() as broken:
        if failure == "EventBridge refuses":
            broken.setattr(events, "deliver", refusing_bus)
        else:
            broken.setattr(outbox, "flush", lambda: 0)
        _, paid = place_and_pay_by_card(api, db)
    assert eventbridge() == []
    assert db.outbox.count_documents({"status": "PENDING"}) == 3  # order placed, order paid, payment confirmed
    # When the scheduled publisher runs, twice
    first_run = run_scheduled_publisher()
    published = eventbridge()
    second_run = run_scheduled_publisher()
    # Then every event was delivered exactly once, the payment among them, and nothing is left
    assert (first_run["delivered"], second_run["delivered"]) == (3, 0)
    assert eventbridge() == []
    ids = [event["detail"]["eventId"] for event in published]
    assert len(ids) == len(set(ids)) == 3
    confirmed = [event["detail"] for event in published if event["detail-type"] == "PaymentConfirmed"]
    assert [(event["transactionId"], event["orderStatus"]) for event in confirmed] == [(paid["transactionId"], "PAID")]
    assert second_run["oldestPendingSeconds"] == 0


def test_an_aggregates_events_are_delivered_in_sequence_even_after_a_refusal(
    db: Db, eventbridge: Bus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an order paid in two parts and then cancelled while EventBridge refused everything
    order = insert_order(db, db.users.insert_one({}).inserted_id, amount_due=100)
    with monkeypatch.context() as broken:
        broken.setattr(events, "deliver", refusing_bus)
        lifecycle.record_payment(order["_id"], 40, payment_id="p1", cause="card payment p1")
        lifecycle.record_payment(order["_id"], 60, payment_id="p2", cause="card payment p2")
        lifecycle.transition(order["_id"], OrderStatus.CANCELLED, cause="customer request")
        outbox.flush()
    # When the publisher runs
    delivered: list[events.Event] = []
    monkeypatch.setattr(events, "deliver", recording(delivered))
    outbox.publish_pending()
    # Then the three changes went to the bus one after the other, in the order they happened
    changes = [(event.detail["from"], event.detail["to"]) for event in delivered]
    assert changes == [("NEW", "PARTIALLY_PAID"), ("PARTIALLY_PAID", "PAID"), ("PAID", "CANCELLED")]
    sequences = [event.detail["sequence"] for event in delivered]
    assert sequences == sorted(sequences)
    assert len(eventbridge()) == 3


def test_a_refused_event_holds_back_its_own_aggregate_only(
    db: Db, eventbridge: Bus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two orders with pending events, and a bus that refuses the first order's first event
    user = db.users.insert_one({}).inserted_id
    first, second = insert_order(db, user, amount_due=100), insert_order(db, user, amount_due=100)
    for order in (first, second):
        lifecycle.record_payment(order["_id"], 40, payment_id="p1", cause="card payment")
        lifecycle.record_payment(order["_id"], 60, payment_id="p2", cause="card payment")
    blocked = db.outbox.find_one({"aggregate": f"order:{first['_id']}"}, sort=[("sequence", 1)]) or {}
    deliver = events.deliver

    def refuse_one(batch: list[events.Event]) -> list[bool]:
        accepted = deliver([event for event in batch if event.id != str(blocked["_id"])])
        answers = iter(accepted)
        return [False if event.id == str(blocked["_id"]) else next(answers) for event in batch]

    monkeypatch.setattr(events, "deliver", refuse_one)
    # When the publisher runs
    result = outbox.publish_pending()
    # Then the second order's events went out, the first order's waited behind its refused event
    assert (result.delivered, result.failed) == (2, 1)
    pending = list(db.outbox.find({"status": "PENDING"}))
    assert {entry["aggregate"] for entry in pending} == {f"order:{first['_id']}"}
    assert len(pending) == 2
    assert len(eventbridge()) == 2


def test_racing_publishers_deliver_each_event_once(db: Db, eventbridge: Bus, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given twenty orders whose payments are waiting in the outbox
    user = db.users.insert_one({}).inserted_id
    with monkeypatch.context() as broken:
        broken.setattr(events, "deliver", refusing_bus)
        for _ in range(20):
            order = insert_order(db, user, amount_due=100)
            lifecycle.record_payment(order["_id"], 100, payment_id="p", cause="card payment")
    delivered: list[events.Event] = []
    monkeypatch.setattr(events, "deliver", recording(delivered))
    # When four publishers run at once
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: outbox.publish_pending(), range(4)))
    # Then each of the twenty events was handed to the bus once, and all are marked sent
    assert sum(result.delivered for result in results) == 20
    ids = [event.id for event in delivered]
    assert len(ids) == len(set(ids)) == 20
    assert db.outbox.count_documents({"status": "SENT"}) == 20


def test_an_event_held_by_a_dead_publisher_is_delivered_after_its_claim(
    db: Db, eventbridge: Bus, frozen_clock: FrozenClock
) -> None:
    # Given an event claimed by a publisher that died before delivering it
    order = insert_order(db, db.users.insert_one({}).inserted_id, amount_due=100)
    lifecycle.record_payment(order["_id"], 100, payment_id="p", cause="card payment")
    outbox_requests.start_request()  # that request's own flush never ran
    [entry] = list(db.outbox.find())
    claimed_until = frozen_clock.current.replace(microsecond=0)
    db.outbox.update_one({"_id": entry["_id"]}, {"$set": {"claimId": "dead", "claimedUntil": claimed_until}})
    frozen_clock.current = claimed_until
    frozen_clock.advance(-1)
    # When a publisher runs within the claim, and again after it
    within = outbox.publish_pending()
    frozen_clock.advance(outbox.CLAIM_SECONDS)
    after = outbox.publish_pending()
    # Then the first leaves it to its holder, the second delivers it
    assert (within.delivered, after.delivered) == (0, 1)
    [event] = eventbridge()
    assert event["detail"]["eventId"] == str(entry["_id"])
