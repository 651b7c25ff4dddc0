"""Data access for brands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bson import ObjectId

from common.catalog.query import SortSpec, contains
from common.db import get_db

Brand = dict[str, Any]


def find_all(*, search: str | None, sort: SortSpec, collation: dict[str, Any] | None = None) -> list[Brand]:
    query = {"name": contains(search)} if search else {}
    return list(get_db().brands.find(query, collation=collation).sort(sort))


def find_by_id(brand_id: str) -> Brand | None:
    return get_db().brands.find_one({"_id": ObjectId(brand_id)})


def names(brand_ids: Iterable[ObjectId]) -> dict[ObjectId, str]:
    found = get_db().brands.find({"_id": {"$in": list(set(brand_ids))}}, {"name": 1})
    return {brand["_id"]: brand["name"] for brand in found}


def ids_named(search: str) -> list[ObjectId]:
    """Brands whose name contains the search term (case-insensitive)."""
    return [brand["_id"] for brand in get_db().brands.find({"name": contains(search)}, {"_id": 1})]
