"""Cars as list items, the shape the catalog list and a device's saved cars share."""

from __future__ import annotations

from bson import ObjectId

from core.locale import Locale
from domain.catalog import store, views
from domain.catalog.models import CarItem
from domain.catalog.records import CarRecord
from domain.saved_cars import store as saved_cars


def car_items(
    docs: list[CarRecord], *, fingerprint: str, locale: Locale, saved: set[ObjectId] | None = None
) -> list[CarItem]:
    """List items of the given cars, in their order, with `saved` for this device's fingerprint (looked up,
    unless the caller knows which of them are: the device's own list)."""
    names = store.brand_names(doc["brandId"] for doc in docs)
    if saved is None:
        saved = saved_cars.saved_car_ids(fingerprint, [doc["_id"] for doc in docs])
    return [views.car_item(doc, names, saved, locale) for doc in docs]
