"""Request bodies and responses of the orders routes, and the order-placement rule of docs/DECISIONS.md
("Orders")."""

from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)

from core.errors import invalid_value
from core.models import ApiModel, Id, Timestamp
from domain.catalog.payment_types import PaymentType
from domain.financing.models import CreditFigures, InstallmentFigures, LeasingFigures
from domain.orders.states import OrderStatus
from edge.validation import NOT_BLANK, Money, MongoId, RequestModel

FinancingId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64), NOT_BLANK]


def _blank_is_none(value: object) -> object:
    return None if isinstance(value, str) and not value.strip() else value


PromoCodeText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64), NOT_BLANK]
OptionalPromoCode = Annotated[PromoCodeText | None, BeforeValidator(_blank_is_none)]


FINANCED = frozenset({PaymentType.CREDIT, PaymentType.LEASING, PaymentType.INSTALLMENT})
# The body field carrying the choices of each financed payment type.
CHOICES_FIELD = {PaymentType.CREDIT: "credit", PaymentType.LEASING: "leasing", PaymentType.INSTALLMENT: "installment"}


def _not_a_boolean(value: object) -> object:
    # JSON true is the number 1 to lax coercion; no client means a boolean as a term or a percent.
    if isinstance(value, bool):
        raise invalid_value("NUMBER_NOT_BOOLEAN")
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


def _one_branch_per_payment_type(schema: dict[str, Any]) -> None:
    """The document states the rule the validators below enforce: one `oneOf` branch per payment type,
    requiring its choices object and allowing no other (a field another type takes may only be null)."""
    properties = schema["properties"]
    branches = []
    for payment_type in PaymentType:
        wanted = CHOICES_FIELD.get(payment_type)
        fields: dict[str, Any] = {"paymentTypeId": {"const": payment_type.value}}
        for field in CHOICES_FIELD.values():
            fields[field] = _present(properties[field]) if field == wanted else {"type": "null"}
        if payment_type not in FINANCED:
            fields |= {"organizationId": {"type": "null"}, "offerId": {"type": "null"}}
        branch: dict[str, Any] = {"title": f"{payment_type.value} order", "properties": fields}
        if wanted is not None:
            branch["required"] = [wanted]
        branches.append(branch)
    schema["oneOf"] = branches


def _present(optional: dict[str, Any]) -> dict[str, Any]:
    """The non-null alternative of an optional property's schema."""
    return next(alternative for alternative in optional["anyOf"] if alternative.get("type") != "null")


class CreateOrderBody(RequestModel):
    """The seven fields of an order are required for every payment type. A financed order carries the
    choices made on the financing routes in the object named for its type (`credit`, `leasing` or
    `installment`), which is then required; the server re-checks and prices them. `organizationId` and
    `offerId` are optional, and must name the chosen organization and offer when sent. A CASH order
    sends none of these."""

    model_config = ConfigDict(json_schema_extra=_one_branch_per_payment_type)

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
            raise invalid_value("ONLY_FOR_FINANCED_ORDERS")
        return value

    @field_validator("credit", "leasing", "installment")
    @classmethod
    def the_choices_of_the_payment_type(cls, value: object, info: ValidationInfo) -> object:
        payment_type = info.data.get("paymentTypeId")
        if payment_type is None:  # itself invalid: that is the error to report
            return value
        wanted = CHOICES_FIELD.get(payment_type)
        if info.field_name == wanted and value is None:
            raise invalid_value("CHOICES_REQUIRED", paymentType=payment_type.value)
        if info.field_name != wanted and value is not None:
            kind = next(kind for kind, field in CHOICES_FIELD.items() if field == info.field_name)
            raise invalid_value("CHOICES_NOT_ACCEPTED", paymentType=kind.value)
        return value


class PromoCodeBody(RequestModel):
    code: PromoCodeText


# Responses


class CreditFinancing(CreditFigures):
    """A credit order's deal: the bank chain's choices and the figures of /api/v2/payments/banks/calculate."""

    paymentType: Literal["CREDIT"]
    organizationId: Id = Field(description="the bank")
    offerId: Id = Field(description="the bank offer (`credit.bankId`)")
    choices: CreditChoice


class LeasingFinancing(LeasingFigures):
    """A leasing order's deal: the choices and the figures of POST /api/v1/payments/leasing/calculate."""

    paymentType: Literal["LEASING"]
    organizationId: Id = Field(description="the leasing company")
    offerId: Id = Field(description="the leasing program (`leasing.leasingId`)")
    choices: LeasingChoice


