"""Data access for brands. Every brand, in the default order, is reference data cached per instance
(`data.reference_cache`): a few dozen documents that operators rarely change."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bson import ObjectId

from data.mongo import get_db
from data.reference_cache import reference_data
from domain.catalog.query import SortSpec, contains

Brand = dict[str, Any]
DEFAULT_ORDER = [("order", 1), ("_id", 1)]


@reference_data
def all_brands() -> dict[ObjectId, Brand]:
    """Every brand by id, in the default order (treat as read-only: it is shared between requests)."""
    return {brand["_id"]: brand for brand in get_db().brands.find({}).sort(DEFAULT_ORDER)}


def find_all(*, search: str | None, sort: SortSpec, collation: dict[str, Any] | None = None) -> list[Brand]:
    if not search and sort == DEFAULT_ORDER and collation is None:
        return list(all_brands().values())
    query = {"name": contains(search)} if search else {}
    return list(get_db().brands.find(query, collation=collation).sort(sort))


def find_by_id(brand_id: str) -> Brand | None:
    """The brand, from the cached list; one just created is read from the database."""
    wanted = ObjectId(brand_id)
    return all_brands().get(wanted) or get_db().brands.find_one({"_id": wanted})


def names(brand_ids: Iterable[ObjectId]) -> dict[ObjectId, str]:
    cached, wanted = all_brands(), set(brand_ids)
    found = {brand_id: cached[brand_id]["name"] for brand_id in wanted if brand_id in cached}
    if missing := wanted - found.keys():  # created since the list was cached
        found.update((brand["_id"], brand["name"]) for brand in get_db().brands.find({"_id": {"$in": list(missing)}}))
    return found


def ids_named(search: str) -> list[ObjectId]:
    """Brands whose name contains the search term (case-insensitive)."""
    return [brand["_id"] for brand in get_db().brands.find({"name": contains(search)}, {"_id": 1})]
