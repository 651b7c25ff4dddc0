"""What a financing check reads (`domain.financing.offered`): a deal that found its own active product of
the car's brand does not read the brand's financing again. The behaviour is in
tests/unit/financing/test_offered.py, whose fixture counts the reads."""

from __future__ import annotations

from bson import ObjectId

from domain.catalog.payment_types import PaymentType
from domain.financing.offered import ensure_offered
from tests.unit.financing import test_offered

BRAND, car = test_offered.BRAND, test_offered.car
financing_reads = test_offered.financing_reads  # the fixture: the brand's financing, each read recorded


def test_a_deals_own_product_for_the_cars_brand_stands_for_the_brands_financing(
    financing_reads: list[ObjectId],
) -> None:
    # Given a car sold on credit, and a credit product of its brand the deal found active, of an active bank
    # When the car is checked to be sold on credit
    ensure_offered(car("CASH", "CREDIT"), PaymentType.CREDIT, financed_for=BRAND)
    # Then it is, without reading the brand's financing
    assert financing_reads == []
