"""The orders' data: `orders`, `order_logs` and `promo_codes`; this module alone reads and writes them.
The rules are elsewhere: the state machine in `domain.orders.lifecycle`, promo codes in
`domain.orders.promo_codes`, placing an order in `domain.orders.placement`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument, UpdateOne
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from data.mongo import Document, FoundPage, Index, collection, find_page
from domain.orders.records import OrderLogRecord, OrderRecord, PromoCodeRecord, SaleEntryRecord, SaleQueueRecord

# The reference data set replaces the promo codes whole (domain.dataset), keeping their uses.
DATASET_COLLECTIONS = ("promo_codes",)

INDEXES = [
    Index(collection="orders", keys=[("userId", 1), ("createdAt", -1), ("_id", -1)], name="orders_by_user_newest"),
    Index(
        collection="orders",
        keys=[("contractNumber", 1)],
        name="orders_contract_number_unique",
        options={"unique": True},
    ),
    # The expiry of late orders (domain.orders.holds.late): unpaid ones past `depositBy` or `payBy`, oldest first.
    Index(collection="orders", keys=[("statusSlug", 1), ("createdAt", 1), ("_id", 1)], name="orders_by_status_created"),
    Index(collection="orders", keys=[("statusSlug", 1), ("payBy", 1)], name="orders_by_status_pay_by"),
    Index(collection="orders", keys=[("statusSlug", 1), ("depositBy", 1)], name="orders_by_status_deposit_by"),
    # A person's orders (domain.orders.buyers): their unpaid ones, and those of one car since a time; the
    # unpaid ones of a partner's unverified accounts ("user:" buyers).
    Index(collection="orders", keys=[("buyer", 1), ("statusSlug", 1)], name="orders_by_buyer_status"),
    Index(collection="orders", keys=[("buyer", 1), ("carId", 1), ("createdAt", 1)], name="orders_by_buyer_car"),
    Index(collection="orders", keys=[("partner", 1), ("statusSlug", 1), ("buyer", 1)], name="orders_by_partner_buyer"),
    # An order's log in its order: a handful of entries, one per status change (steps, ops order show).
    Index(collection="order_logs", keys=[("orderId", 1), ("at", 1), ("_id", 1)], name="order_logs_of_order"),
    # promo codes are found by _id (the code)
    # A fair opening (domain.orders.openings): one entry per person and car, held by the index; the drawn
    # entries of a car, the late ones in arrival order, and positions in ranges as admission passes them.
    Index(
        collection="sale_entries",
        keys=[("carId", 1), ("person", 1)],
        name="sale_entries_one_per_person",
        options={"unique": True},
    ),
    Index(collection="sale_entries", keys=[("carId", 1), ("late", 1), ("arrival", 1)], name="sale_entries_by_arrival"),
    Index(collection="sale_entries", keys=[("carId", 1), ("position", 1)], name="sale_entries_by_position"),
    # The draw reads a car's entries in ranges of ids, each read a short command of its own.
    Index(collection="sale_entries", keys=[("carId", 1), ("_id", 1)], name="sale_entries_by_id"),
    # The admitted who have not ordered, counted every second of an opening: the keys of those alone, not
    # of every entry (a million at a nation's opening).
    Index(
        collection="sale_entries",
        keys=[("carId", 1), ("orderId", 1), ("admittedUntil", 1)],
        name="sale_entries_admitted_unused",
    ),
]

NEWEST_FIRST = [("createdAt", -1), ("_id", -1)]
LOG_ORDER = [("at", 1), ("_id", 1)]


def _orders() -> Collection[OrderRecord]:
    return collection("orders", OrderRecord)


def _order_logs() -> Collection[OrderLogRecord]:
    return collection("order_logs", OrderLogRecord)


def _order_buyers() -> Collection[Document]:
    return collection("order_buyers", Document)


def _sale_queues() -> Collection[SaleQueueRecord]:
    return collection("sale_queues", SaleQueueRecord)


def _sale_entries() -> Collection[SaleEntryRecord]:
    return collection("sale_entries", SaleEntryRecord)


def _promo_codes() -> Collection[PromoCodeRecord]:
    return collection("promo_codes", PromoCodeRecord)


# --- orders -----------------------------------------------------------------------------------------


def insert_order(order: OrderRecord, *, session: ClientSession) -> None:
    _orders().insert_one(order, session=session)


def ordered_ids(field: str, *, session: ClientSession | None = None) -> set[ObjectId]:
    """The cars or branches (`carId`, `branchId`) some order points at (a data set import keeps them).
    Reads every order once: an import is rare, and no request needs an index on these."""
    assert field in ("carId", "branchId"), field
    return set(_orders().distinct(field, session=session))


def order_events(*, session: ClientSession | None = None) -> int:
    """How many order log entries there are: every change of an order that moves stock (placed, cancelled,
    expired) logs one, so a data set export notes it and an import knows whether stock moved since.
    Counts the log once: an export or import is rare."""
    return _order_logs().count_documents({}, session=session)


def find_order(order_id: ObjectId) -> OrderRecord | None:
    return _orders().find_one({"_id": order_id})


def find_order_of_user(order_id: str, user_id: str) -> OrderRecord | None:
    """The order if it is the user's (another user's order is not found, exactly like an unknown one)."""
    return _orders().find_one({"_id": ObjectId(order_id), "userId": ObjectId(user_id)})


def find_order_by_contract_number(contract_numbers: list[str]) -> OrderRecord | None:
    return _orders().find_one({"contractNumber": {"$in": contract_numbers}})


# What a line of the caller's list shows of an order (its financing, ids and history are the detail's):
# every stored field a listed answer is computed from, so a line and the order's page agree.
LISTED_FIELDS = dict.fromkeys(
    (
        "userId",
        "contractNumber",
        "statusSlug",
        "price",
        "discount",
        "amountDue",
        "amountDueNow",
        "paidAmount",
        "deposit",
        "depositBy",
        "payBy",
        "paymentTypeId",
        "brandName",
        "carName",
        "createdAt",
    ),
    1,
)


def orders_of_user(user_id: str, *, offset: int, limit: int) -> FoundPage[OrderRecord]:
    """A page of the user's orders, newest first (their `LISTED_FIELDS`), and how many they have."""
    return find_page(
        _orders(), {"userId": ObjectId(user_id)}, NEWEST_FIRST, offset=offset, limit=limit, projection=LISTED_FIELDS
    )


