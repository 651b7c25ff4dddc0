"""Pure rules of orders: discounts, contract numbers, the order body."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId
from pydantic import ValidationError

from domain.orders.placement import contract_number
from domain.orders.promo_codes import discount_for, normalize
from orders.models import CreateOrderBody
from orders.service import describe_promo_code as describe


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


def ids(*names: str) -> dict[str, str]:
    return {name: str(ObjectId()) for name in names}


def choices(payment_type: str) -> dict[str, Any]:
    """Well-formed choices of a financed order (whether they exist is the service's to check)."""
    choices: dict[str, dict[str, Any]] = {
        "credit": ids("bankId", "incomeTypeId", "initialPaymentId", "loanTermId", "refundTypeId"),
        "leasing": ids("leasingId", "loanTermId", "initialPaymentId"),
        "installment": {"planId": str(ObjectId()), "initialPercent": 30, "months": 12},
    }
    return choices[payment_type.lower()]


@pytest.mark.parametrize("payment_type", ["CREDIT", "LEASING", "INSTALLMENT"])
def test_a_financed_order_needs_the_choices_of_its_type_and_no_other(payment_type: str) -> None:
    field = payment_type.lower()
    # With its choices it is accepted, with the optional organization and offer
    parsed = CreateOrderBody.model_validate(
        body(paymentTypeId=payment_type, organizationId="org-1", offerId="o-1", **{field: choices(payment_type)})
    )
    assert getattr(parsed, field) is not None
    assert (parsed.organizationId, parsed.offerId) == ("org-1", "o-1")
    # Without them it is refused, naming the field
    with pytest.raises(ValidationError, match=f"{field}\n.*CHOICES_REQUIRED"):
        CreateOrderBody.model_validate(body(paymentTypeId=payment_type))
    # And the choices of another type are refused
    other = "credit" if field != "credit" else "leasing"
    with pytest.raises(ValidationError, match=f"{other}\n.*CHOICES_NOT_ACCEPTED"):
        CreateOrderBody.model_validate(
            body(paymentTypeId=payment_type, **{field: choices(payment_type), other: choices(other.upper())})
        )


@pytest.mark.parametrize("field", ["organizationId", "offerId", "credit", "leasing", "installment"])
def test_a_cash_order_sends_no_financing(field: str) -> None:
    value = choices(field.upper()) if field in ("credit", "leasing", "installment") else "x-1"
    with pytest.raises(ValidationError, match=field):
        CreateOrderBody.model_validate(body(**{field: value}))


@pytest.mark.parametrize("value", [True, "twelve", 0, 1.5])
def test_installment_months_are_a_whole_positive_number_never_a_boolean(value: object) -> None:
    installment = {**choices("INSTALLMENT"), "months": value}
    with pytest.raises(ValidationError, match="months"):
        CreateOrderBody.model_validate(body(paymentTypeId="INSTALLMENT", installment=installment))


def test_a_blank_promo_code_means_none_and_unknown_properties_are_stripped() -> None:
    parsed = CreateOrderBody.model_validate(body(promoCode="  ", color="red"))
    assert parsed.promoCode is None
    assert "color" not in parsed.model_dump()
