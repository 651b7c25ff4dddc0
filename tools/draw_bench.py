"""`make bench ARGS=--draw` (python -m tools bench --draw): what a fair opening's draw costs at many entries, on
a real mongod, and what that means at a nation's scale (docs/PERFORMANCE.md, "The draw at a nation's scale").

For each count of entries (`--draw-entries`, default 20,000 and 100,000), registered directly in the
database (one person each, all before the draw's moment), two passes:

1. The draw's parts, each timed alone, on entries of no car: reading the closed list (its ids in ranges,
   `store.entry_ids_registered_before`), ordering it (the digest and the HMAC sort, `domain.orders.draw`),
   writing every position (`store.write_drawn_positions`, DRAW_WRITE_BATCH a command, each followed by the
   queue's count); and the memory reading and ordering take (tracemalloc's peak, a pass of its own).
2. The draw as SaleAdmission runs it: a seeded car sold through a queue whose draw is due, with no unit
   left (so no step admits anyone and a run ends once the draw is written), stepped in real time by
   `pacing.run` runs as long as the deployed function's until every position is written: when the draw
   was recorded (seed and draw.json published), when every position was written, how many runs it took.

Then the figures of the largest count taken to 1,000,000 entries in proportion (the draw's parts grow with
the entries: a read, a sort and a write per entry), beside one run's seconds and the function's memory.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database

Db = Database[dict[str, Any]]

DEFAULT_ENTRIES = (20_000, 100_000)
NATION = 1_000_000
INSERT_BATCH = 10_000  # entries registered a command
MAX_RUNS = 30  # a draw not written by then is reported as such
STEPS_AFTER = 5  # steps timed once the draw is written
CAUSE = "make bench ARGS=--draw"


class Parts(NamedTuple):
    """The draw's parts at `entries`, in seconds, and the memory reading and ordering took."""

    entries: int
    read_s: float
    order_s: float
    write_s: float
    memory_mb: float


class Controlled(NamedTuple):
    """The draw under SaleAdmission: seconds from the first run's start to the draw's record and to its
    last position, and the runs it took (None: not written within MAX_RUNS); then what one of its steps
    takes, the draw written (the counts and the status every step reads and writes)."""

    recorded_s: float | None
    written_s: float | None
    runs: int
    step_s: float  # a step of the car once the draw is written (median of STEPS_AFTER)


def register(db: Db, car_id: ObjectId, entries: int, registered_at: datetime) -> None:
    """`entries` distinct people's entries for the car, registered at `registered_at`, not yet drawn."""
    for first in range(0, entries, INSERT_BATCH):
        db.sale_entries.insert_many(
            [
                {
                    "_id": ObjectId(),
                    "carId": car_id,
                    "person": f"draw-bench-{n}",
                    "userId": ObjectId(),
                    "registeredAt": registered_at,
                    "late": False,
                    "position": None,
                }
                for n in range(first, min(entries, first + INSERT_BATCH))
            ]
        )


def parts(db: Db, entries: int) -> Parts:
    """The draw's parts timed one by one on `entries` entries of a car that is not in the catalog."""
    from domain.orders import draw, store

    car_id = ObjectId()
    moment = datetime.now(UTC).replace(microsecond=0)
    register(db, car_id, entries, moment - timedelta(minutes=1))
    seed = draw.new_seed()
    store.ensure_sale_queue({"_id": car_id, "seed": seed, "seedCommitment": draw.commitment(seed), "createdAt": moment})

    def read() -> list[str]:
        return [entry_id for found in store.entry_ids_registered_before(car_id, moment) for entry_id in found]

    started = time.perf_counter()
    entry_ids = read()
    read_s = time.perf_counter() - started
    started = time.perf_counter()
    draw.entries_digest(entry_ids)
    ordered = draw.drawn_order(seed, entry_ids)
    order_s = time.perf_counter() - started
    started = time.perf_counter()
    for after in range(0, entries, store.DRAW_WRITE_BATCH):
        count = min(store.DRAW_WRITE_BATCH, entries - after)
        store.write_drawn_positions(ordered, after=after, count=count)
        store.record_positioned(car_id, after + count)
    write_s = time.perf_counter() - started
    del entry_ids, ordered
    tracemalloc.start()
    try:
        entry_ids = read()
        draw.entries_digest(entry_ids)
        draw.drawn_order(seed, entry_ids)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    if len(entry_ids) != entries:
        raise SystemExit(f"the draw read {len(entry_ids)} of {entries} entries")
    return Parts(entries, read_s, order_s, write_s, peak / 2**20)


@contextmanager
def queued_car(db: Db, draw_at: datetime) -> Iterator[ObjectId]:
    """A seeded car sold through a queue whose draw is at `draw_at`, none of its units left (what `ops sale
    set --queue` does: the rules, then the queue opened); its rules cleared afterwards, its queue and
    entries removed."""
    from domain.catalog.records import QueueRecord, SaleRecord
    from domain.catalog.sale_changes import set_rules
    from domain.orders import openings
    from tools.sale_bench import configurations

    [configuration] = configurations(db, 1)
    car_id = configuration.car_id
    db.stock.update_many({"carId": car_id}, {"$set": {"quantity": 0}})
    db.stock_buckets.delete_many({"carId": car_id})
    queue: QueueRecord = {
        "registrationOpensAt": draw_at - timedelta(hours=1),
        "admissionPerSecond": 80,
        "admissionMinutes": 15,
    }
    rules: SaleRecord = {"startsAt": draw_at, "queue": queue}
    set_rules(car_id, rules, by=CAUSE, cause=CAUSE)
    openings.open_queue(car_id)
    try:
        yield car_id
    finally:
        set_rules(car_id, None, by=CAUSE, cause=CAUSE)
        db.sale_entries.delete_many({"carId": car_id})
        db.sale_queues.delete_one({"_id": car_id})


