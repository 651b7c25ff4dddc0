"""The dealer network's data: `regions`, `branches` and their `stock`; this module alone reads them.
Regions and the active branches are reference data cached per instance (`data.reference_cache`); stock
never is: `stock.quantity` is what a branch can still sell, taken by each order placed (`take_unit`) and
given back when the order is cancelled (`give_back_unit`), so availability is read live."""

from datetime import datetime
from typing import Any, TypedDict

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection

from data.mongo import Index, collection
from data.reference_cache import reference_data
from domain.dealers.records import BranchRecord, RegionRecord, StockRecord

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
    Index(
        collection="stock_changes",
        keys=[("branchId", 1), ("modificationId", 1), ("at", -1)],
        name="stock_changes_by_row",
    ),
]


def _regions() -> Collection[RegionRecord]:
    return collection("regions", RegionRecord)


def _branches() -> Collection[BranchRecord]:
    return collection("branches", BranchRecord)


def _stock() -> Collection[StockRecord]:
    return collection("stock", StockRecord)


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
    """Which of the branches have at least one car of this modification and color."""
    found = _stock().find(
        {
            "branchId": {"$in": branch_ids},
            "modificationId": modification_id,
            "colorId": color_id,
            "quantity": {"$gt": 0},
        },
        {"branchId": 1},
    )
    return {doc["branchId"] for doc in found}


class StockChange(TypedDict):
    """An operator's stock change (`stock_changes`): who set which row's quantity, and why."""

    _id: ObjectId
    branchId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    colorId: ObjectId
    before: int
    after: int
    by: str
    cause: str
    at: datetime


def find_any_branch(branch_id: ObjectId) -> BranchRecord | None:
    """The branch, active or not."""
    return _branches().find_one({"_id": branch_id})


def set_stock(
    branch_id: ObjectId,
    car_id: ObjectId,
    modification_id: ObjectId,
    color_id: ObjectId,
    quantity: int,
    *,
    changed_in: int,
    session: ClientSession,
) -> int:
    """Set how many units of a modification and color a branch can still sell (the row is created if
    missing), stamped with the change version `changed_in`; the quantity before (0 for a new row)."""
    key = {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id}
    update = {"$set": {"quantity": quantity, "carId": car_id, "changedIn": changed_in}}
    before = _stock().find_one_and_update(key, update, upsert=True, session=session)
    return 0 if before is None else int(before.get("quantity", 0))


def record_stock_change(change: StockChange, *, session: ClientSession) -> None:
    collection("stock_changes", StockChange).insert_one(change, session=session)


def take_unit(
    branch_id: ObjectId, modification_id: ObjectId, color_id: ObjectId, *, session: ClientSession
) -> StockRecord | None:
    """Take one unit of the branch's stock of this modification and color, if it has one (a conditional
    decrement, in the caller's transaction); the stock row as it is afterwards, or None when none is left."""
    return _stock().find_one_and_update(
        {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id, "quantity": {"$gt": 0}},
        {"$inc": {"quantity": -1}},
        return_document=ReturnDocument.AFTER,
        session=session,
    )


def give_back_unit(
    branch_id: ObjectId, car_id: ObjectId, modification_id: ObjectId, color_id: ObjectId, *, session: ClientSession
) -> None:
    """Put one unit back into the branch's stock, in the caller's transaction (the row is recreated if an
    operator removed it meanwhile: the car is still at the branch)."""
    _stock().update_one(
        {"branchId": branch_id, "modificationId": modification_id, "colorId": color_id},
        {"$inc": {"quantity": 1}, "$setOnInsert": {"carId": car_id}},
        upsert=True,
        session=session,
    )


def units_of_car(car_id: ObjectId) -> int:
    """The units of the car in stock, every branch, modification and color together."""
    match = {"$match": {"carId": car_id, "quantity": {"$gt": 0}}}
    total = {"$group": {"_id": None, "units": {"$sum": "$quantity"}}}
    found: list[Any] = list(_stock().aggregate([match, total]))
    return int(found[0]["units"]) if found else 0
