"""The one rule of which payment types a car is sold by: what the financing routes show, and what orders
accept. A car is sold by a payment type when its catalog entry lists it and, for a financing, an active
organization finances its brand that way (cash needs none)."""

from __future__ import annotations

from bson import ObjectId

from core.errors import NotFound
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import CarRecord
from domain.financing import store

# In the contract's order.
PAYMENT_TYPES = tuple(PaymentType)


def is_offered(car: CarRecord, kind: PaymentType, *, financed_for: ObjectId | None = None) -> bool:
    """Whether the car is sold by `kind`, asking of `kind` alone. `financed_for`: the proof a caller may
    hold that the brand is financed by `kind`, the brand of an active product, program or plan of `kind`
    by an active organization which it found; when it is the car's brand, the brand's financing is not
    read for it (`store.financed_payment_types`)."""
    if kind not in car.get("paymentTypes", []):
        return False
    return (
        kind is PaymentType.CASH
        or financed_for == car["brandId"]
        or kind in store.financed_payment_types(car["brandId"])
    )


def offered_payment_types(car: CarRecord) -> list[PaymentType]:
    """The payment types the car is sold by (`is_offered`), in the contract's order. The brand's financing
    is read once: cash and what it finances are asked of the car with the brand as proof."""
    financed, brand = store.financed_payment_types(car["brandId"]), car["brandId"]
    return [
        kind
        for kind in PAYMENT_TYPES
        if (kind is PaymentType.CASH or kind in financed) and is_offered(car, kind, financed_for=brand)
    ]


def ensure_offered(car: CarRecord, kind: PaymentType, *, financed_for: ObjectId | None = None) -> None:
    """404 unless the car is sold by `kind` (`is_offered`): a calculation or schedule of a financing the car
    is not sold with. Listings answer an empty list instead."""
    if is_offered(car, kind, financed_for=financed_for):
        return
    raise NotFound(
        "PAYMENT_TYPE_NOT_SOLD",
        paymentType=kind.value,
        details={"paymentType": kind.value, "offered": [offered.value for offered in offered_payment_types(car)]},
    )
