"""Request bodies of the orders routes, and the order-placement rule of docs/DECISIONS.md ("Orders")."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, StringConstraints, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from common.enums import PaymentType
from common.validation import Money, MongoId, RequestModel

FinancingId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]


def _blank_is_none(value: object) -> object:
    return None if isinstance(value, str) and not value.strip() else value


PromoCodeText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
OptionalPromoCode = Annotated[PromoCodeText | None, BeforeValidator(_blank_is_none)]


FINANCED = frozenset({PaymentType.CREDIT, PaymentType.LEASING, PaymentType.INSTALLMENT})
# The body field carrying the choices of each financed payment type.
CHOICES_FIELD = {PaymentType.CREDIT: "credit", PaymentType.LEASING: "leasing", PaymentType.INSTALLMENT: "installment"}


def _not_a_boolean(value: object) -> object:
    # JSON true is the number 1 to lax coercion; no client means a boolean as a term or a percent.
    if isinstance(value, bool):
        raise ValueError("must be a number, not a boolean")
    return value


WholeNumber = Annotated[int, BeforeValidator(_not_a_boolean)]


class CreditChoice(RequestModel):
    """The five ids GET /api/v2/payments/banks/calculate takes, as chosen on the bank chain."""

    bankId: MongoId = Field(
        description="a bank offer (`_id`) of GET /api/v2/payments/banks for this car and modification"
    )
    incomeTypeId: MongoId = Field(description="one of GET /api/v2/payments/banks/income-types?bankId=")
    initialPaymentId: MongoId = Field(description="one of GET /api/v2/payments/banks/initial-payment?incomeTypeId=")
    loanTermId: MongoId = Field(description="one of GET /api/v2/payments/banks/loan-terms?initialPaymentId=")
    refundTypeId: MongoId = Field(description="one of GET /api/v2/payments/banks/refund-types?loanTermId=")


class LeasingChoice(RequestModel):
    """What POST /api/v1/payments/leasing/calculate takes besides the car and price (the order's own)."""

    leasingId: MongoId = Field(description="a leasing program (`_id`) of GET /api/v1/payments/leasing")
    loanTermId: MongoId = Field(description="one of the program's loanTerms")
    initialPaymentId: MongoId = Field(description="one of the program's initialPayments")


class InstallmentChoice(RequestModel):
    """One cell of GET /api/v1/payments/installment: a plan, a row's initial percent, a column's months."""

    planId: MongoId = Field(description="a plan (`_id`) of GET /api/v1/payments/installment")
    initialPercent: WholeNumber = Field(ge=0, le=100, description="a row's initialPercent", examples=[30])
    months: WholeNumber = Field(ge=1, le=600, description="one of the plan's terms", examples=[12])


class CreateOrderBody(RequestModel):
    """The seven fields of an order are required for every payment type. A financed order carries the
    choices made on the financing routes in the object named for its type (`credit`, `leasing` or
    `installment`), which is then required; the server re-checks and prices them. `organizationId` and
    `offerId` are optional, and must name the chosen organization and offer when sent. A CASH order
    sends none of these."""

    carId: MongoId
    modificationId: MongoId
    colorId: MongoId
    regionId: MongoId
    branchId: MongoId
    paymentTypeId: PaymentType
    price: Money = Field(description="the price the client saw, in sums; must equal the current price")
    promoCode: OptionalPromoCode = None
    organizationId: FinancingId | None = Field(
        default=None, description="financed orders only, optional: the chosen bank, leasing company or provider"
    )
    offerId: FinancingId | None = Field(
        default=None,
        description="financed orders only, optional: the chosen bank offer, leasing program or installment plan",
    )
    credit: CreditChoice | None = Field(default=None, validate_default=True, description="required for CREDIT only")
    leasing: LeasingChoice | None = Field(default=None, validate_default=True, description="required for LEASING only")
    installment: InstallmentChoice | None = Field(
        default=None, validate_default=True, description="required for INSTALLMENT only"
    )

    @field_validator("organizationId", "offerId")
    @classmethod
    def only_for_financed_orders(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("paymentTypeId") not in FINANCED:
            raise ValueError("is only accepted for CREDIT, LEASING or INSTALLMENT orders")
        return value

    @field_validator("credit", "leasing", "installment")
    @classmethod
    def the_choices_of_the_payment_type(cls, value: object, info: ValidationInfo) -> object:
        payment_type = info.data.get("paymentTypeId")
        if payment_type is None:  # itself invalid: that is the error to report
            return value
        wanted = CHOICES_FIELD.get(payment_type)
        if info.field_name == wanted and value is None:
            raise PydanticCustomError(
                "financing_choices",
                "is required for {kind} orders: the choices made on the financing routes",
                {"kind": payment_type.value},
            )
        if info.field_name != wanted and value is not None:
            kind = next(kind for kind, field in CHOICES_FIELD.items() if field == info.field_name)
            raise PydanticCustomError("financing_choices", "is only accepted for {kind} orders", {"kind": kind.value})
        return value


class PromoCodeBody(RequestModel):
    code: PromoCodeText
