"""A fair opening (docs/DECISIONS.md, "A fair opening"): a car whose sale rules have a `queue`
(`domain.catalog.sale.SaleQueue`) is sold through it.

- Registration, from `registrationOpensAt`: one entry per person (`buyers.Buyer.key`, the person the
  order limits follow), held by a unique index; a person the sale would refuse (verified buyers only, its
  per-person limit) is refused here, so nobody waits for a car they may not buy.
- The draw, at the sale's `startsAt` (`domain.orders.draw`): the seed's commitment is published when the
  queue is first met, the seed with the order once the draw ran. Entries registered before `startsAt` take
  positions 1..n; later ones follow in arrival order. The draw runs once DRAW_GRACE has passed, so
  that every registration stamped before the start has been written (a request ends within its
  function's timeout, shorter than the grace). It is recorded and published once its order is known;
  its positions are then written in order over as many of the controller's steps and runs as they take
  (`draw_if_due`), admission following the written ones.
- Admission (`admit`): the queue's `servingUpTo` rises and every entry it passes may order for
  `admissionMinutes`, once (`admission` and `check_admission` before the order, `use_admission` in its
  transaction). Every check of the order itself stays as the backstop.
- The public files (`publish`): `sales/<carId>/status.json` and `draw.json` (data.edge_files), what a
  buyer polls instead of the API.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock, ids
from core.errors import Conflict, NotFound
from data import counters, edge_files
from data.mongo import in_transaction
from domain.catalog import sale
from domain.catalog import store as catalog
from domain.catalog.records import CarRecord
from domain.catalog.sale import SaleQueue
from domain.dealers import store as dealers
from domain.orders import buyers, draw, holds, store
from domain.orders.buyers import Buyer
from domain.orders.records import SaleEntryRecord, SaleQueueRecord

# Beyond the functions' timeout (template.yaml), so a registration stamped before the start is written.
DRAW_GRACE = timedelta(seconds=15)


class EntryStatus(StrEnum):
    REGISTERED = "REGISTERED"  # before the draw, or before its position is written
    WAITING = "WAITING"  # drawn, its turn not come
    ADMITTED = "ADMITTED"  # may order until `admittedUntil`
    ORDERED = "ORDERED"  # its admission was used for an order
    MISSED = "MISSED"  # its admission passed unused
    SOLD_OUT = "SOLD_OUT"  # the car sold out before its turn


class EntryView(NamedTuple):
    """One person's entry as the entries routes answer it."""

    entry_id: ObjectId
    car_id: ObjectId
    status: EntryStatus
    position: int | None
    draw_at: datetime
    admitted_until: datetime | None


def queued_car(car_id: str | ObjectId) -> tuple[CarRecord, SaleQueue]:
    """The car and its queue; 404 SALE_QUEUE_NOT_FOUND for a car without one (or no such car)."""
    car = catalog.find_car_sale(ObjectId(car_id)) if ObjectId.is_valid(str(car_id)) else None
    queue = sale.queue_of(car) if car is not None else None
    if car is None or queue is None:
        raise NotFound("SALE_QUEUE_NOT_FOUND", details={"carId": str(car_id)})
    return car, queue


def ensure_queue(car_id: ObjectId) -> SaleQueueRecord:
    """The running queue of the car, created with a fresh seed the first time it is met (the commitment
    is published then: `open_queue`)."""
    seed = draw.new_seed()
    return store.ensure_sale_queue(
        {
            "_id": car_id,
            "seed": seed,
            "seedCommitment": draw.commitment(seed),
            "createdAt": clock.now(),
            "drawnAt": None,
        }
    )


def open_queue(car_id: ObjectId) -> SaleQueueRecord:
    """Make the car's queue run and publish its status (the seed's commitment) at once: what an operator's
    `ops sale set --queue` does, before anyone registers."""
    running = ensure_queue(car_id)
    publish(car_id)
    return running


