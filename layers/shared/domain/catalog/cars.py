"""Data access for car models (`cars`, with modifications and colors embedded)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from core.errors import NotFound
from data import mongo as db
from data.mongo import get_db
from domain.catalog.query import SortSpec

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


def find_page(
    query: dict[str, Any], sort: SortSpec, *, offset: int, limit: int, collation: dict[str, Any] | None = None
) -> tuple[list[Car], int]:
    """One page of matches and the number of all matches; limit 0 only counts."""
    return db.find_page(
        get_db().cars, query, sort, offset=offset, limit=limit, projection=LIST_FIELDS, collation=collation
    )


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


@dataclass(frozen=True)
class Choice:
    """A car with the modification and color a client chose of it."""

    car: Car
    modification: dict[str, Any]
    color: dict[str, Any]


def _embedded(items: list[dict[str, Any]], item_id: str) -> dict[str, Any] | None:
    return next((item for item in items if item.get("_id") == ObjectId(item_id)), None)


def chosen(car_id: str, modification_id: str, color_id: str, *, brand_id: str | None = None) -> Choice:
    """The choice, checked to belong together (the one rule orders and dictionaries share): 404 naming
    the first id that does not, the car, its brand, the modification or the color."""
    car = find_detail(car_id)
    if car is None:
        raise NotFound("Car not found")
    if brand_id is not None and car["brandId"] != ObjectId(brand_id):
        raise NotFound("This car is not a model of this brand")
    modification = _embedded(car.get("modifications", []), modification_id)
    if modification is None:
        raise NotFound("Modification not found for this car")
    color = _embedded(car.get("colors", []), color_id)
    if color is None:
        raise NotFound("Color not found for this car")
    return Choice(car=car, modification=modification, color=color)
