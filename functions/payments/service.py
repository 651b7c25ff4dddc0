"""Which payment types a car can be bought with, and which organizations serve a brand for each."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from common.db import get_db
from common.enums import PAYMENT_TYPE_NAMES, PaymentType
from common.errors import NotFound
from common.models import Page
from payments import catalog
from payments.catalog import listing, text
from payments.models import Organization, PaymentTypeItem

# Where the organizations serving a brand for a payment type are found (CASH needs none).
SOURCES = {
    PaymentType.CREDIT: "credit_products",
    PaymentType.LEASING: "leasing_programs",
    PaymentType.INSTALLMENT: "installment_plans",
}


def _serving(payment_type: PaymentType, brand_id: ObjectId) -> list[ObjectId]:
    source = SOURCES.get(payment_type)
    if source is None:
        return []
    return list(get_db()[source].distinct("organizationId", {"brandId": brand_id, "active": True}))


def organizations(brand_id: str, payment_type: PaymentType) -> Page[Organization]:
    """The active banks, leasing companies or installment providers serving the brand."""
    catalog.brand(brand_id)
    found = catalog.organization_refs(_serving(payment_type, ObjectId(brand_id)))
    return listing(list(found.values()))


def offered_payment_types(car: dict[str, Any]) -> list[PaymentType]:
    """The car's payment types that are really offered for its brand: cash always, credit when an active
    bank serves the brand, and so on. The one rule for what clients are shown and what orders accept."""
    allowed = set(car.get("paymentTypes", []))
    return [
        kind
        for kind in PaymentType
        if kind in allowed and (kind is PaymentType.CASH or catalog.organization_refs(_serving(kind, car["brandId"])))
    ]


def ensure_offered(car: dict[str, Any], kind: PaymentType) -> None:
    """404 unless the car is sold by `kind` (`offered_payment_types`): a calculation or schedule of a
    financing the car is not sold with. Listings answer an empty list instead."""
    if kind not in offered_payment_types(car):
        raise NotFound(
            f"The car is not sold by {kind.value}",
            details={"paymentType": kind.value, "offered": [offered.value for offered in offered_payment_types(car)]},
        )


def payment_types(modification_id: str, brand_id: str) -> Page[PaymentTypeItem]:
    car, _ = catalog.car_and_modification(modification_id, brand_id=brand_id)
    offered = offered_payment_types(car)
    return listing([PaymentTypeItem(slug=kind, name=text(PAYMENT_TYPE_NAMES[kind])) for kind in offered])