def register(buyer: Buyer, car_id: str) -> EntryView:
    """The buyer's entry in the car's opening: 404 SALE_QUEUE_NOT_FOUND, 409 REGISTRATION_NOT_OPEN before
    `registrationOpensAt`, the sale's refusals (403 IDENTITY_VERIFICATION_REQUIRED, 409
    PURCHASE_LIMIT_REACHED), 409 ALREADY_ENTERED for a person's second entry."""
    car, queue = queued_car(car_id)
    now = clock.now()
    if now < queue.registration_opens_at:
        raise Conflict("REGISTRATION_NOT_OPEN", details={"registrationOpensAt": queue.registration_opens_at})
    refused = buyers.entry_refusal(buyer, car["_id"], sale.rules_of(car), now=now)
    if refused is not None:
        raise refused
    running = ensure_queue(car["_id"])
    late = now >= queue.draw_at
    entry: SaleEntryRecord = {
        "_id": ids.new_id(),
        "carId": car["_id"],
        "person": buyer.key,
        "userId": buyer.user_id,
        "registeredAt": now,
        "late": late,
        "position": None,
    }
    if late:
        if store.find_sale_entry(car["_id"], buyer.key) is not None:  # spends no place in the arrival order
            raise Conflict("ALREADY_ENTERED")
        entry["arrival"] = counters.next_value(f"sale-arrivals:{car['_id']}")
        if running.get("drawnAt") is not None:
            entry["position"] = running.get("drawn", 0) + entry["arrival"]
    if not store.insert_sale_entry(entry):
        raise Conflict("ALREADY_ENTERED")
    return view(entry, running, queue, now)


def my_entry(buyer: Buyer, car_id: str) -> EntryView:
    """The buyer's entry: 404 SALE_QUEUE_NOT_FOUND (no queue), SALE_ENTRY_NOT_FOUND (no entry)."""
    car, queue = queued_car(car_id)
    entry = store.find_sale_entry(car["_id"], buyer.key)
    running = store.find_sale_queue(car["_id"])
    if entry is None or running is None:
        raise NotFound("SALE_ENTRY_NOT_FOUND", details={"carId": str(car_id)})
    return view(entry, running, queue, clock.now())


def view(entry: SaleEntryRecord, running: SaleQueueRecord, queue: SaleQueue, now: datetime) -> EntryView:
    return EntryView(
        entry_id=entry["_id"],
        car_id=entry["carId"],
        status=status_of(entry, running, now),
        position=position_of(entry, running),
        draw_at=queue.draw_at,
        admitted_until=entry.get("admittedUntil"),
    )


def position_of(entry: SaleEntryRecord, running: SaleQueueRecord) -> int | None:
    """The entry's place once drawn (a late entry: after the drawn ones, even before the controller wrote it)."""
    position = entry.get("position")
    if position is None and entry.get("late") and running.get("drawnAt") is not None:
        return running.get("drawn", 0) + entry.get("arrival", 0)
    return position


def status_of(entry: SaleEntryRecord, running: SaleQueueRecord, now: datetime) -> EntryStatus:
    if entry.get("orderId") is not None:
        return EntryStatus.ORDERED
    admitted_until = entry.get("admittedUntil")
    if admitted_until is not None:
        return EntryStatus.ADMITTED if now < admitted_until else EntryStatus.MISSED
    if running.get("soldOut"):
        return EntryStatus.SOLD_OUT
    if position_of(entry, running) is None:
        return EntryStatus.REGISTERED
    return EntryStatus.WAITING


# --- the draw --------------------------------------------------------------------------------------------


class DrawnOrder(NamedTuple):
    """A draw's order as a run computed it: the closed list's digest (hex) and the ids in position order."""

    digest: str
    ids: list[str]


class Draws:
    """An instance's draws in progress (`draw_if_due`): each car's order as computed here, kept between the
    controller's runs, so a warm instance's next run goes on without reading the closed list again (a new
    instance reads it, and checks it is the one drawn); dropped once every position is written."""

    def __init__(self) -> None:
        self.orders: dict[ObjectId, DrawnOrder] = {}


class DrawChanged(RuntimeError):
    """The closed list read is not the one the draw was made of: nothing is written (no entry registered
    before the draw's moment is written after DRAW_GRACE, and entries are never removed)."""


def draw_complete(running: SaleQueueRecord) -> bool:
    """The draw ran and every drawn position is written (a draw recorded without `positioned` wrote them
    all before it was recorded)."""
    drawn = running.get("drawn", 0)
    return running.get("drawnAt") is not None and running.get("positioned", drawn) >= drawn


def last_admissible(car_id: ObjectId, running: SaleQueueRecord) -> int:
    """The last position admission may reach: while the draw's positions are being written, the last one
    written (they are written in order, 1 first); then the last position given, late entries' included."""
    if running.get("drawnAt") is None:
        return 0
    if not draw_complete(running):
        return running.get("positioned", 0)
    return store.last_position(car_id)


