"""The one rule of which payment types a car is really offered with: what the financing routes show,
and what orders accept."""

from __future__ import annotations

from bson import ObjectId

from core.errors import NotFound
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import CarRecord
from domain.financing import store

# In the contract's order.
PAYMENT_TYPES = tuple(PaymentType)


def offered_payment_types(car: CarRecord) -> list[PaymentType]:
    """The car's payment types that are really offered for its brand: cash always, credit when an active
    bank serves the brand, and so on."""
    allowed = car.get("paymentTypes", [])
    financed = store.financed_payment_types(car["brandId"])
    return [kind for kind in PAYMENT_TYPES if _offered(kind, allowed, financed)]


def is_offered(car: CarRecord, kind: PaymentType) -> bool:
    """Whether the car is sold by `kind` (`offered_payment_types`), asking of `kind` alone: a listing of
    one financing needs no other."""
    return _offered(kind, car.get("paymentTypes", []), store.financed_payment_types(car["brandId"]))


def _offered(kind: PaymentType, allowed: list[str], financed: frozenset[PaymentType]) -> bool:
    return kind in allowed and (kind is PaymentType.CASH or kind in financed)


def ensure_offered(car: CarRecord, kind: PaymentType, *, financed_for: ObjectId | None = None) -> None:
    """404 unless the car is sold by `kind` (`offered_payment_types`): a calculation or schedule of a
    financing the car is not sold with. Listings answer an empty list instead. Asks of `kind` alone.
    `financed_for`: the brand of an active product, program or plan of `kind` by an active organization,
    which the caller found: when it is the car's brand, that is what `store.financed_payment_types` would
    find, and the brand's financing is not read for it."""
    allowed = car.get("paymentTypes", [])
    if kind in allowed and (
        kind is PaymentType.CASH
        or financed_for == car["brandId"]
        or kind in store.financed_payment_types(car["brandId"])
    ):
        return
    raise NotFound(
        "PAYMENT_TYPE_NOT_SOLD",
        paymentType=kind.value,
        details={"paymentType": kind.value, "offered": [offered.value for offered in offered_payment_types(car)]},
    )