def update_order(
    query: dict[str, Any], update: dict[str, Any], *, session: ClientSession | None = None
) -> OrderRecord | None:
    """One conditional update: the order as it is afterwards, or None when no order matches `query`."""
    return _orders().find_one_and_update(query, update, return_document=ReturnDocument.AFTER, session=session)


def late_orders(statuses: list[str], *, late: Document, limit: int) -> list[OrderRecord]:
    """Orders in one of `statuses` with no payment being charged that are `late` (an `$or` of deadlines,
    each branch served by its index: domain.orders.holds.late), oldest first."""
    query = {"statusSlug": {"$in": statuses}, "chargingPaymentId": None, **late}
    return list(_orders().find(query).sort([("createdAt", 1), ("_id", 1)]).limit(limit))


def take_charge(
    order_id: ObjectId,
    payment_id: str,
    amount: int,
    *,
    payable: list[str],
    due_now: Document,
    not_late: Document,
    now: datetime,
    claim_seconds: int,
) -> OrderRecord | None:
    """Give `payment_id` the order's charging claim if it is free, already this payment's, or older than
    `claim_seconds`, and the order is in a `payable` status with room for `amount` below `due_now` (an
    aggregation expression), and `not_late`; None when it does not match."""
    return update_order(
        {
            "_id": order_id,
            "statusSlug": {"$in": payable},
            "$expr": {"$lte": [{"$add": [{"$ifNull": ["$paidAmount", 0]}, amount]}, due_now]},
            "$or": [
                {"chargingPaymentId": None},
                {"chargingPaymentId": payment_id},
                {"chargingSince": {"$lte": now - timedelta(seconds=claim_seconds)}},
            ],
            "$and": [not_late],
        },
        {"$set": {"chargingPaymentId": payment_id, "chargingSince": now}},
    )


def release_charge(order_id: ObjectId, payment_id: str) -> None:
    """Free the charging claim, if `payment_id` still holds it."""
    _orders().update_one(
        {"_id": order_id, "chargingPaymentId": payment_id},
        {"$set": {"chargingPaymentId": None, "chargingSince": None}},
    )


# --- a person's orders (domain.orders.buyers) ------------------------------------------------------


def _of_person(buyer: str, user_id: ObjectId) -> Document:
    """The person's orders: those that name them, and the account's own (placed before it was verified)."""
    return {"$or": [{"buyer": buyer}, {"userId": user_id}]}


