"""Which payment types a car can be bought with, and which organizations serve a brand for each."""

from __future__ import annotations

from bson import ObjectId

from core.models import Organization, Page
from domain.catalog.payment_types import PAYMENT_TYPE_NAMES, PaymentType
from domain.financing import store as financing
from domain.financing.store import listing, text
from payments.models import PaymentTypeItem


def organizations(brand_id: str, payment_type: PaymentType) -> Page[Organization]:
    """The active banks, leasing companies or installment providers serving the brand."""
    financing.brand(brand_id)
    found = financing.organization_refs(financing.serving(payment_type, ObjectId(brand_id)))
    return listing(list(found.values()))


def payment_types(modification_id: str, brand_id: str) -> Page[PaymentTypeItem]:
    car, _ = financing.car_and_modification(modification_id, brand_id=brand_id)
    offered = financing.offered_payment_types(car)
    return listing([PaymentTypeItem(slug=kind, name=text(PAYMENT_TYPE_NAMES[kind])) for kind in offered])
