"""The catalog's brands and the reference lists its filters offer (body types, powertrains), and the price
range of the cars on sale: a brand found or 404, the lists in their default order. The store caches the
lists per reference-data lifetime (`data.reference_cache`); a function whose routes read them preloads
them for a SnapStart restore: the brands alone (`BRAND_NAMES`, what names a brand), or all (`REFERENCE_DATA`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bson import ObjectId

from core.errors import NotFound
from domain.catalog import store
from domain.catalog.query import SortSpec
from domain.catalog.records import BrandRecord, CarRecord, OptionRecord

BRAND_NAMES = (store.all_brands,)
REFERENCE_DATA = (*BRAND_NAMES, store.body_types, store.powertrains)


def brand(brand_id: str | ObjectId) -> BrandRecord:
    found = store.find_brand(brand_id)
    if found is None:
        raise NotFound("BRAND_NOT_FOUND")
    return found


def brand_of(car: CarRecord) -> BrandRecord | None:
    """The car's brand (none when the brand was removed since: the car is shown without it)."""
    return store.find_brand(car["brandId"])


def brands(*, search: str | None, sort: SortSpec, collation: dict[str, Any] | None = None) -> list[BrandRecord]:
    """The brands whose name's words start with the search's (all without one), in this order."""
    return store.find_brands(search=search, sort=sort, collation=collation)


def brand_names(brand_ids: Iterable[ObjectId]) -> dict[ObjectId, str]:
    """The names of these brands, by id; unknown ids are left out."""
    return store.brand_names(brand_ids)


def cars_of_brand(brand_id: ObjectId) -> int:
    """How many of the brand's cars are on sale."""
    return store.count_cars_of_brand(brand_id)


def body_types() -> list[OptionRecord]:
    return store.body_types()


def powertrains() -> list[OptionRecord]:
    return store.powertrains()


def body_type(body_type_id: ObjectId | None) -> OptionRecord | None:
    return store.find_body_type(body_type_id)


def powertrain(powertrain_id: ObjectId | None) -> OptionRecord | None:
    return store.find_powertrain(powertrain_id)


def price_range() -> tuple[int, int]:
    """The lowest and highest `priceFrom` of the cars on sale (0 and 0 when there are none)."""
    return store.price_range()