def guard_buyer(buyer: str, *, at: datetime, session: ClientSession) -> None:
    """Write a guard document in the order's transaction: two transactions that write the same guard
    conflict on it, so the second counts what the first inserted (domain.orders.buyers)."""
    _order_buyers().update_one(
        {"_id": buyer}, {"$inc": {"orders": 1}, "$set": {"at": at}}, upsert=True, session=session
    )


def count_orders_in(
    buyer: str, user_id: ObjectId, statuses: list[str], *, limit: int, session: ClientSession | None = None
) -> int:
    """How many of the person's orders are in one of `statuses` (counted up to `limit`)."""
    query = {"statusSlug": {"$in": statuses}, **_of_person(buyer, user_id)}
    return _orders().count_documents(query, limit=limit, session=session)


def count_orders_of_car(
    buyer: str,
    user_id: ObjectId,
    car_id: ObjectId,
    *,
    since: datetime,
    cancelled: str,
    limit: int,
    session: ClientSession | None = None,
) -> int:
    """How many of the person's orders of the car placed since `since` are not `cancelled`, or were
    cancelled for not being paid in time (`expiredAt`), counted up to `limit`."""
    query = {
        "carId": car_id,
        "createdAt": {"$gte": since},
        "$and": [{"$or": [{"statusSlug": {"$ne": cancelled}}, {"expiredAt": {"$ne": None}}]}],
        **_of_person(buyer, user_id),
    }
    return _orders().count_documents(query, limit=limit, session=session)


def count_unverified_orders_of_partner(
    partner: str, statuses: list[str], *, limit: int, session: ClientSession | None = None
) -> int:
    """How many orders placed through `partner` by unverified accounts are in one of `statuses` (up to `limit`)."""
    query = {"partner": partner, "statusSlug": {"$in": statuses}, "buyer": {"$regex": "^user:"}}
    return _orders().count_documents(query, limit=limit, session=session)


# --- order logs -------------------------------------------------------------------------------------


def insert_order_log(entry: OrderLogRecord, *, session: ClientSession) -> None:
    _order_logs().insert_one(entry, session=session)


def order_log(order_id: ObjectId) -> list[OrderLogRecord]:
    """The order's log, oldest first."""
    return list(_order_logs().find({"orderId": order_id}, sort=LOG_ORDER))


# --- promo codes ------------------------------------------------------------------------------------


def find_promo_code(code: str) -> PromoCodeRecord | None:
    """The promo code stored under this (normalized) code."""
    return _promo_codes().find_one({"_id": code})


def take_promo_use(code: str, user_id: ObjectId, usage_limit: int | None) -> PromoCodeRecord | None:
    """Count one use of the code by the user, if the user has not used it and a use is left (`usage_limit`
    as read; None for unlimited); the code as it is afterwards, or None when no use was taken."""
    condition: dict[str, Any] = {"_id": code, "usageLimit": usage_limit, "usedBy": {"$ne": user_id}}
    if usage_limit is not None:
        condition["used"] = {"$lt": usage_limit}
    return _promo_codes().find_one_and_update(
        condition, {"$inc": {"used": 1}, "$addToSet": {"usedBy": user_id}}, return_document=ReturnDocument.AFTER
    )


def give_back_promo_use(code: str, user_id: ObjectId, *, session: ClientSession | None = None) -> None:
    """Undo `take_promo_use` of the user (in the transaction that cancels their order, if any)."""
    _promo_codes().update_one(
        {"_id": code, "usedBy": user_id}, {"$inc": {"used": -1}, "$pull": {"usedBy": user_id}}, session=session
    )


def insert_promo_code(promo: PromoCodeRecord, *, session: ClientSession | None = None) -> bool:
    """Store a new promo code; False if the code exists."""
    try:
        _promo_codes().insert_one(promo, session=session)
    except DuplicateKeyError:
        return False
    return True


def all_promo_codes() -> list[PromoCodeRecord]:
    return list(_promo_codes().find({}, {"usedBy": 0}).sort("_id", 1))


def end_promo_code(code: str, at: datetime, *, changed_in: int, session: ClientSession) -> PromoCodeRecord | None:
    """End the code at `at` unless it ends sooner, stamped with the change version `changed_in`; the code
    after, or None if there is none."""
    return _promo_codes().find_one_and_update(
        {"_id": code},
        [{"$set": {"validTo": {"$min": [{"$ifNull": ["$validTo", at]}, at]}, "changedIn": changed_in}}],
        session=session,
        projection={"usedBy": 0},
        return_document=ReturnDocument.AFTER,
    )


# --- a fair opening's queue and entries (domain.orders.openings) -----------------------------------------


