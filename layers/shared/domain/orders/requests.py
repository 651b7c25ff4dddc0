"""What a client asks for when placing an order, as the domain takes it (the Orders function builds it
from the request body, `orders.models.CreateOrderBody`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.catalog.payment_types import PaymentType


@dataclass(frozen=True)
class CreditRequest:
    """The five ids of the bank chain (GET /api/v2/payments/banks/calculate takes the same)."""

    payment_type: ClassVar[PaymentType] = PaymentType.CREDIT

    bank_id: str  # a bank offer
    income_type_id: str
    initial_payment_id: str
    loan_term_id: str
    refund_type_id: str

    def choices(self) -> dict[str, Any]:
        """As the order stores them (`financing.choices`), named as the request body names them."""
        return {
            "bankId": self.bank_id,
            "incomeTypeId": self.income_type_id,
            "initialPaymentId": self.initial_payment_id,
            "loanTermId": self.loan_term_id,
            "refundTypeId": self.refund_type_id,
        }


@dataclass(frozen=True)
class LeasingRequest:
    """A leasing program with one of its terms and initial payments."""

    payment_type: ClassVar[PaymentType] = PaymentType.LEASING

    leasing_id: str
    loan_term_id: str
    initial_payment_id: str

    def choices(self) -> dict[str, Any]:
        return {
            "leasingId": self.leasing_id,
            "loanTermId": self.loan_term_id,
            "initialPaymentId": self.initial_payment_id,
        }


@dataclass(frozen=True)
class InstallmentRequest:
    """One cell of an installment plan's matrix: a row's initial percent, a column's months."""

    payment_type: ClassVar[PaymentType] = PaymentType.INSTALLMENT

    plan_id: str
    initial_percent: int
    months: int

    def choices(self) -> dict[str, Any]:
        return {"planId": self.plan_id, "initialPercent": self.initial_percent, "months": self.months}


FinancingRequest = CreditRequest | LeasingRequest | InstallmentRequest


@dataclass(frozen=True)
class OrderRequest:
    """An order of a car's modification in a color at a branch at `price` (the price the client saw). A
    financed order carries its `financing` choices, which say how it is paid (`payment_type`; CASH
    without them); `organization_id` and `offer_id` are optional, and must name the chosen ones when given."""

    car_id: str
    modification_id: str
    color_id: str
    region_id: str
    branch_id: str
    price: int
    promo_code: str | None = None
    financing: FinancingRequest | None = None
    organization_id: str | None = None
    offer_id: str | None = None

    @property
    def payment_type(self) -> PaymentType:
        return PaymentType.CASH if self.financing is None else self.financing.payment_type
