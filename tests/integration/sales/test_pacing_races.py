"""Paced admission while orders and the expiry move units between the controller's reads (found by `make bench
ARGS=--opening`: an admitted person told OUT_OF_STOCK). Each test has an order placed, or a hold expire, just
before one of the controller's reads is sent (a pymongo command listener on the process's client, the seam
the round-trip tests count with), so the step meets the database changed halfway, as it does under load; and
steps that take longer than their second (the same listener moving the frozen clock)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo import MongoClient, monitoring
from pymongo.database import Database

from core.clock import FrozenClock
from data import edge_files
from data.mongo import reset_client
from domain.orders import openings, pacing
from tests.data import CatalogCar, insert_entries, insert_order, purchasable_car

Db = Database[dict[str, Any]]
UNITS = 4  # one in each of the car's four stock rows


class JustBefore(monitoring.CommandListener):
    """Runs `action` once, just before the first command `read` recognizes is sent, once armed."""

    def __init__(self, read: Callable[[str, Any], bool], action: Callable[[], object]) -> None:
        self.read = read
        self.action = action
        self.armed = False

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if self.armed and self.read(event.command_name, event.command):
            self.armed = False
            self.action()

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class Slow(monitoring.CommandListener):
    """Every step's publication of its status (the queue read back) takes `seconds` of the frozen clock."""

    def __init__(self, clock: FrozenClock, seconds: float) -> None:
        self.clock = clock
        self.seconds = seconds

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "find" and event.command.get("find") == "sale_queues":
            self.clock.advance(self.seconds)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


def units_read(name: str, command: Any) -> bool:
    return name == "aggregate" and command.get("aggregate") == "stock"


def holds_read(name: str, command: Any) -> bool:
    return name == "aggregate" and command.get("aggregate") == "orders"


def admitted_read(name: str, command: Any) -> bool:
    return name == "aggregate" and command.get("aggregate") == "sale_entries" and "admittedUntil" in str(command)


@pytest.fixture
def other(db: Db, mongo_uri: str) -> Iterator[Db]:
    """The test's database through a client of its own: what the listener's action writes with."""
    client: MongoClient[dict[str, Any]] = MongoClient(mongo_uri, tz_aware=True)
    with client:
        yield client[db.name]