def ensure_sale_queue(queue: SaleQueueRecord) -> SaleQueueRecord:
    """The car's queue, created as `queue` when it has none (its seed and commitment are the first
    writer's: racing creators read back the same)."""
    found = _sale_queues().find_one_and_update(
        {"_id": queue["_id"]}, {"$setOnInsert": queue}, upsert=True, return_document=ReturnDocument.AFTER
    )
    assert found is not None  # an upsert always returns the document
    return found


def find_sale_queue(car_id: ObjectId) -> SaleQueueRecord | None:
    return _sale_queues().find_one({"_id": car_id})


def insert_sale_entry(entry: SaleEntryRecord) -> bool:
    """Insert the entry; False when the person already has one for the car (the unique index)."""
    try:
        _sale_entries().insert_one(entry)
    except DuplicateKeyError:
        return False
    return True


def find_sale_entry(car_id: ObjectId, person: str, *, session: ClientSession | None = None) -> SaleEntryRecord | None:
    return _sale_entries().find_one({"carId": car_id, "person": person}, session=session)


# Ids read per command by the draw: a million entries are fifty short reads, none of which has to hold them
# all within the client's timeout (MONGODB_TIMEOUT_MS).
DRAW_READ_BATCH = 20_000


def entry_ids_registered_before(car_id: ObjectId, moment: datetime) -> Iterator[list[str]]:
    """The ids of the car's entries registered before `moment` (the draw's closed list), in ascending
    order, DRAW_READ_BATCH a command: each range of ids starts after the last one read."""
    after: ObjectId | None = None
    while True:
        query: Document = {"carId": car_id, "registeredAt": {"$lt": moment}}
        if after is not None:
            query["_id"] = {"$gt": after}
        found = [
            entry["_id"]
            for entry in _sale_entries()
            .find(query, {"_id": 1})
            .sort("_id", 1)
            .hint([("carId", 1), ("_id", 1)])
            .limit(DRAW_READ_BATCH)
        ]
        if found:
            yield [str(entry_id) for entry_id in found]
        if len(found) < DRAW_READ_BATCH:
            return
        after = found[-1]


def count_sale_entries(car_id: ObjectId) -> int:
    return _sale_entries().count_documents({"carId": car_id})


def count_late_entries(car_id: ObjectId) -> int:
    """The car's entries registered at or after the draw's moment."""
    return _sale_entries().count_documents({"carId": car_id, "late": True})


def mark_drawn(car_id: ObjectId, *, drawn: int, digest: str, at: datetime, draw_at: datetime) -> bool:
    """Record the draw once, before its positions are written (`positioned` of them, from 0): whether this
    call did (a racing one computed the same order, of the same closed list: `digest`)."""
    result = _sale_queues().update_one(
        {"_id": car_id, "drawnAt": None},
        {
            "$set": {
                "drawnAt": at,
                "drawAt": draw_at,
                "drawn": drawn,
                "drawDigest": digest,
                "positioned": 0,
                "servingUpTo": 0,
                "admittedAt": at,
            }
        },
    )
    return result.modified_count == 1


def mark_draw_published(car_id: ObjectId) -> None:
    """draw.json is written (a run that finds this unset writes it again: the same file)."""
    _sale_queues().update_one({"_id": car_id}, {"$set": {"drawPublished": True}})


# Positions written per command: each command has the client's timeout (MONGODB_TIMEOUT_MS) to itself, so a
# draw of many entries on a busy server is many short writes, not one that runs out of time.
DRAW_WRITE_BATCH = 500


def write_drawn_positions(ordered_ids: list[str], *, after: int, count: int) -> None:
    """Give the drawn entries at positions after+1..after+count theirs (the order's ids from index `after`),
    in one command. Only an entry without a position is written, so a position is written once: writing a
    range again (a run that died before recording it, two runs at once) changes nothing."""
    _sale_entries().bulk_write(
        [
            UpdateOne({"_id": ObjectId(entry_id), "position": None}, {"$set": {"position": n}})
            for n, entry_id in enumerate(ordered_ids[after : after + count], after + 1)
        ],
        ordered=False,
    )


def record_positioned(car_id: ObjectId, positioned: int) -> int:
    """Positions 1..`positioned` of the draw are written: the queue's count raised to it, never lowered (a
    slower run's record of fewer changes nothing). The count now."""
    found = _sale_queues().find_one_and_update(
        {"_id": car_id},
        {"$max": {"positioned": positioned}},
        projection={"positioned": 1},
        return_document=ReturnDocument.AFTER,
    )
    return found.get("positioned", positioned) if found is not None else positioned


