"""The dealer network's data: `regions`, `branches` and their `stock`; this module alone reads them.
Regions and the active branches are reference data cached per instance (`data.reference_cache`); stock
never is: `stock.quantity` is what a branch can still sell, taken by each order placed (`take_unit`) and
given back when the order is cancelled (`give_back_unit`), so availability is read live.

A row's units may be split into K documents (`buckets`, `python -m ops stock set … --buckets K`), so that
racing orders of a popular car do not all wait on one document (docs/DECISIONS.md, "Stock split into
buckets"): the `stock` row holds bucket 0 and `buckets: K`, `stock_buckets` holds buckets 1..K-1. An order
takes a unit from a non-empty bucket, starting at a random one, and gives it back to the bucket it came
from; every read (availability, a car's units, the data set, the change log) sees the sum."""

import random
from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection

from data.mongo import Index, collection
from data.reference_cache import reference_data
from domain.dealers.records import BranchRecord, RegionRecord, StockBucketRecord, StockRecord

# The reference data set replaces these whole (domain.dataset).
DATASET_COLLECTIONS = ("regions", "branches", "stock")

INDEXES = [
    Index(collection="regions", keys=[("slug", 1)], name="regions_slug_unique", options={"unique": True}),
    Index(collection="regions", keys=[("order", 1), ("_id", 1)], name="regions_order"),
    # The branches that sell a brand (multikey on brandIds).
    Index(collection="branches", keys=[("brandIds", 1), ("active", 1)], name="branches_brand"),
    # One row per branch, modification and color; serves "which of these branches have it".
    Index(
        collection="stock",
        keys=[("branchId", 1), ("modificationId", 1), ("colorId", 1)],
        name="stock_branch_modification_color_unique",
        options={"unique": True},
    ),
    # What is left of a car, all branches together (a fair opening's status: domain.orders.openings).
    Index(collection="stock", keys=[("carId", 1), ("quantity", 1)], name="stock_by_car"),
    # A split row's other buckets (1..K-1), one document each; by row for the data set's import.
    Index(
        collection="stock_buckets",
        keys=[("branchId", 1), ("modificationId", 1), ("colorId", 1), ("bucket", 1)],
        name="stock_buckets_row_bucket_unique",
        options={"unique": True},
    ),
    Index(collection="stock_buckets", keys=[("carId", 1), ("quantity", 1)], name="stock_buckets_by_car"),
    Index(collection="stock_buckets", keys=[("stockId", 1)], name="stock_buckets_of_row"),
    Index(
        collection="stock_changes",
        keys=[("branchId", 1), ("modificationId", 1), ("at", -1)],
        name="stock_changes_by_row",
    ),
]


IN_STOCK = {"quantity": {"$gt": 0}}


def _regions() -> Collection[RegionRecord]:
    return collection("regions", RegionRecord)


def _branches() -> Collection[BranchRecord]:
    return collection("branches", BranchRecord)


def _stock() -> Collection[StockRecord]:
    return collection("stock", StockRecord)


def _stock_buckets() -> Collection[StockBucketRecord]:
    return collection("stock_buckets", StockBucketRecord)


@reference_data
def active_branches() -> list[BranchRecord]:
    return list(_branches().find({"active": True}))


@reference_data
def all_regions() -> list[RegionRecord]:
    return list(_regions().find({}).sort([("order", 1), ("_id", 1)]))


def branches_of_brand(brand_id: ObjectId) -> list[BranchRecord]:
    return [branch for branch in active_branches() if brand_id in branch.get("brandIds", [])]


def find_branch(branch_id: str) -> BranchRecord | None:
    """The branch if it is active."""
    return _branches().find_one({"_id": ObjectId(branch_id), "active": True})


def find_region(region_id: ObjectId) -> RegionRecord | None:
    """The region, from the cached list; one created since is read from the database."""
    found = next((region for region in all_regions() if region["_id"] == region_id), None)
    return found or _regions().find_one({"_id": region_id})


