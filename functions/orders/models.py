"""Request bodies and responses of the orders routes, and the order-placement rule of docs/DECISIONS.md
("Orders")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StringConstraints, ValidationInfo, WithJsonSchema, field_validator

from common.enums import PaymentType
from common.models import ApiModel, Id, Timestamp
from common.order_lifecycle import Status
from common.validation import Money, MongoId, RequestModel

FinancingId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]


def _blank_is_none(value: object) -> object:
    return None if isinstance(value, str) and not value.strip() else value


PromoCodeText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
OptionalPromoCode = Annotated[PromoCodeText | None, BeforeValidator(_blank_is_none)]


FINANCED = frozenset({PaymentType.CREDIT, PaymentType.LEASING, PaymentType.INSTALLMENT})


class CreateOrderBody(RequestModel):
    """The seven fields of an order are required for every payment type. A financed order (CREDIT,
    LEASING, INSTALLMENT) may also name the chosen organization (bank or leasing company) and offer;
    a CASH order may not."""

    carId: MongoId
    modificationId: MongoId
    colorId: MongoId
    regionId: MongoId
    branchId: MongoId
    paymentTypeId: PaymentType
    price: Money = Field(description="the price the client saw, in sums; must equal the current price")
    promoCode: OptionalPromoCode = None
    organizationId: FinancingId | None = Field(default=None, description="CREDIT, LEASING, INSTALLMENT only")
    offerId: FinancingId | None = Field(default=None, description="CREDIT, LEASING, INSTALLMENT only")

    @field_validator("organizationId", "offerId")
    @classmethod
    def only_for_financed_orders(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("paymentTypeId") not in FINANCED:
            raise ValueError("is only accepted for CREDIT, LEASING or INSTALLMENT orders")
        return value


class PromoCodeBody(RequestModel):
    code: PromoCodeText


# Responses

# The order's state, named for the document (the transactions' states are another enum).
OrderState = Annotated[
    Status, WithJsonSchema({"title": "OrderStatus", "type": "string", "enum": [state.value for state in Status]})
]


class OrderItem(ApiModel):
    """An order in the caller's list."""

    id: Id = Field(alias="_id")
    contractNumber: str = Field(description="unique, e.g. CR-2026-000042", examples=["CR-2026-000042"])
    statusSlug: OrderState = Field(description="the order's state")
    price: int = Field(ge=0, description="the car's price when ordered, in sums", examples=[158000000])
    discount: int = Field(ge=0, description="the promo code's discount, in sums", examples=[0])
    amountDue: int = Field(ge=0, description="price - discount: what the order costs, in sums")
    paidAmount: int = Field(ge=0, description="paid so far, in sums", examples=[0])
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
    organizationId: str | None = Field(description="the chosen bank or leasing company (financed orders)")
    offerId: str | None = Field(description="the chosen offer (financed orders)")
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