class InstallmentFinancing(InstallmentFigures):
    """An installment order's deal: the chosen cell of GET /api/v1/payments/installment and its figures."""

    paymentType: Literal["INSTALLMENT"]
    organizationId: Id = Field(description="the installment provider")
    offerId: Id = Field(description="the plan (`installment.planId`)")
    choices: InstallmentChoice


OrderFinancing = Annotated[
    CreditFinancing | LeasingFinancing | InstallmentFinancing, Field(discriminator="paymentType")
]

# The order's state, named for the document (the transactions' states are another enum).
OrderState = Annotated[
    OrderStatus,
    WithJsonSchema({"title": "OrderStatus", "type": "string", "enum": [state.value for state in OrderStatus]}),
]


class OrderItem(ApiModel):
    """An order in the caller's list."""

    id: Id = Field(alias="_id")
    contractNumber: str = Field(description="unique, e.g. CR-2026-000042", examples=["CR-2026-000042"])
    statusSlug: OrderState = Field(description="the order's state")
    price: int = Field(ge=0, description="the car's price when ordered, in sums", examples=[158000000])
    discount: int = Field(ge=0, description="the promo code's discount, in sums", examples=[0])
    amountDue: int = Field(ge=0, description="price - discount: what the order costs, in sums")
    amountDueNow: int = Field(
        ge=0,
        description="what card payments may take in all, in sums: amountDue for CASH; the initial payment of the "
        "financing, less the discount, for CREDIT, LEASING and INSTALLMENT (the financing pays the rest). "
        "The order is PAID when this is paid",
        examples=[47400000],
    )
    paidAmount: int = Field(ge=0, description="paid so far, in sums", examples=[0])
    deposit: int = Field(
        ge=0,
        description="what must be paid by depositBy to keep the car, in sums, and the least a first card payment "
        "may be (PAYMENT_BELOW_DEPOSIT): the car's sale deposit, else a share of amountDueNow set per environment "
        "(10 % by default); 0 when nothing is due now",
        examples=[4740000],
    )
    depositBy: Timestamp | None = Field(
        description="unless at least the deposit is paid by then, the order is cancelled (not paid in time) and "
        "its car goes back on sale: minutes after it was placed (30 by default; the car's sale may say otherwise); "
        "null once the deposit is paid, and for an order that is not NEW or PARTIALLY_PAID"
    )
    payBy: Timestamp | None = Field(
        description="unless amountDueNow is paid in full by then (a financed order with nothing to pay by card: "
        "its financing confirmed by the dealer), the order is cancelled (not paid in time, what was paid by card "
        "refunded) and its car goes back on sale: 72 hours after it was placed unless the environment says "
        "otherwise; null for an order that is not NEW or PARTIALLY_PAID"
    )
    paymentTypeId: PaymentType
    brandName: str | None = Field(examples=["Chevrolet"])
    carName: str | None = Field(examples=["Cobalt"])
    createdAt: Timestamp


class Order(OrderItem):
    """An order with what was bought and where."""

    brandId: Id
    carId: Id
    modificationId: Id
    colorId: Id
    branchId: Id
    regionId: Id
    promoCode: str | None = Field(description="the promo code applied", examples=["WELCOME10"])
    organizationId: str | None = Field(
        description="the chosen bank, leasing company or installment provider (financed orders)"
    )
    offerId: str | None = Field(
        description="the chosen bank offer, leasing program or installment plan (financed orders)"
    )
    financing: OrderFinancing | None = Field(
        description="the deal of a financed order: the choices and the figures the financing route gave; null for CASH"
    )
    modificationName: str | None = Field(examples=["LTZ AT"])
    colorName: str | None = Field(examples=["Summit White"])
    updatedAt: Timestamp | None


class OrderStep(ApiModel):
    slug: OrderState = Field(description="the state this step is")
    name: str = Field(description="the step's name in the caller's language", examples=["Paid"])
    isCurrent: bool = Field(description="the order is in this state now")
    done: bool = Field(description="the order has gone past this step")
    at: Timestamp | None = Field(description="when the order reached it; null if it has not")


class PromoCode(ApiModel):
    code: str = Field(examples=["WELCOME10"])
    discount: int = Field(ge=0, description="sums for FIXED, percent for PERCENT", examples=[10])
    discountType: Literal["PERCENT", "FIXED"]
    maxDiscount: int | None = Field(description="cap of a PERCENT discount, in sums", examples=[5000000])
    validTo: Timestamp | None = Field(description="last moment the code can be used")