def branches_with_stock(branch_ids: list[ObjectId], modification_id: ObjectId, color_id: ObjectId) -> set[ObjectId]:
    """Which of the branches have at least one car of this modification and color (in any bucket: a split
    row whose bucket 0 is empty is looked up in its other buckets, one more read)."""
    rows = _stock().find(
        {"branchId": {"$in": branch_ids}, "modificationId": modification_id, "colorId": color_id},
        {"branchId": 1, "quantity": 1, "buckets": 1},
    )
    stocked: set[ObjectId] = set()
    split: list[ObjectId] = []
    for row in rows:
        if row.get("quantity", 0) > 0:
            stocked.add(row["branchId"])
        elif row.get("buckets", 1) > 1:
            split.append(row["branchId"])
    if split:
        found = _stock_buckets().find(
            {
                "branchId": {"$in": split},
                "modificationId": modification_id,
                "colorId": color_id,
                "quantity": {"$gt": 0},
            },
            {"branchId": 1},
        )
        stocked |= {doc["branchId"] for doc in found}
    return stocked


class Stocked(NamedTuple):
    """What an order reads of its branch's row before its transaction."""

    units: bool  # at least one unit left, in any bucket
    buckets: int  # how many documents the row's units are split into (1: not split)


def stock_of(branch_id: ObjectId, modification_id: ObjectId, color_id: ObjectId) -> Stocked:
    """Whether the branch has a unit of this modification and color, and in how many buckets."""
    row = _stock().find_one(
        {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id},
        {"quantity": 1, "buckets": 1},
    )
    if row is None:
        return Stocked(units=False, buckets=1)
    buckets = int(row.get("buckets", 1))
    units = row.get("quantity", 0) > 0 or bool(
        buckets > 1 and branches_with_stock([branch_id], modification_id, color_id)
    )
    return Stocked(units=units, buckets=buckets)


class StockChange(TypedDict):
    """An operator's stock change (`stock_changes`): who set which row's quantity, and why."""

    _id: ObjectId
    branchId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    colorId: ObjectId
    before: int
    after: int
    buckets: int  # the documents the row's units are split into after the change
    by: str
    cause: str
    at: datetime


def find_any_branch(branch_id: ObjectId) -> BranchRecord | None:
    """The branch, active or not."""
    return _branches().find_one({"_id": branch_id})


