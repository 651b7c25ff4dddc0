"""The dealer network's data: `regions`, `branches` and their `stock`; this module alone reads them.
Regions and the active branches are reference data cached per instance (`data.reference_cache`); stock
never is."""

from __future__ import annotations

from bson import ObjectId
from pymongo.collection import Collection

from data.mongo import Index, collection
from data.reference_cache import reference_data
from domain.dealers.records import BranchRecord, RegionRecord, StockRecord

INDEXES = [
    Index("regions", [("slug", 1)], "regions_slug_unique", {"unique": True}),
    Index("regions", [("order", 1), ("_id", 1)], "regions_order"),
    # The branches that sell a brand (multikey on brandIds).
    Index("branches", [("brandIds", 1), ("active", 1)], "branches_brand"),
    # One row per branch, modification and color; serves "which of these branches have it".
    Index(
        "stock",
        [("branchId", 1), ("modificationId", 1), ("colorId", 1)],
        "stock_branch_modification_color_unique",
        {"unique": True},
    ),
]


def _regions() -> Collection[RegionRecord]:
    return collection("regions", RegionRecord)


def _branches() -> Collection[BranchRecord]:
    return collection("branches", BranchRecord)


def _stock() -> Collection[StockRecord]:
    return collection("stock", StockRecord)


@reference_data
def _active_branches() -> list[BranchRecord]:
    return list(_branches().find({"active": True}))


@reference_data
def _all_regions() -> list[RegionRecord]:
    return list(_regions().find({}).sort([("order", 1), ("_id", 1)]))


def branches_of_brand(brand_id: ObjectId) -> list[BranchRecord]:
    return [branch for branch in _active_branches() if brand_id in branch.get("brandIds", [])]


def find_branch(branch_id: str) -> BranchRecord | None:
    """The branch if it is active."""
    return _branches().find_one({"_id": ObjectId(branch_id), "active": True})


def regions(region_ids: list[ObjectId]) -> list[RegionRecord]:
    """These regions in their order."""
    wanted = set(region_ids)
    return [region for region in _all_regions() if region["_id"] in wanted]


def find_region(region_id: ObjectId) -> RegionRecord | None:
    """The region, from the cached list; one created since is read from the database."""
    found = next((region for region in _all_regions() if region["_id"] == region_id), None)
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
