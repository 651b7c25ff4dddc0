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
    stockBucket: int  # the bucket of a split stock row its unit was taken from (absent: 0, the row itself)
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


class SaleQueueRecord(TypedDict, total=False):
    """A car's fair opening as it runs (`domain.orders.openings`; the rules are the car's `sale.queue`),
    `_id` the car's id. The seed stays here until the draw publishes it."""

    _id: Required[ObjectId]
    seed: Required[str]  # hex, secret until the draw
    seedCommitment: Required[str]  # sha256(seed), hex: published at once
    createdAt: Required[datetime]
    drawnAt: datetime | None  # when the draw ran (None: not yet)
    drawAt: datetime  # the sale's start the draw was made for
    drawn: int  # entries the draw ordered (positions 1..drawn); late ones follow
    drawDigest: str  # sha256 of the closed list the draw ordered (hex): a resumed draw is the same one
    positioned: int  # positions 1..positioned are written (absent: all of them, a draw before it was kept)
    drawPublished: bool  # draw.json is written
    servingUpTo: int  # every position up to it has been admitted
    admittedAt: datetime  # when servingUpTo was last raised
    soldOut: bool
    pace: float  # people admitted a second now (domain.orders.pacing), at most the queue's admissionPerSecond
    credit: float  # the fraction of a person carried over to the next second
    feedback: dict[str, int]  # admitted orders' outcomes: {orders, busy (DATA_BUSY), slow}
    claimedBy: str | None  # the controller's run stepping the queue now (domain.orders.pacing)
    claimedUntil: datetime | None  # when its claim runs out unless renewed


class SaleEntryRecord(TypedDict, total=False):
    """One person's entry in a car's opening (`domain.orders.openings`), one per person and car."""

    _id: Required[ObjectId]
    carId: Required[ObjectId]
    person: Required[str]  # domain.orders.buyers.Buyer.key: the verified PINFL's keyed hash, else the account
    userId: Required[ObjectId]
    registeredAt: Required[datetime]
    late: Required[bool]  # registered at or after the draw's moment: follows the drawn in arrival order
    arrival: int  # a late entry's place among the late ones (1, 2...)
    position: int | None  # its place in the queue, once drawn (a late one: drawn + arrival)
    admittedAt: datetime
    admittedUntil: datetime  # set when the queue's servingUpTo reached its position
    orderId: ObjectId  # the order its admission was used for