def drawn_opening(db: Db, clock: FrozenClock, *, people: int) -> CatalogCar:
    """UNITS units, `people` registered, the clock past the draw; then one step: the first UNITS admitted."""
    now = clock().replace(microsecond=0)
    draw_at = now + timedelta(hours=1)
    rules = {
        "startsAt": draw_at,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": 10, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand=f"Raced {ObjectId()}", quantity=1, sale=rules)
    openings.open_queue(car.car_id)
    insert_entries(db, car.car_id, people, now)
    clock.current = draw_at + openings.DRAW_GRACE
    pacing.run(1, sleep=clock.advance)
    assert serving(db, car) == UNITS
    return car


def serving(db: Db, car: CatalogCar) -> int:
    return int((db.sale_queues.find_one({"_id": car.car_id}) or {}).get("servingUpTo", 0))


def sold_out(car: CatalogCar) -> bool:
    found = edge_files.read(edge_files.sale_status_key(car.car_id))
    assert found is not None
    return bool(found["soldOut"])


def order_by(db: Db, car: CatalogCar, position: int, *, status: str = "NEW") -> ObjectId:
    """The admitted person at `position` orders, as the order route leaves it: a unit held, the admission spent."""
    entry = db.sale_entries.find_one({"carId": car.car_id, "position": position})
    assert entry is not None
    order = insert_order(db, entry["userId"], car, status=status, stockHold="HELD")
    assert db.stock.find_one_and_update({"carId": car.car_id, "quantity": {"$gt": 0}}, {"$inc": {"quantity": -1}})
    db.sale_entries.update_one({"_id": entry["_id"]}, {"$set": {"orderId": order["_id"]}})
    return order["_id"]


def expire(db: Db, car: CatalogCar, order_id: ObjectId) -> None:
    """The order missed its deposit: cancelled, its unit back in stock (what the expiry job does)."""
    db.orders.update_one({"_id": order_id}, {"$set": {"statusSlug": "CANCELLED", "stockHold": "RETURNED"}})
    db.stock.update_one({"carId": car.car_id, "quantity": 0}, {"$inc": {"quantity": 1}})


def step_with(clock: FrozenClock, listener: JustBefore) -> None:
    reset_client(event_listeners=[listener])
    listener.armed = True
    try:
        pacing.run(1, sleep=clock.advance)
    finally:
        reset_client()
    assert not listener.armed, "the step never sent the read"


@pytest.mark.parametrize("read", [units_read, admitted_read], ids=["before the units", "before the admitted"])
def test_an_order_placed_between_the_reads_never_has_a_person_admitted_without_a_unit(
    db: Db, other: Db, frozen_clock: FrozenClock, read: Callable[[str, Any], bool]
) -> None:
    # Given 4 units for 10 people, the first 4 admitted and the first of them ordered: 3 units for 3 admitted
    car = drawn_opening(db, frozen_clock, people=10)
    order_by(db, car, 1)
    # When the next step meets the second admitted person's order between its reads
    step_with(frozen_clock, JustBefore(read, lambda: order_by(other, car, 2)))
    # Then nobody more is admitted: the 2 units left are the 2 admitted people's
    assert serving(other, car) == UNITS


@pytest.mark.parametrize("read", [units_read, holds_read], ids=["before the units", "before the holds"])
def test_a_hold_that_expires_between_the_reads_is_never_sold_out(
    db: Db, other: Db, frozen_clock: FrozenClock, read: Callable[[str, Any], bool]
) -> None:
    # Given every unit ordered, three paid and the fourth not: one hold may come back
    car = drawn_opening(db, frozen_clock, people=10)
    for position in range(1, UNITS):
        order_by(db, car, position, status="PAID")
    unpaid = order_by(db, car, UNITS)
    # When the next step meets the unpaid hold expiring between its reads
    step_with(frozen_clock, JustBefore(read, lambda: expire(other, car, unpaid)))
    # Then the status never says sold out: the unit is back for the next person
    assert sold_out(car) is False


@pytest.mark.parametrize("read", [units_read, holds_read], ids=["before the units", "before the holds"])
def test_the_last_unit_ordered_between_the_reads_is_not_sold_out_while_its_hold_may_come_back(
    db: Db, other: Db, frozen_clock: FrozenClock, read: Callable[[str, Any], bool]
) -> None:
    # Given three units ordered and paid, the fourth admitted person not yet ordered
    car = drawn_opening(db, frozen_clock, people=10)
    for position in range(1, UNITS):
        order_by(db, car, position, status="PAID")
    # When the next step meets the fourth person's order between its reads
    step_with(frozen_clock, JustBefore(read, lambda: order_by(other, car, UNITS)))
    # Then it is not sold out: the order is unpaid, its unit may come back
    assert sold_out(car) is False


def test_steps_slower_than_a_second_end_the_run_within_its_seconds(db: Db, frozen_clock: FrozenClock) -> None:
    # Given an opening whose units are all admitted, people still waiting, and a database so slow that each
    # step takes 2.5 seconds
    drawn_opening(db, frozen_clock, people=10)
    reset_client(event_listeners=[Slow(frozen_clock, 2.5)])
    # When an invocation has 10 seconds for its steps
    began = frozen_clock()
    done = pacing.run(10, sleep=frozen_clock.advance)
    # Then it stops stepping within them, not after 10 steps of 2.5 s: the next invocation comes on time
    assert done["steps"] == 4
    assert frozen_clock() - began <= timedelta(seconds=10)