def controlled(db: Db, entries: int) -> Controlled:
    """The draw of `entries` entries stepped by SaleAdmission's runs, in real time."""
    from core import clock
    from domain.orders import openings, pacing

    _, run_s = admission_function()

    draw_at = (datetime.now(UTC) - openings.DRAW_GRACE - timedelta(seconds=1)).replace(microsecond=0)
    with queued_car(db, draw_at) as car_id:
        register(db, car_id, entries, draw_at - timedelta(minutes=1))
        began = time.monotonic()
        seen: dict[str, float] = {}

        def look() -> dict[str, Any]:
            running = db.sale_queues.find_one({"_id": car_id}) or {}
            if running.get("drawnAt") is not None:
                seen.setdefault("recorded", time.monotonic() - began)
            if openings.draw_complete(running):  # type: ignore[arg-type]
                seen.setdefault("written", time.monotonic() - began)
            return running

        def sleep(seconds: float) -> None:
            look()  # between two steps: what the last one left
            time.sleep(seconds)

        runs = 0
        while runs < MAX_RUNS and "written" not in seen:
            pacing.run(run_s, sleep=sleep)
            runs += 1
            look()
        _, queue = openings.queued_car(car_id)
        controller = pacing.Controller()
        steps = []
        for _ in range(STEPS_AFTER):
            started = time.perf_counter()
            controller.step_car(car_id, queue, clock.now())
            steps.append(time.perf_counter() - started)
        controller.release([car_id])
    return Controlled(seen.get("recorded"), seen.get("written"), runs, statistics.median(steps))


def admission_function() -> tuple[int, int]:
    """SaleAdmission's memory (MB) and the seconds a run steps (its timeout less what it keeps in hand), as
    template.yaml deploys it."""
    from local.template import load_template
    from sales.admission import STOP_BEFORE_TIMEOUT_S

    template = load_template()
    function = template["Resources"]["SaleAdmissionFunction"]["Properties"]
    defaults = template["Globals"]["Function"]
    memory = int(function.get("MemorySize", defaults["MemorySize"]))
    return memory, int(function.get("Timeout", defaults["Timeout"])) - STOP_BEFORE_TIMEOUT_S


def table(rows: list[tuple[Parts, Controlled]]) -> list[str]:
    from domain.orders import pacing

    lines = [
        f"{'entries':>9}{'read s':>8}{'order s':>9}{'write s':>9}{'writes/s':>10}{'memory MB':>11}"
        f"{'recorded s':>12}{'written s':>11}{'runs':>6}{'step s':>8}",
    ]
    for part, run in rows:
        recorded = f"{run.recorded_s:.1f}" if run.recorded_s is not None else "-"
        written = f"{run.written_s:.1f}" if run.written_s is not None else f">{MAX_RUNS} runs"
        lines.append(
            f"{part.entries:>9,}{part.read_s:>8.2f}{part.order_s:>9.2f}{part.write_s:>9.2f}"
            f"{part.entries / part.write_s:>10,.0f}{part.memory_mb:>11.0f}"
            f"{recorded:>12}{written:>11}{run.runs:>6}{run.step_s:>8.2f}"
        )
    largest = max((part for part, _ in rows), key=lambda part: part.entries)
    scale = NATION / largest.entries
    read_s, order_s, write_s = largest.read_s * scale, largest.order_s * scale, largest.write_s * scale
    # Under SaleAdmission: the first step reads and orders, then each step writes for DRAW_SHARE of its second.
    draw_s = read_s + order_s + write_s / (pacing.DRAW_SHARE * pacing.STEP_SECONDS)
    memory_mb, run_s = admission_function()

    lines += [
        "",
        f"At {NATION:,} entries (the {largest.entries:,} row times {scale:g}): read {read_s:.0f} s, order "
        f"{order_s:.0f} s, write {write_s:.0f} s; memory {largest.memory_mb * scale:.0f} MB for the ids and "
        f"their order (SaleAdmission has {memory_mb} MB)",
        f"under SaleAdmission: the first step reads and orders ({read_s + order_s:.0f} s), then each step writes "
        f"for {pacing.DRAW_SHARE:g} s of its second: every position written {draw_s:.0f} s after the draw is due, "
        f"about {draw_s / run_s:.1f} runs of {run_s} s; admission from the step "
        "after the record, behind the positions written",
    ]
    return lines


def run(uri: str, database: str, counts: list[int]) -> list[str]:
    """The draw bench on a seeded database (tools.bench.bench_database): the printed lines."""
    client: MongoClient[dict[str, Any]]
    with MongoClient(uri, tz_aware=True) as client:
        db: Db = client[database]
        rows = [(parts(db, entries), controlled(db, entries)) for entries in sorted(counts)]
    return [
        "The draw of a fair opening: entries registered directly; its parts timed one by one, then the draw as "
        "SaleAdmission's runs step it (real time, no unit left so no admission)",
        "",
        *table(rows),
    ]
