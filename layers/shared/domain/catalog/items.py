"""Cars as list items, the shape the catalog list and a device's saved cars share: a page of the catalog's
cars, a device's saved cars (those still on sale), each marked saved or not for the device; and saving a
car for a device (`domain.saved_cars` keeps ids alone: the car is checked here to be on sale)."""

from __future__ import annotations

from typing import Any, Literal

from bson import ObjectId

from core.locale import Locale
from core.models import CountedPage, parametrized
from domain.catalog import cars, store, views
from domain.catalog.models import CarItem
from domain.catalog.query import SortSpec
from domain.catalog.records import CarRecord
from domain.saved_cars import store as saved_cars


def catalog_page(
    query: dict[str, Any],
    sort: SortSpec,
    *,
    collation: dict[str, Any] | None,
    offset: int,
    limit: int,
    fingerprint: str,
    locale: Locale,
) -> CountedPage[CarItem]:
    """A page of the cars matching `query` (`domain.catalog.query.car_filter`), in this order."""
    found = store.find_car_page(query, sort, offset=offset, limit=limit, collation=collation)
    return car_page(found.items, total=found.total, exact=found.exact, fingerprint=fingerprint, locale=locale)


def saved_page(fingerprint: str, *, offset: int, limit: int, locale: Locale) -> CountedPage[CarItem]:
    """The device's saved cars, most recently saved first. A car removed from the catalog since it was
    saved is dropped from the device's list when met, and from the total."""
    page = saved_cars.find_page(fingerprint, offset=offset, limit=limit)
    car_ids, total = page.items, page.total
    found = store.find_cars(car_ids)
    gone = [car_id for car_id in car_ids if car_id not in found]
    if gone:
        total -= saved_cars.forget(fingerprint, gone)
    kept = [found[car_id] for car_id in car_ids if car_id in found]
    return car_page(kept, total=total, exact=page.exact, fingerprint=fingerprint, locale=locale, saved=set(car_ids))


def toggle_saved(car_id: str, *, fingerprint: str) -> Literal["saved", "removed"]:
    """Save the car on sale for the device, or remove it from the device's saved cars; 404 for a car not on
    sale."""
    car = ObjectId(car_id)
    cars.check_on_sale(car)
    return saved_cars.toggle(fingerprint, car)


def is_saved(car_id: ObjectId, *, fingerprint: str) -> bool:
    return bool(saved_cars.saved_car_ids(fingerprint, [car_id]))


def car_page(
    docs: list[CarRecord],
    *,
    total: int,
    exact: bool,
    fingerprint: str,
    locale: Locale,
    saved: set[ObjectId] | None = None,
) -> CountedPage[CarItem]:
    """A page of the given cars as list items, in their order, with `saved` for this device's fingerprint
    (looked up, unless the caller knows which of them are: the device's own list). Validated in one call."""
    names = store.brand_names(doc["brandId"] for doc in docs)
    if saved is None:
        saved = saved_cars.saved_car_ids(fingerprint, [doc["_id"] for doc in docs])
    items = [views.car_item(doc, names, saved, locale) for doc in docs]
    return parametrized(CountedPage, CarItem).model_validate({"items": items, "total": total, "exact": exact})
