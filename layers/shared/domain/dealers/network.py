"""Where a car can be bought: the regions and the active branches of a brand, a branch found or 404, which
branches have a unit in stock. Regions and active branches are cached per reference-data lifetime by the
store (`data.reference_cache`); a function whose routes read them preloads `REFERENCE_DATA` for a SnapStart
restore. Stock is read on every request."""

from __future__ import annotations

from bson import ObjectId

from core.errors import NotFound
from domain.dealers import store
from domain.dealers.records import BranchRecord, RegionRecord

REFERENCE_DATA = (store.active_branches, store.all_regions)


def regions() -> list[RegionRecord]:
    """Every region, in its order."""
    return store.all_regions()


def region(region_id: ObjectId) -> RegionRecord | None:
    return store.find_region(region_id)


def branches_of_brand(brand_id: ObjectId) -> list[BranchRecord]:
    """The active branches that sell the brand."""
    return store.branches_of_brand(brand_id)


def branch(branch_id: str) -> BranchRecord:
    """The branch if it is active."""
    found = store.find_branch(branch_id)
    if found is None:
        raise NotFound("BRANCH_NOT_FOUND")
    return found


def branches_with_stock(branch_ids: list[ObjectId], modification_id: ObjectId, color_id: ObjectId) -> set[ObjectId]:
    """Which of the branches have at least one car of this modification and color."""
    return store.branches_with_stock(branch_ids, modification_id, color_id)
