"""A card transaction as `domain.payments.store` returns it, its status and the state of its refund, and
what an apply or the reconciliation changes on it."""

from datetime import datetime
from enum import StrEnum
from typing import Literal, NotRequired, TypedDict

from bson import ObjectId

# A refund of a charge: asked of the processor and not done yet, or done.
RefundState = Literal["PENDING", "DONE"]


class TransactionStatus(StrEnum):
    PENDING = "PENDING"  # code sent, waiting for apply
    CONFIRMING = "CONFIRMING"  # claimed by one apply, talking to the processor
    CONFIRMED = "CONFIRMED"
    FAILED = "FAILED"
    EXPIRED = "EXPIRED"


class Transaction(TypedDict):
    """One card payment of an order. The card number is kept only masked and as a keyed hash."""

    _id: int  # data.counters "transaction"
    userId: ObjectId
    orderId: ObjectId
    brandId: ObjectId
    amount: int  # whole sums
    cardMask: str
    cardType: str  # cards.ECardType
    cardHash: str
    processor: str  # the adapter's name: "sandbox" | "atmos" | "payme"
    processorId: str
    processorToken: str
    otpHash: str | None  # sandbox only
    status: str  # TransactionStatus
    attempts: int  # wrong codes
    resends: int
    lastSentAt: datetime
    expiresAt: datetime
    createdAt: datetime
    updatedAt: datetime
    # Set as the payment goes on
    claimId: NotRequired[str]
    claimedAt: NotRequired[datetime]
    confirmStartedAt: NotRequired[datetime]  # an apply asked the processor to charge
    processorConfirmedAt: NotRequired[datetime]  # the processor said charged
    processorChargeId: NotRequired[str]  # its id of the charge, when it gives one (ATMOS success_trans_id)
    confirmedAt: NotRequired[datetime]
    failureReason: NotRequired[str]
    # "PENDING" | "DONE": the charge is (to be) given back to the card: the order refused it, or was
    # cancelled after it was paid (domain.payments.refunds)
    refund: NotRequired[RefundState]
    refundRequestedAt: NotRequired[datetime]
    refundClaimedUntil: NotRequired[datetime | None]  # an attempt at the processor holds the refund until then
    refundedAt: NotRequired[datetime]


class TransactionChanges(TypedDict, total=False):
    """What an apply or the reconciliation changes on a transaction it holds (`update_claimed`)."""

    status: str
    failureReason: str
    expiresAt: datetime
    confirmStartedAt: datetime
    processorConfirmedAt: datetime
    processorChargeId: str
    refund: RefundState
    refundRequestedAt: datetime
    refundedAt: datetime