def draw_if_due(
    car_id: ObjectId,
    queue: SaleQueue,
    now: datetime,
    *,
    running: SaleQueueRecord | None = None,
    draws: Draws | None = None,
    until: datetime | None = None,
    reading_until: datetime | None = None,
) -> SaleQueueRecord:
    """Run the car's draw once its moment and DRAW_GRACE have passed, or go on with it: the running queue
    as it is then. The draw is recorded (and published: the seed in status.json, draw.json) as soon as its
    order is known, and its positions are written DRAW_WRITE_BATCH at a time, in order, until `until`
    (None: all of them), each call going on from the count recorded; admission follows the written ones
    (`last_admissible`). The order is `draws`' when it holds this draw's, else the closed list is read
    again (given up at `reading_until`: the next run reads it) and checked against the digest recorded.
    Runs at once, or one after a run that died, write the same positions: the order is the seed's and the
    closed list's, and a position is written only where there is none. `running`: the queue as the caller
    just read it (else read here: `ensure_queue`); read before another run's last writes, it only makes
    this call redo them, to the same effect."""
    running = running if running is not None else ensure_queue(car_id)
    if now < queue.draw_at + DRAW_GRACE or draw_complete(running):
        return running
    draws = draws if draws is not None else Draws()
    order = draws.orders.get(car_id)
    if order is None or order.digest != running.get("drawDigest"):
        order = read_order(car_id, running["seed"], queue.draw_at, reading_until)
        if order is None:
            return running  # the run ended while the list was read: the next run reads it
        draws.orders[car_id] = order
    if running.get("drawnAt") is None:
        store.mark_drawn(car_id, drawn=len(order.ids), digest=order.digest, at=now, draw_at=queue.draw_at)
        running = store.find_sale_queue(car_id) or running
    if running.get("drawDigest") != order.digest:
        raise DrawChanged(f"car {car_id}: the entries read are not the closed list the draw was made of")
    if not running.get("drawPublished"):
        edge_files.publish(edge_files.sale_draw_key(car_id), draw_document(car_id, running, queue.draw_at, order.ids))
        store.mark_draw_published(car_id)
    store.place_late_entries(car_id, len(order.ids))
    positioned = running.get("positioned", 0)
    while positioned < len(order.ids) and (until is None or clock.now() < until):
        count = min(store.DRAW_WRITE_BATCH, len(order.ids) - positioned)
        store.write_drawn_positions(order.ids, after=positioned, count=count)
        positioned = store.record_positioned(car_id, positioned + count)
    if positioned >= len(order.ids):
        draws.orders.pop(car_id, None)
    return store.find_sale_queue(car_id) or running


def read_order(car_id: ObjectId, seed: str, draw_at: datetime, ends: datetime | None) -> DrawnOrder | None:
    """The closed list read (its ids in ranges, ascending) and ordered by the draw; None when the run ends
    before the list is read."""
    entry_ids: list[str] = []
    for found in store.entry_ids_registered_before(car_id, draw_at):
        entry_ids += found
        if ends is not None and clock.now() >= ends:
            return None
    return DrawnOrder(draw.entries_digest(entry_ids).hex(), draw.drawn_order(seed, entry_ids))


def draw_document(car_id: ObjectId, running: SaleQueueRecord, draw_at: datetime, ordered: list[str]) -> dict[str, Any]:
    """draw.json: the seed and every drawn entry id in position order (late entries are not drawn)."""
    return {
        "carId": str(car_id),
        "drawAt": draw_at,
        "seedCommitment": running["seedCommitment"],
        "seed": running["seed"],
        "algorithm": "positions by HMAC-SHA256(sha256(seed || sha256(sorted ids joined by LF)), id) hex ascending",
        "entries": ordered,
    }


# --- admission -------------------------------------------------------------------------------------------


def admit(car_id: ObjectId, queue: SaleQueue, up_to: int, now: datetime, *, holder: str) -> int:
    """Admit every entry up to position `up_to`, each for the queue's `admissionMinutes`, as the holder of
    the car's admission claim (`domain.orders.pacing`); how many were. One transaction: `servingUpTo`
    raised from the value read, by the claim's holder only, and the entries it passes admitted, so two
    runs of the controller never admit the same second twice (a run that lost its claim admits none).
    Never past a position the draw has not written yet (`last_admissible`)."""
    running = store.find_sale_queue(car_id)
    if running is None or running.get("drawnAt") is None:
        return 0
    store.place_late_entries(car_id, running.get("drawn", 0))
    up_to = min(up_to, last_admissible(car_id, running))  # never past a position not yet written
    after = running.get("servingUpTo", 0)
    if up_to <= after:
        return 0
    until = now + timedelta(minutes=queue.admission_minutes)

    def steps(session: ClientSession) -> int:
        if not store.raise_serving(car_id, holder=holder, after=after, up_to=up_to, at=now, session=session):
            return 0
        return store.admit_entries(car_id, after=after, up_to=up_to, at=now, until=until, session=session)

    return in_transaction(steps)


