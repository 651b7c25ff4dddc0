"""Saved cars of a device (keyed by the `fingerprint` header, not by a user)."""

from __future__ import annotations

from core.locale import Locale
from core.models import CountedPage
from data.reference_cache import preload
from domain.catalog import brands, items
from domain.catalog.models import CarItem
from saved_cars.models import SavedCarToggle

# The reference data these routes read: a SnapStart restore reads it before the first request.
preload(*brands.BRAND_NAMES)


def toggle(car_id: str, *, fingerprint: str) -> SavedCarToggle:
    return SavedCarToggle(status=items.toggle_saved(car_id, fingerprint=fingerprint), carId=car_id)


def list_saved(*, fingerprint: str, limit: int, offset: int, locale: Locale) -> CountedPage[CarItem]:
    """The device's saved cars as car list items, most recently saved first (`items.saved_page`)."""
    return items.saved_page(fingerprint, offset=offset, limit=limit, locale=locale)
