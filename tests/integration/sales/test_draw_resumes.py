"""A draw too large for one run of the controller (a national opening: a million entries, some minutes of
writes) on the real MongoDB: its positions are written a slice of each step, the next run goes on where the
last stopped, runs at once write the same, and admission never passes the last position written.

Time is the frozen clock's: a command listener on the process's client moves it as each write of positions
is sent (the seam test_pacing_races.py's listeners use), so a step runs out of its share of the second after
a known number of writes, without a sleep."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo import monitoring
from pymongo.database import Database

from core.clock import FrozenClock
from data import edge_files
from data.mongo import get_db, reset_client
from domain.catalog.sale import SaleQueue
from domain.orders import draw, openings, pacing
from domain.orders.store import DRAW_WRITE_BATCH
from tests.data import CatalogCar, insert_entries, purchasable_car

Db = Database[dict[str, Any]]
PEOPLE = 5 * DRAW_WRITE_BATCH + 3  # six writes of positions, the last of 3


def position_writes(event: monitoring.CommandStartedEvent) -> list[tuple[str, int]]:
    """The (entry id, position) pairs a command writes, if it is one of the draw's writes of positions."""
    if event.command_name != "update" or event.command.get("update") != "sale_entries":
        return []
    updates = event.command.get("updates", [])
    return [(str(update["q"]["_id"]), update["u"]["$set"]["position"]) for update in updates if "_id" in update["q"]]


class Writes(monitoring.CommandListener):
    """Every position the draw sends, by entry; each write of positions takes `seconds` of the frozen clock;
    `before_write` (once, when set) runs just before the write numbered `at` (1 the first) is sent."""

    def __init__(self, clock: FrozenClock, seconds: float) -> None:
        self.clock = clock
        self.seconds = seconds
        self.sent: dict[str, set[int]] = {}
        self.writes = 0
        self.list_reads = 0  # reads of the closed list (its ids in ranges)
        self.before_write: Callable[[], object] | None = None
        self.at = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "find" and event.command.get("find") == "sale_entries" and "hint" in event.command:
            self.list_reads += 1
        pairs = position_writes(event)
        if not pairs:
            return
        self.writes += 1
        if self.before_write is not None and self.writes == self.at:
            action, self.before_write = self.before_write, None
            action()
        for entry_id, position in pairs:
            self.sent.setdefault(entry_id, set()).add(position)
        self.clock.advance(self.seconds)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class BeforeRecord(monitoring.CommandListener):
    """Runs `action` once, just before the draw is recorded on the queue (its one conditional update)."""

    def __init__(self, action: Callable[[], object]) -> None:
        self.action: Callable[[], object] | None = action

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        recording = event.command_name == "update" and event.command.get("update") == "sale_queues"
        if self.action is not None and recording and "drawnAt" in str(event.command["updates"][0]["q"]):
            action, self.action = self.action, None
            action()

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


@pytest.fixture
def listening() -> Iterator[Callable[..., Db]]:
    """Make the process's client report to these listeners (reset afterwards): the database through it."""

    def listen(*listeners: monitoring.CommandListener) -> Db:
        reset_client(event_listeners=listeners)
        return get_db()

    yield listen
    reset_client()


