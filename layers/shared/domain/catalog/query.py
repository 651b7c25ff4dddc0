"""Pure query building for the catalog: filters, sort orders and id lists, no I/O (unit-tested)."""

from __future__ import annotations

from typing import Any, Literal

from bson import ObjectId
from bson.errors import InvalidId

from core.errors import InvalidInput
from core.locale import LOCALES, Locale
from domain.catalog.search import matching

CarSort = Literal["new", "name", "-name", "id", "-id", "price", "-price"]
BrandSort = Literal["order", "name", "-name", "id", "-id"]
SortSpec = list[tuple[str, int]]
MAX_IDS = 50


def parse_ids(value: str | None, field: str) -> list[ObjectId]:
    """`"id1,id2"` as ObjectIds; blanks are skipped, anything else malformed is a 400 naming the field."""
    if not value:
        return []
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if len(parts) > MAX_IDS:
        raise InvalidInput.field(field, "TOO_MANY_IDS", max=MAX_IDS)
    ids = []
    for part in parts:
        try:  # made once: `ObjectId.is_valid` made one to check, then it was made again
            ids.append(ObjectId(part))
        except InvalidId:
            raise InvalidInput.field(field, "INVALID_ID") from None
    return list(dict.fromkeys(ids))


# A car the data set dropped while orders still name it is kept, deactivated: hidden from buyers.
# (Cars stored before the flag have none: they are active.) The car list indexes hold the field.
ACTIVE_CAR: dict[str, Any] = {"active": {"$ne": False}}


def car_filter(
    *,
    brand_ids: list[ObjectId],
    body_type_ids: list[ObjectId],
    min_price: float | None,
    max_price: float | None,
    search: str | None,
) -> dict[str, Any]:
    """The cars query. `min`/`max` bound `priceFrom`, the price the list shows; `search` finds the cars
    whose name (any locale) or brand's name has words starting with the term's (`domain.catalog.search`).
    A range with `min` above `max` matches nothing, like any empty range (OpenAPI cannot say min <= max,
    so it is no error)."""
    query: dict[str, Any] = dict(ACTIVE_CAR)
    if brand_ids:
        query["brandId"] = {"$in": brand_ids}
    if body_type_ids:
        query["bodyTypeId"] = {"$in": body_type_ids}
    price = {op: bound for op, bound in (("$gte", min_price), ("$lte", max_price)) if bound is not None}
    if price:
        query["priceFrom"] = price
    if search:
        query |= matching(search)
    return query


# Names sort case-insensitively ("Captiva" before "CS55 Plus"): strength 2 ignores case, not letters or
# accents. "en" is ICU's root order, which sorts Latin (English, Uzbek) and Cyrillic (Russian) names
# alphabetically; MongoDB has no Uzbek collation, and mongoeco (the fallback) knows only "en".
# The name indexes declare the same collation, so the sorts use them.
NAME_COLLATION: dict[str, Any] = {"locale": "en", "strength": 2}


def car_collation(sort: CarSort) -> dict[str, Any] | None:
    """The collation a car sort needs: only the name orders compare strings."""
    return NAME_COLLATION if sort in ("name", "-name") else None


def brand_collation(sort: BrandSort) -> dict[str, Any] | None:
    return NAME_COLLATION if sort in ("name", "-name") else None


def _car_sorts(locale: Locale) -> dict[str, SortSpec]:
    return {
        "new": [("createdAt", -1), ("_id", -1)],
        "name": [(f"name.{locale}", 1), ("_id", 1)],
        "-name": [(f"name.{locale}", -1), ("_id", -1)],
        "id": [("_id", 1)],
        "-id": [("_id", -1)],
        "price": [("priceFrom", 1), ("_id", 1)],
        "-price": [("priceFrom", -1), ("_id", -1)],
    }


# Built once per locale and shared (docs/DECISIONS.md, "Import-time work"); pymongo copies a sort it is given.
CAR_SORTS_BY_LOCALE: dict[Locale, dict[str, SortSpec]] = {locale: _car_sorts(locale) for locale in LOCALES}


def car_sort(sort: CarSort, locale: Locale) -> SortSpec:
    """Every order ends with `_id` (in the main key's direction), so equal keys keep a stable order."""
    return CAR_SORTS_BY_LOCALE[locale][sort]


def brand_sort(sort: BrandSort) -> SortSpec:
    orders: dict[str, SortSpec] = {
        "order": [("order", 1), ("_id", 1)],
        "name": [("name", 1), ("_id", 1)],
        "-name": [("name", -1), ("_id", -1)],
        "id": [("_id", 1)],
        "-id": [("_id", -1)],
    }
    return orders[sort]
