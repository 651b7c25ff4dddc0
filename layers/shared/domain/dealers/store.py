"""Data access for the dealer network: regions, branches and their stock. Regions and the active branches
are reference data cached per instance (`data.reference_cache`); stock never is."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from data.mongo import get_db
from data.reference_cache import reference_data

Doc = dict[str, Any]


@reference_data
def _active_branches() -> list[Doc]:
    return list(get_db().branches.find({"active": True}))


@reference_data
def _all_regions() -> list[Doc]:
    return list(get_db().regions.find({}).sort([("order", 1), ("_id", 1)]))


def branches_of_brand(brand_id: ObjectId) -> list[Doc]:
    return [branch for branch in _active_branches() if brand_id in branch.get("brandIds", [])]


def find_branch(branch_id: str) -> Doc | None:
    return get_db().branches.find_one({"_id": ObjectId(branch_id), "active": True})


def regions(region_ids: list[ObjectId]) -> list[Doc]:
    """These regions in their order."""
    wanted = set(region_ids)
    return [region for region in _all_regions() if region["_id"] in wanted]


def find_region(region_id: ObjectId) -> Doc | None:
    """The region, from the cached list; one created since is read from the database."""
    found = next((region for region in _all_regions() if region["_id"] == region_id), None)
    return found or get_db().regions.find_one({"_id": region_id})


def branches_with_stock(branch_ids: list[ObjectId], modification_id: ObjectId, color_id: ObjectId) -> set[ObjectId]:
    """Which of the branches have at least one car of this modification and color."""
    found = get_db().stock.find(
        {
            "branchId": {"$in": branch_ids},
            "modificationId": modification_id,
            "colorId": color_id,
            "quantity": {"$gt": 0},
        },
        {"branchId": 1},
    )
    return {doc["branchId"] for doc in found}
