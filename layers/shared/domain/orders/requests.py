"""What a client asks for when placing an order, as the domain takes it (the Orders function builds it
from the request body, `orders.models.CreateOrderBody`)."""

from typing import Any, NamedTuple

from domain.catalog.payment_types import PaymentType

# NamedTuples, not dataclasses: Orders imports them at every cold start (docs/DECISIONS.md, "Import-time work").


class CreditRequest(NamedTuple):
    """The five ids of the bank chain (GET /api/v2/payments/banks/calculate takes the same)."""

    offer_id: str  # a bank offer (`bankId` in the contract)
    income_type_id: str
    initial_payment_id: str
    loan_term_id: str
    refund_type_id: str

    @property
    def payment_type(self) -> PaymentType:
        return PaymentType.CREDIT

    def choices(self) -> dict[str, Any]:
        """As the order stores them (`financing.choices`), named as the request body names them."""
        return {
            "bankId": self.offer_id,
            "incomeTypeId": self.income_type_id,
            "initialPaymentId": self.initial_payment_id,
            "loanTermId": self.loan_term_id,
            "refundTypeId": self.refund_type_id,
        }


class LeasingRequest(NamedTuple):
    """A leasing program with one of its terms and initial payments."""

    leasing_id: str
    loan_term_id: str
    initial_payment_id: str

    @property
    def payment_type(self) -> PaymentType:
        return PaymentType.LEASING

    def choices(self) -> dict[str, Any]:
        return {
            "leasingId": self.leasing_id,
            "loanTermId": self.loan_term_id,
            "initialPaymentId": self.initial_payment_id,
        }


class InstallmentRequest(NamedTuple):
    """One cell of an installment plan's matrix: a row's initial percent, a column's months."""

    plan_id: str
    initial_percent: int
    months: int

    @property
    def payment_type(self) -> PaymentType:
        return PaymentType.INSTALLMENT

    def choices(self) -> dict[str, Any]:
        return {"planId": self.plan_id, "initialPercent": self.initial_percent, "months": self.months}


FinancingRequest = CreditRequest | LeasingRequest | InstallmentRequest


class OrderRequest(NamedTuple):
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
