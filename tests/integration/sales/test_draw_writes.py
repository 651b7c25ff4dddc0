"""The draw's positions on the real MongoDB: written DRAW_WRITE_BATCH entries a command, so a draw of many
entries on a busy server is many short writes, each within the client's timeout, never one that runs out of
time and fails the controller's step (found by `make bench ARGS=--opening`: 3,000 entries, load 20 on 2
cores, the draw's one write past MONGODB_TIMEOUT_MS twice)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from data import edge_files
from data.mongo import get_db, reset_client
from domain.catalog.sale import SaleQueue
from domain.orders import openings
from domain.orders.store import DRAW_WRITE_BATCH
from tests.data import purchasable_car
from tools.command_counter import CommandCounter

Db = Database[dict[str, Any]]


def test_every_drawn_entry_gets_its_place_in_batches_of_writes(db: Db, frozen_clock: FrozenClock) -> None:
    # Given two batches and one more entry, registered before the draw
    people = 2 * DRAW_WRITE_BATCH + 1
    now = frozen_clock().replace(microsecond=0)
    queue = SaleQueue(now, now + timedelta(hours=1), 10, 15)
    rules = {
        "startsAt": queue.draw_at,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": 10, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand="Drawn in batches", sale=rules)
    openings.open_queue(car.car_id)
    entry = {"carId": car.car_id, "registeredAt": now, "late": False, "position": None}
    db.sale_entries.insert_many(
        [{"_id": ObjectId(), "person": f"person-{n}", "userId": ObjectId(), **entry} for n in range(people)]
    )
    counter = CommandCounter()
    reset_client(event_listeners=[counter])  # the db fixture's teardown resets it
    # When the draw runs
    frozen_clock.current = queue.draw_at + openings.DRAW_GRACE
    with counter.counting() as counts:
        openings.draw_if_due(car.car_id, queue, frozen_clock())
    # Then it wrote the positions in three commands
    updates = [
        cast(list[dict[str, Any]], command["updates"])
        for command in counts.commands
        if command.get("update") == "sale_entries"
    ]
    by_id = [len(batch) for batch in updates if "_id" in batch[0]["q"]]
    assert by_id == [DRAW_WRITE_BATCH, DRAW_WRITE_BATCH, 1]
    # And every entry has the place draw.json gives it, 1 to the last
    published = edge_files.read(edge_files.sale_draw_key(car.car_id))
    assert published is not None
    stored = {str(found["_id"]): found["position"] for found in get_db().sale_entries.find({"carId": car.car_id})}
    assert [stored[entry_id] for entry_id in published["entries"]] == list(range(1, people + 1))
