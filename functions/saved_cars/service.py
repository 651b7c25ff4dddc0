"""Saved cars of a device (keyed by the `fingerprint` header, not by a user)."""

from __future__ import annotations

from bson import ObjectId

from common import saved_cars
from common.catalog import cars
from common.catalog.items import car_items
from common.catalog.models import CarItem
from common.context import locale
from common.errors import NotFound
from common.models import Page
from saved_cars.models import SavedCarToggle


def toggle(car_id: str, fingerprint: str) -> SavedCarToggle:
    car = ObjectId(car_id)
    if not cars.exists(car):
        raise NotFound("Car not found")
    return SavedCarToggle(status=saved_cars.toggle(fingerprint, car), carId=car_id)


def list_saved(fingerprint: str, *, limit: int, offset: int) -> Page[CarItem]:
    """The device's saved cars as car list items, most recently saved first. A car removed from the
    catalog since it was saved is dropped from the device's list when met, and from the total."""
    saved, total = saved_cars.find_page(fingerprint, offset=offset, limit=limit)
    found = cars.find_many(doc["carId"] for doc in saved)
    gone = [doc["carId"] for doc in saved if doc["carId"] not in found]
    if gone:
        total -= saved_cars.forget(fingerprint, gone)
    items = car_items(
        [found[doc["carId"]] for doc in saved if doc["carId"] in found], fingerprint=fingerprint, locale=locale()
    )
    return Page[CarItem](items=items, total=total)
