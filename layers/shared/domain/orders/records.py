"""The orders' documents as `domain.orders.store` returns them (docs/DATA_MODEL.md, "Orders")."""

# No `from __future__ import annotations`: every function imports these declarations (docs/DECISIONS.md,
# "Import-time work").
from datetime import datetime
from typing import NotRequired, Required, TypedDict

from bson import ObjectId

from data.mongo import Document
from domain.catalog.records import LocalizedText


class OrderRecord(TypedDict, total=False):
    """An order (API model: `orders.models.Order`). Orders stored before `amountDueNow` existed have none
    (`lifecycle.due_now`)."""

    _id: Required[ObjectId]
    userId: Required[ObjectId]
    buyer: str  # the person (domain.orders.buyers.Buyer.key); orders placed before it was recorded have none
    partner: str  # the name of the partner whose app placed it (orders placed before it was recorded have none)
    contractNumber: str
    statusSlug: Required[str]
    brandId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    colorId: ObjectId
    branchId: ObjectId
    regionId: ObjectId
    paymentTypeId: str
    organizationId: str | None
    offerId: str | None
    # `{paymentType, organizationId, offerId, choices, ...figures}`, the figures as the financing route
    # answered them (`domain.orders.financed.FinancedDeal.document`)
    financing: Document | None
    price: int
    discount: int
    promoCode: str | None
    amountDue: int
    amountDueNow: int
    paidAmount: int
    # What keeps the car (domain.orders.holds): `deposit` paid by `depositBy`, all of `amountDueNow` by `payBy`
    # (orders placed before `depositBy` existed: the deposit by `payBy`).
    deposit: int
    depositBy: datetime
    payBy: datetime
    expiredAt: datetime  # when it was cancelled for not being paid in time
    paymentIds: list[str]
    chargingPaymentId: str | None
    chargingSince: datetime | None
    stockHold: str  # lifecycle.StockHold: the unit of the branch's stock the order took
    carName: LocalizedText | None
    brandName: str | None
    modificationName: str | None
    colorName: LocalizedText | None
    eventSeq: int
    createdAt: datetime
    updatedAt: datetime


OrderLogRecord = TypedDict(
    "OrderLogRecord",
    {
        "_id": ObjectId,
        "orderId": ObjectId,
        "userId": ObjectId,
        "from": str | None,  # None when the order was created
        "to": str,
        "cause": str,
        "at": datetime,
        # a cancellation's card refunds, in sums (0 when nothing was paid by card)
        "refundAmount": NotRequired[int],
    },
)


class ChangeFacts(TypedDict, total=False):
    """What a status change's log entry and event say besides the change itself."""

    refundAmount: int  # a cancellation: the card payments being refunded, in sums


class PromoCodeRecord(TypedDict, total=False):
    _id: Required[str]  # the code, uppercase
    discountType: Required[str]  # FIXED | PERCENT
    value: Required[int]  # sums for FIXED, percent for PERCENT
    maxDiscount: int | None
    validFrom: datetime | None
    validTo: datetime | None
    usageLimit: int | None
    used: int
    usedBy: list[ObjectId]
    createdAt: datetime
    changedIn: int  # the change version of the last operator change (`data.counters`)