def place_late_entries(car_id: ObjectId, drawn: int) -> None:
    """Give the late entries without a position theirs: after the `drawn` ones, in arrival order."""
    _sale_entries().update_many(
        {"carId": car_id, "late": True, "position": None},
        [{"$set": {"position": {"$add": [drawn, "$arrival"]}}}],
    )


def take_admission_claim(car_id: ObjectId, holder: str, *, now: datetime, until: datetime) -> bool:
    """Take or renew the car's admission claim for `holder` until `until`, in one conditional update:
    whether `holder` has it now. A claim another holder has and that has not run out by `now` is kept."""
    held = {"$or": [{"claimedBy": holder}, {"claimedUntil": None}, {"claimedUntil": {"$lte": now}}]}
    result = _sale_queues().update_one({"_id": car_id, **held}, {"$set": {"claimedBy": holder, "claimedUntil": until}})
    return result.matched_count == 1


def release_admission_claim(car_id: ObjectId, holder: str) -> None:
    """Give the car's admission claim up, if `holder` still has it (the next run takes it at once)."""
    _sale_queues().update_one({"_id": car_id, "claimedBy": holder}, {"$set": {"claimedBy": None, "claimedUntil": None}})


def raise_serving(
    car_id: ObjectId, *, holder: str, after: int, up_to: int, at: datetime, session: ClientSession
) -> bool:
    """Raise the queue's `servingUpTo` from `after` to `up_to`, only for the claim's holder and only from
    the value it read (a run that lost its claim, or read a value since raised, raises nothing)."""
    result = _sale_queues().update_one(
        {"_id": car_id, "claimedBy": holder, "servingUpTo": after},
        {"$set": {"servingUpTo": up_to, "admittedAt": at}},
        session=session,
    )
    return result.modified_count == 1


def admit_entries(
    car_id: ObjectId, *, after: int, up_to: int, at: datetime, until: datetime, session: ClientSession
) -> int:
    """Admit the entries at positions after..up_to (not yet admitted) until `until`; how many were."""
    admitted = _sale_entries().update_many(
        {"carId": car_id, "position": {"$gt": after, "$lte": up_to}, "admittedUntil": None},
        {"$set": {"admittedAt": at, "admittedUntil": until}},
        session=session,
    )
    return admitted.modified_count


def count_admitted_unused(car_id: ObjectId, now: datetime) -> int:
    """Entries admitted, still within their admission, that have not ordered."""
    query = {"carId": car_id, "admittedUntil": {"$gt": now}, "orderId": None}
    return _sale_entries().count_documents(query)


def set_sold_out(car_id: ObjectId, sold_out: bool, *, holder: str) -> None:
    """Say whether the car is sold out (the admission claim's holder alone)."""
    _sale_queues().update_one({"_id": car_id, "claimedBy": holder}, {"$set": {"soldOut": sold_out}})


def last_position(car_id: ObjectId) -> int:
    """The highest position given in the car's queue (0: none yet)."""
    found = _sale_entries().find_one(
        {"carId": car_id, "position": {"$ne": None}}, {"position": 1}, sort=[("position", -1)]
    )
    return int(found.get("position") or 0) if found else 0


def set_pace(car_id: ObjectId, *, pace: float, credit: float, holder: str) -> None:
    """The admission's pace (people a second) and the fraction of a person carried to the next second
    (the admission claim's holder alone)."""
    _sale_queues().update_one({"_id": car_id, "claimedBy": holder}, {"$set": {"pace": pace, "credit": credit}})


def count_queue_feedback(car_id: ObjectId, *, busy: bool, slow: bool) -> None:
    """Count an admitted order's outcome on the car's queue (pacing's feedback; no transaction)."""
    counts = {"feedback.orders": 1, "feedback.busy": int(busy), "feedback.slow": int(slow)}
    _sale_queues().update_one({"_id": car_id}, {"$inc": counts})


def use_admission(entry_id: ObjectId, order_id: ObjectId, *, now: datetime, session: ClientSession) -> bool:
    """Spend the entry's admission on the order, in the order's transaction: whether it was unused and
    still open."""
    result = _sale_entries().update_one(
        {"_id": entry_id, "orderId": None, "admittedUntil": {"$gt": now}},
        {"$set": {"orderId": order_id}},
        session=session,
    )
    return result.modified_count == 1


def count_open_holds(car_id: ObjectId, holding: Document) -> int:
    """The car's orders matching `holding`: those whose unit may come back (`holds.may_come_back`)."""
    return _orders().count_documents({"carId": car_id, **holding})
