"""Pure rules of orders: discounts, contract numbers, the order body."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId
from pydantic import ValidationError

from orders.models import CreateOrderBody
from orders.promo_codes import describe, discount_for, normalize
from orders.service import contract_number


def promo(discount_type: str, value: int, cap: int | None = None) -> dict[str, Any]:
    return {"_id": "CODE", "discountType": discount_type, "value": value, "maxDiscount": cap}


@pytest.mark.parametrize(
    ("kind", "value", "cap", "price", "discount"),
    [
        ("FIXED", 1_000_000, None, 180_000_000, 1_000_000),
        ("FIXED", 5_000_000, None, 3_000_000, 3_000_000),  # never more than the price
        ("PERCENT", 10, None, 180_000_000, 18_000_000),
        ("PERCENT", 10, 5_000_000, 180_000_000, 5_000_000),  # capped
        ("PERCENT", 3, None, 123_456_789, 3_703_703),  # rounded down to whole sums
        ("PERCENT", 100, None, 999, 999),
    ],
)
def test_discount_for_a_price(kind: str, value: int, cap: int | None, price: int, discount: int) -> None:
    assert discount_for(promo(kind, value, cap), price) == discount


def test_apply_answer_gives_the_percent_for_a_percent_promo_and_the_sum_for_a_fixed_one() -> None:
    assert describe(promo("PERCENT", 10, 5_000_000)).model_dump() == {
        "code": "CODE",
        "discount": 10,
        "discountType": "PERCENT",
        "maxDiscount": 5_000_000,
        "validTo": None,
    }
    assert describe(promo("FIXED", 1_000_000)).discount == 1_000_000


def test_codes_are_case_insensitive() -> None:
    assert normalize("  spring10 ") == "SPRING10"


def test_contract_numbers_are_readable_and_zero_padded() -> None:
    assert contract_number(2026, 42) == "CR-2026-000042"
    assert contract_number(2027, 1_234_567) == "CR-2027-1234567"


def body(**overrides: Any) -> dict[str, Any]:
    ids = {name: str(ObjectId()) for name in ("carId", "modificationId", "colorId", "regionId", "branchId")}
    return {**ids, "paymentTypeId": "CASH", "price": 100, **overrides}


def test_financing_ids_are_kept_for_financed_orders_only() -> None:
    financed = CreateOrderBody.model_validate(body(paymentTypeId="LEASING", organizationId="org-1", offerId="o-1"))
    assert (financed.organizationId, financed.offerId) == ("org-1", "o-1")
    with pytest.raises(ValidationError, match="offerId"):
        CreateOrderBody.model_validate(body(offerId="o-1"))


def test_a_blank_promo_code_means_none_and_unknown_properties_are_stripped() -> None:
    parsed = CreateOrderBody.model_validate(body(promoCode="  ", color="red"))
    assert parsed.promoCode is None
    assert "color" not in parsed.model_dump()
