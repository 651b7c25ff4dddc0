"""Request bodies of the orders routes, and the order-placement rule of docs/DECISIONS.md ("Orders")."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, StringConstraints, ValidationInfo, field_validator

from common.enums import PaymentType
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