def opening(
    db: Db, clock: FrozenClock, *, per_second: int = 10, units_per_row: int = 5
) -> tuple[CatalogCar, SaleQueue]:
    """PEOPLE registered before the draw of a car in four stock rows, the clock past the draw and its grace."""
    now = clock().replace(microsecond=0)
    draw_at = now + timedelta(hours=1)
    queue = SaleQueue(now, draw_at, per_second, 15)
    rules = {
        "startsAt": draw_at,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": per_second, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand=f"Drawn {ObjectId()}", quantity=units_per_row, sale=rules)
    openings.open_queue(car.car_id)
    insert_entries(db, car.car_id, PEOPLE, now)
    clock.current = draw_at + openings.DRAW_GRACE
    return car, queue


def uninterrupted_order(db: Db, car: CatalogCar) -> list[str]:
    """The order the draw gives the car's entries, computed here in one go from the seed and every id."""
    seed = (db.sale_queues.find_one({"_id": car.car_id}) or {})["seed"]
    return draw.drawn_order(seed, [str(entry["_id"]) for entry in db.sale_entries.find({"carId": car.car_id})])


def positions(db: Db, car: CatalogCar) -> dict[str, int]:
    """The positions written, by entry id."""
    found = db.sale_entries.find({"carId": car.car_id, "position": {"$ne": None}}, {"position": 1})
    return {str(entry["_id"]): entry["position"] for entry in found}


def queue_of(db: Db, car: CatalogCar) -> dict[str, Any]:
    return db.sale_queues.find_one({"_id": car.car_id}) or {}


def test_a_draw_that_outlasts_its_runs_is_finished_by_the_next_ones_in_the_order_of_an_uninterrupted_draw(
    db: Db, frozen_clock: FrozenClock, listening: Callable[..., Db]
) -> None:
    # Given a draw of six writes of positions, each taking 2/5 of a step's share of its second for the draw:
    # three fit in a step
    car, _ = opening(db, frozen_clock)
    writes = Writes(frozen_clock, pacing.DRAW_SHARE * pacing.STEP_SECONDS / 2.5)
    db = listening(writes)
    # When a run of one step draws
    pacing.run(1, sleep=frozen_clock.advance, draws=openings.Draws())
    # Then the draw is recorded and published, and the first three writes' positions are written, in order
    recorded = queue_of(db, car)
    assert (recorded["drawn"], recorded["positioned"]) == (PEOPLE, 3 * DRAW_WRITE_BATCH)
    published = edge_files.read(edge_files.sale_draw_key(car.car_id))
    assert published is not None
    assert published["entries"] == uninterrupted_order(db, car)
    assert edge_files.read(edge_files.sale_status_key(car.car_id))["seed"] is not None  # type: ignore[index]
    written = positions(db, car)
    assert sorted(written.values()) == list(range(1, 3 * DRAW_WRITE_BATCH + 1))
    # When that run died after sending its third write and before recording it
    db.sale_queues.update_one({"_id": car.car_id}, {"$set": {"positioned": 2 * DRAW_WRITE_BATCH}})
    # And the next minute's run, on a new instance, goes on, and the minute after on the same instance
    instance = openings.Draws()
    frozen_clock.advance(60)
    pacing.run(1, sleep=frozen_clock.advance, draws=instance)
    frozen_clock.advance(60)
    pacing.run(1, sleep=frozen_clock.advance, draws=instance)
    # Then every entry has the place an uninterrupted draw gives it, 1 to the last, and the draw is complete
    order = uninterrupted_order(db, car)
    written = positions(db, car)
    assert [written[entry_id] for entry_id in order] == list(range(1, PEOPLE + 1))
    assert queue_of(db, car)["positioned"] == PEOPLE
    # And no entry was ever sent two different positions (the third write, sent again, was the same)
    assert all(len(sent) == 1 for sent in writes.sent.values())
    assert writes.writes == 6 + 1
    # And the list was read by the first run and the new instance's, not again by the warm one
    assert writes.list_reads == 2


@pytest.mark.parametrize("moment", ["before the draw is recorded", "between two writes of positions"])
def test_two_runs_drawing_at_once_give_one_order(
    db: Db, frozen_clock: FrozenClock, listening: Callable[..., Db], moment: str
) -> None:
    # Given a draw due, and a run that has read and ordered the entries
    car, queue = opening(db, frozen_clock)
    now = frozen_clock()

    def other_run() -> None:
        openings.draw_if_due(car.car_id, queue, now, draws=openings.Draws())

    writes = Writes(frozen_clock, 0.0)
    if moment == "before the draw is recorded":
        db = listening(writes, BeforeRecord(other_run))
    else:
        writes.before_write, writes.at = other_run, 2
        db = listening(writes)
    # When another run draws the whole of it at that moment, and the first goes on
    openings.draw_if_due(car.car_id, queue, now, draws=openings.Draws())
    # Then the positions are those of one draw, the one draw.json publishes
    order = uninterrupted_order(db, car)
    written = positions(db, car)
    assert [written[entry_id] for entry_id in order] == list(range(1, PEOPLE + 1))
    published = edge_files.read(edge_files.sale_draw_key(car.car_id))
    assert published is not None
    assert published["entries"] == order
    assert all(len(sent) == 1 for sent in writes.sent.values())
    assert queue_of(db, car)["positioned"] == PEOPLE


def test_admission_never_passes_the_last_position_written(
    db: Db, frozen_clock: FrozenClock, listening: Callable[..., Db]
) -> None:
    # Given a pace of 2,000 a second for 4,000 units, and writes of positions so slow that one fits a step
    car, queue = opening(db, frozen_clock, per_second=2_000, units_per_row=1_000)
    # And a late entry, whose place after the drawn ones is given at once
    late = {"carId": car.car_id, "person": "late", "userId": ObjectId(), "late": True, "arrival": 1, "position": None}
    db.sale_entries.insert_one({**late, "registeredAt": queue.draw_at + timedelta(seconds=1)})
    db = listening(Writes(frozen_clock, 1.0))
    seen = []
    # When the controller steps while the positions are being written
    for _ in range(3):
        pacing.run(1, sleep=frozen_clock.advance)
        recorded = queue_of(db, car)
        status = edge_files.read(edge_files.sale_status_key(car.car_id))
        assert status is not None
        admitted = db.sale_entries.count_documents({"carId": car.car_id, "admittedUntil": {"$ne": None}})
        seen.append((recorded["positioned"], recorded["servingUpTo"], status["servingUpTo"], admitted))
    # Then each step admits up to the last position written and no further, and status.json says so
    assert seen == [(n * DRAW_WRITE_BATCH,) * 4 for n in (1, 2, 3)]
    assert db.sale_entries.find_one({"person": "late"})["position"] == PEOPLE + 1  # type: ignore[index]
    # And status.json counts every entry, the drawn and the late one
    published = edge_files.read(edge_files.sale_status_key(car.car_id))
    assert published is not None
    assert published["entries"] == PEOPLE + 1


def test_a_queue_the_controller_meets_first_is_drawn(db: Db, frozen_clock: FrozenClock) -> None:
    # Given a car sold through a queue set in the data set (no queue document yet), entries registered
    now = frozen_clock().replace(microsecond=0)
    draw_at = now + timedelta(hours=1)
    rules = {
        "startsAt": draw_at,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": 10, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand="Met first", quantity=5, sale=rules)
    insert_entries(db, car.car_id, 30, now)
    frozen_clock.current = draw_at + openings.DRAW_GRACE
    # When the controller steps
    pacing.run(1, sleep=frozen_clock.advance)
    # Then its queue is made, drawn, and the first ten admitted
    assert sorted(positions(db, car).values()) == list(range(1, 31))
    assert queue_of(db, car)["servingUpTo"] == 10