class Admission(NamedTuple):
    """What the order route reads of the buyer's place in a queued car's opening."""

    entry: SaleEntryRecord | None
    serving_up_to: int


def admission(buyer: Buyer, car_id: ObjectId) -> Admission:
    """Read the buyer's entry in the car's opening (an order's read step)."""
    running = store.find_sale_queue(car_id)
    serving_up_to = running.get("servingUpTo", 0) if running else 0
    return Admission(store.find_sale_entry(car_id, buyer.key), serving_up_to)


def check_admission(found: Admission, now: datetime) -> None:
    """The refusal of an order without its admission (an order's decide step): 409 NOT_YOUR_TURN
    (`details.position`, `details.servingUpTo`) before it, ADMISSION_USED once used, ADMISSION_EXPIRED
    after `admittedUntil`."""
    entry = found.entry
    admitted_until = entry.get("admittedUntil") if entry else None
    if entry is None or admitted_until is None:
        position = entry.get("position") if entry else None
        raise Conflict("NOT_YOUR_TURN", details={"position": position, "servingUpTo": found.serving_up_to})
    if entry.get("orderId") is not None:
        raise Conflict("ADMISSION_USED")
    if now >= admitted_until:
        raise Conflict("ADMISSION_EXPIRED", details={"admittedUntil": admitted_until})


def use_admission(found: Admission, order_id: ObjectId, *, now: datetime, session: ClientSession) -> None:
    """Spend the admission on the order, in its transaction: a racing order of the same admission meets
    409 ADMISSION_USED (or ADMISSION_EXPIRED when its time ran out meanwhile)."""
    entry = found.entry
    assert entry is not None  # check_admission passed
    if not store.use_admission(entry["_id"], order_id, now=now, session=session):
        current = store.find_sale_entry(entry["carId"], entry["person"], session=session)
        check_admission(Admission(current, found.serving_up_to), now)
        raise Conflict("ADMISSION_USED")


SLOW_ORDER_SECONDS = 2.0  # an admitted order slower than this says the database is the bottleneck


def record_order(car_id: ObjectId, *, busy: bool, seconds: float) -> None:
    """An admitted buyer's order of the car ended (placed or refused; `busy`: DATA_BUSY) in `seconds`: what
    the admission's pace hears (domain.orders.pacing)."""
    store.count_queue_feedback(car_id, busy=busy, slow=seconds > SLOW_ORDER_SECONDS)


# --- the public status -----------------------------------------------------------------------------------


def status_document(car_id: ObjectId, queue: SaleQueue, running: SaleQueueRecord, now: datetime) -> dict[str, Any]:
    """status.json: what every buyer polls (from the edge, never the API)."""
    drawn = running.get("drawnAt") is not None
    # Once drawn, the entries are the drawn and the late ones: counted without a key of every entry, which
    # at a nation's opening would take the step's second.
    entries = running.get("drawn", 0) + store.count_late_entries(car_id) if drawn else store.count_sale_entries(car_id)
    return {
        "carId": str(car_id),
        "seedCommitment": running["seedCommitment"],
        "seed": running["seed"] if drawn else None,
        "drawAt": queue.draw_at,
        "registrationOpensAt": queue.registration_opens_at,
        "entries": entries,
        "servingUpTo": running.get("servingUpTo", 0),
        "unitsLeft": dealers.units_of_car(car_id),
        "openHolds": store.count_open_holds(car_id, holds.may_come_back()),
        "soldOut": bool(running.get("soldOut")),
        "updatedAt": now,
    }


def publish(car_id: ObjectId) -> dict[str, Any]:
    """Write the car's status.json (its queue's state now); what was written."""
    _, queue = queued_car(car_id)
    running = store.find_sale_queue(car_id) or ensure_queue(car_id)
    document = status_document(car_id, queue, running, clock.now())
    edge_files.publish(edge_files.sale_status_key(car_id), document)
    return document
