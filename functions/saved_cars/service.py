"""Saved cars of a device (keyed by the `fingerprint` header, not by a user)."""

from __future__ import annotations

from bson import ObjectId

from core.errors import NotFound
from core.locale import Locale
from core.models import CountedPage
from data.reference_cache import preload
from domain.catalog import store as catalog
from domain.catalog.items import car_page
from domain.catalog.models import CarItem
from domain.saved_cars import store as saved_cars
from saved_cars.models import SavedCarToggle

# The reference data these routes read: a SnapStart restore reads it before the first request.
preload(catalog.all_brands)


def toggle(car_id: str, *, fingerprint: str) -> SavedCarToggle:
    car = ObjectId(car_id)
    if not catalog.car_exists(car):
        raise NotFound("CAR_NOT_FOUND")
    return SavedCarToggle(status=saved_cars.toggle(fingerprint, car), carId=car_id)


def list_saved(*, fingerprint: str, limit: int, offset: int, locale: Locale) -> CountedPage[CarItem]:
    """The device's saved cars as car list items, most recently saved first. A car removed from the
    catalog since it was saved is dropped from the device's list when met, and from the total."""
    page = saved_cars.find_page(fingerprint, offset=offset, limit=limit)
    car_ids, total = page.items, page.total
    found = catalog.find_cars(car_ids)
    gone = [car_id for car_id in car_ids if car_id not in found]
    if gone:
        total -= saved_cars.forget(fingerprint, gone)
    kept = [found[car_id] for car_id in car_ids if car_id in found]
    return car_page(kept, total=total, exact=page.exact, fingerprint=fingerprint, locale=locale, saved=set(car_ids))
