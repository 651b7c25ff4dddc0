"""Data access for the dealer network: regions, branches and their stock."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from common.db import get_db

Doc = dict[str, Any]


def branches_of_brand(brand_id: ObjectId) -> list[Doc]:
    return list(get_db().branches.find({"brandIds": brand_id, "active": True}))


def find_branch(branch_id: str) -> Doc | None:
    return get_db().branches.find_one({"_id": ObjectId(branch_id), "active": True})


def regions(region_ids: list[ObjectId]) -> list[Doc]:
    return list(get_db().regions.find({"_id": {"$in": region_ids}}).sort([("order", 1), ("_id", 1)]))


def find_region(region_id: ObjectId) -> Doc | None:
    return get_db().regions.find_one({"_id": region_id})


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