def shares(quantity: int, buckets: int) -> list[int]:
    """`quantity` units spread over `buckets` documents, as evenly as they go (bucket 0 first)."""
    return [quantity // buckets + (1 if n < quantity % buckets else 0) for n in range(buckets)]


def set_stock(
    branch_id: ObjectId,
    car_id: ObjectId,
    modification_id: ObjectId,
    color_id: ObjectId,
    quantity: int,
    *,
    buckets: int,
    asked: int,
    changed_in: int,
    session: ClientSession,
) -> int:
    """Set how many units of a modification and color a branch can still sell (the row is created if
    missing), spread over `buckets` documents (`asked` for: kept for its next change), stamped with the
    change version `changed_in`; the quantity before, all buckets together (0 for a new row)."""
    key = {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id}
    before = units_of_row(key, session=session)
    row = _stock().find_one_and_update(
        key,
        {"$set": {"carId": car_id, "changedIn": changed_in, "bucketsAsked": asked}},
        upsert=True,
        return_document=ReturnDocument.AFTER,
        session=session,
    )
    assert row is not None  # an upsert always returns the document
    _spread(row, quantity, buckets, session=session)
    return before


def units_of_row(key: dict[str, Any], *, session: ClientSession | None = None) -> int:
    """A row's units, every bucket together."""
    row = _stock().find_one(key, {"quantity": 1}, session=session)
    split = _stock_buckets().find(key, {"quantity": 1}, session=session)
    return (int(row.get("quantity", 0)) if row else 0) + sum(int(doc.get("quantity", 0)) for doc in split)


def buckets_asked(branch_id: ObjectId, modification_id: ObjectId, color_id: ObjectId) -> int | None:
    """How many documents the row's last change asked its units to be split into (None: no row or never
    asked; a row split by fewer units than that has fewer)."""
    row = _stock().find_one({"branchId": branch_id, "modificationId": modification_id, "colorId": color_id})
    asked = row.get("bucketsAsked", row.get("buckets")) if row else None
    return int(asked) if asked is not None else None


def _spread(row: StockRecord, quantity: int, buckets: int, *, session: ClientSession) -> None:
    """Put `quantity` units into the row's `buckets` documents (its other buckets removed)."""
    key = {"branchId": row["branchId"], "modificationId": row["modificationId"], "colorId": row["colorId"]}
    parts = shares(quantity, buckets)
    if buckets > 1:
        first: dict[str, Any] = {"$set": {"quantity": parts[0], "buckets": buckets}}
    else:
        first = {"$set": {"quantity": parts[0]}, "$unset": {"buckets": ""}}
    _stock().update_one({"_id": row["_id"]}, first, session=session)
    _stock_buckets().delete_many({**key, "bucket": {"$gte": buckets}}, session=session)
    for n, units in enumerate(parts[1:], 1):
        _stock_buckets().update_one(
            {**key, "bucket": n},
            {"$set": {"quantity": units, "carId": row.get("carId"), "stockId": row["_id"]}},
            upsert=True,
            session=session,
        )


def record_stock_change(change: StockChange, *, session: ClientSession) -> None:
    collection("stock_changes", StockChange).insert_one(change, session=session)


def take_unit(
    branch_id: ObjectId,
    modification_id: ObjectId,
    color_id: ObjectId,
    *,
    buckets: int = 1,
    session: ClientSession,
) -> int | None:
    """Take one unit of the branch's stock of this modification and color, if it has one (a conditional
    decrement, in the caller's transaction); the bucket it was taken from (0: the row itself), or None
    when none is left. A split row's buckets are tried from a random one on, so racing buyers spread over
    its documents instead of all waiting on the first."""
    key = {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id}
    start = random.randrange(buckets) if buckets > 1 else 0  # noqa: S311 (spreading load, not a secret)
    for n in range(buckets):
        bucket = (start + n) % buckets
        target = _stock() if bucket == 0 else _stock_buckets()
        query = {**key, "quantity": {"$gt": 0}} | ({"bucket": bucket} if bucket else {})
        taken = target.find_one_and_update(query, {"$inc": {"quantity": -1}}, {"_id": 1}, session=session)
        if taken is not None:
            return bucket
    return None


def give_back_unit(
    branch_id: ObjectId,
    car_id: ObjectId,
    modification_id: ObjectId,
    color_id: ObjectId,
    *,
    bucket: int = 0,
    session: ClientSession,
) -> None:
    """Put one unit back into the branch's stock, into the bucket it was taken from, in the caller's
    transaction (the row itself when that bucket is gone since: an operator set the row again; the row is
    recreated if an operator removed it meanwhile: the car is still at the branch)."""
    key = {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id}
    if (
        bucket
        and _stock_buckets()
        .update_one({**key, "bucket": bucket}, {"$inc": {"quantity": 1}}, session=session)
        .matched_count
    ):
        return
    _stock().update_one(key, {"$inc": {"quantity": 1}, "$setOnInsert": {"carId": car_id}}, upsert=True, session=session)


def units_of_car(car_id: ObjectId) -> int:
    """The units of the car in stock, every branch, modification, color and bucket together."""
    match = {"$match": {"carId": car_id, "quantity": {"$gt": 0}}}
    total = {"$group": {"_id": None, "units": {"$sum": "$quantity"}}}
    units = 0
    for stored in (_stock(), _stock_buckets()):
        found: list[Any] = list(stored.aggregate([match, total]))
        units += int(found[0]["units"]) if found else 0
    return units


# --- the data set's view of the rows (domain.dataset) ----------------------------------------------------


def with_split_units(rows: list[Any], *, session: ClientSession | None = None) -> list[Any]:
    """Stock rows as the data set holds them: each with its units of every bucket in `quantity`."""
    split = {row["_id"] for row in rows if row.get("buckets", 1) > 1}
    if not split:
        return rows
    more: dict[ObjectId, int] = {}
    for doc in _stock_buckets().find({"stockId": {"$in": list(split)}}, {"stockId": 1, "quantity": 1}, session=session):
        more[doc["stockId"]] = more.get(doc["stockId"], 0) + int(doc.get("quantity", 0))
    return [{**row, "quantity": row.get("quantity", 0) + more.get(row["_id"], 0)} for row in rows]


def respread_rows(written: Iterable[Any], removed: Iterable[Any], *, session: ClientSession) -> None:
    """After the data set wrote these rows whole (`quantity` every unit) and removed those: drop their
    buckets, and spread each written row's units over its buckets again."""
    written, removed = list(written), list(removed)
    if written or removed:  # a row's key may have moved: its buckets are written again under the new one
        _stock_buckets().delete_many({"stockId": {"$in": written + removed}}, session=session)
    for row in _stock().find({"_id": {"$in": written}, "buckets": {"$gt": 1}}, session=session):
        _spread(row, int(row.get("quantity", 0)), int(row["buckets"]), session=session)
