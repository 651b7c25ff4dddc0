"""Which payment types a car is sold by (`domain.financing.offered`): a deal that found its own active
product, program or plan of an active organization for the car's brand does not read the brand's financing
to know it is financed."""

from __future__ import annotations

import pytest
from bson import ObjectId

from core.errors import NotFound
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import CarRecord
from domain.financing import store
from domain.financing.offered import ensure_offered

BRAND = ObjectId()


@pytest.fixture
def financing_reads(monkeypatch: pytest.MonkeyPatch) -> list[ObjectId]:
    """The brand's financing, read when asked: the brand is financed by leasing only."""
    reads: list[ObjectId] = []

    def financed_payment_types(brand_id: ObjectId) -> frozenset[PaymentType]:
        reads.append(brand_id)
        return frozenset({PaymentType.LEASING}) if brand_id == BRAND else frozenset()

    monkeypatch.setattr(store, "financed_payment_types", financed_payment_types)
    return reads


def car(*payment_types: str) -> CarRecord:
    return {"_id": ObjectId(), "brandId": BRAND, "paymentTypes": list(payment_types)}


def test_a_product_of_another_brand_does_not_stand_for_the_cars(financing_reads: list[ObjectId]) -> None:
    # Given a car sold on credit, whose brand no bank finances, and a product of another brand
    # When the car is checked to be sold on credit
    with pytest.raises(NotFound) as refused:
        ensure_offered(car("CASH", "CREDIT", "LEASING"), PaymentType.CREDIT, financed_for=ObjectId())
    # Then the brand's financing is read, and the car is not sold on credit: what it is sold by is named
    assert refused.value.code == "PAYMENT_TYPE_NOT_SOLD"
    assert refused.value.details == {"paymentType": "CREDIT", "offered": ["CASH", "LEASING"]}
    assert financing_reads[0] == BRAND


def test_a_car_not_sold_that_way_is_refused_whatever_finances_its_brand(financing_reads: list[ObjectId]) -> None:
    # Given a car sold for cash and by leasing only, and a credit product of its brand
    # When the car is checked to be sold on credit
    with pytest.raises(NotFound) as refused:
        ensure_offered(car("CASH", "LEASING"), PaymentType.CREDIT, financed_for=BRAND)
    # Then it is not
    assert refused.value.details == {"paymentType": "CREDIT", "offered": ["CASH", "LEASING"]}
