"""Saved cars of a device (keyed by the `fingerprint` header, not by a user)."""

from __future__ import annotations

from bson import ObjectId

from catalog import cars
from catalog.models import CarItem
from catalog.service import car_items
from common.errors import NotFound
from common.models import Page
from saved_cars import store
from saved_cars.models import SavedCarToggle


def toggle(car_id: str, fingerprint: str) -> SavedCarToggle:
    car = ObjectId(car_id)
    if not cars.exists(car):
        raise NotFound("Car not found")
    return SavedCarToggle(status=store.toggle(fingerprint, car), carId=car_id)


def list_saved(fingerprint: str, *, limit: int, offset: int) -> Page[CarItem]:
    """The device's saved cars as car list items, most recently saved first. A car removed from the
    catalog since it was saved is dropped from the device's list when met, and from the total."""
    saved, total = store.find_page(fingerprint, offset=offset, limit=limit)
    found = cars.find_many(doc["carId"] for doc in saved)
    gone = [doc["carId"] for doc in saved if doc["carId"] not in found]
    if gone:
        total -= store.forget(fingerprint, gone)
    return Page[CarItem](items=car_items([found[doc["carId"]] for doc in saved if doc["carId"] in found]), total=total)
