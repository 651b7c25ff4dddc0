"""Which payment types a car can be bought with, and which organizations serve a brand for each."""

from __future__ import annotations

import functools
from typing import Any

from bson import ObjectId

from core.locale import Locale, localize
from core.models import Page, parametrized
from data.reference_cache import preload
from domain.catalog.payment_types import PAYMENT_TYPE_NAMES, PaymentType
from domain.financing import listings, references
from domain.financing.listings import BrandFinancing
from domain.financing.models import Organization
from domain.financing.offered import offered_payment_types
from domain.financing.views import organization_ref
from payments.models import PaymentTypeItem

# The reference data these routes read: a SnapStart restore reads it before the first request.
preload(*listings.REFERENCE_DATA)


def listing[T](items: list[T]) -> Page[T]:
    """A complete list in the API's list shape."""
    return Page[Any](items=items, total=len(items))


def organizations(brand_id: str, payment_type: PaymentType, *, locale: Locale) -> Page[Organization]:
    """The active banks, leasing companies or installment providers serving the brand, rendered once per
    language and reading of the reference data (`listings.rendered`)."""
    references.brand(brand_id)

    def render(financing: BrandFinancing) -> Page[Organization]:
        found = listings.organizations(financing, payment_type)
        items = [organization_ref(organization, locale) for organization in found]
        # The declared answer's own class: a `Page[Any]` would be validated again as this one on every request
        # (the rendering is cached, its validation is not).
        return parametrized(Page, Organization)(items=items, total=len(items))

    return listings.rendered(ObjectId(brand_id), ("organizations", payment_type, locale), render)


def payment_types(modification_id: str, brand_id: str, *, locale: Locale) -> Page[PaymentTypeItem]:
    car, _ = references.car_and_modification(modification_id, brand_id=brand_id)
    return listing([_payment_type_item(kind, locale) for kind in offered_payment_types(car)])


@functools.cache
def _payment_type_item(kind: PaymentType, locale: Locale) -> PaymentTypeItem:
    """A payment type as an item in a language, built once (on first use: not at a cold start). A constant:
    shared, never changed."""
    return PaymentTypeItem(slug=kind, name=localize(PAYMENT_TYPE_NAMES[kind], locale))
