"""Data access for car models (`cars`, with modifications and colors embedded)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bson import ObjectId

from catalog.query import SortSpec
from common.db import get_db

Car = dict[str, Any]

# What a list item needs: never the embedded specs and info blocks.
LIST_FIELDS = {
    "slug": 1,
    "name": 1,
    "brandId": 1,
    "bodyTypeId": 1,
    "powertrainId": 1,
    "priceFrom": 1,
    "image": 1,
    "year": 1,
    "isNew": 1,
    "createdAt": 1,
}
DETAIL_EXCLUDED = {"info": 0, "modifications.specs": 0}


def find_page(query: dict[str, Any], sort: SortSpec, *, offset: int, limit: int) -> tuple[list[Car], int]:
    """One page of matches and the number of all matches; limit 0 only counts."""
    cars = get_db().cars
    total = cars.count_documents(query)
    if limit == 0 or offset >= total:
        return [], total
    return list(cars.find(query, LIST_FIELDS).sort(sort).skip(offset).limit(limit)), total


def find_many(car_ids: Iterable[ObjectId]) -> dict[ObjectId, Car]:
    """List-item fields of the given cars, by id; unknown ids are left out."""
    return {car["_id"]: car for car in get_db().cars.find({"_id": {"$in": list(car_ids)}}, LIST_FIELDS)}


def find_detail(car_id: str) -> Car | None:
    return get_db().cars.find_one({"_id": ObjectId(car_id)}, DETAIL_EXCLUDED)


def find_fields(car_id: str, *fields: str) -> Car | None:
    return get_db().cars.find_one({"_id": ObjectId(car_id)}, dict.fromkeys(fields, 1))


def exists(car_id: ObjectId) -> bool:
    return get_db().cars.count_documents({"_id": car_id}, limit=1) > 0


def count_by_brand(brand_id: ObjectId) -> int:
    return get_db().cars.count_documents({"brandId": brand_id})


def price_range() -> dict[str, int]:
    """The lowest and highest `priceFrom` in the catalog (0 and 0 when it is empty)."""
    cars = get_db().cars
    cheapest = cars.find_one({}, {"priceFrom": 1}, sort=[("priceFrom", 1), ("_id", 1)])
    dearest = cars.find_one({}, {"priceFrom": 1}, sort=[("priceFrom", -1), ("_id", -1)])
    return {"min": (cheapest or {}).get("priceFrom", 0), "max": (dearest or {}).get("priceFrom", 0)}
