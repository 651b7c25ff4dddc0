"""Cars as list items, the shape the catalog list and a device's saved cars share."""

from __future__ import annotations

from bson import ObjectId

from core.locale import Locale
from core.models import CountedPage
from domain.catalog import store, views
from domain.catalog.models import CarItem
from domain.catalog.records import CarRecord
from domain.saved_cars import store as saved_cars

# Parametrized once: `CountedPage[CarItem]` looks its generic class up again on every call.
CAR_PAGE = CountedPage[CarItem]


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
    return CAR_PAGE.model_validate({"items": items, "total": total, "exact": exact})
