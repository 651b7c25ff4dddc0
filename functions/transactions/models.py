"""Request bodies and responses of the transaction routes. Validation messages never echo a card number, an expiry
or a code, and neither does a body's repr (Powertools logs the handler's arguments at DEBUG)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints, WithJsonSchema

from core.errors import invalid_value
from core.models import ApiModel, Id, Sums, Timestamp
from domain.payments.cards import ECardType, parse_card_number, parse_expiry
from domain.payments.store import RefundState, Status
from edge.validation import Money, MongoId, RequestModel

# The order states, as the orders function names them (a function does not import another's package).
OrderStatus = Literal["NEW", "PARTIALLY_PAID", "PAID", "READY", "IMPLEMENTED", "CANCELLED"]


def _otp(value: str) -> str:
    # Clients may send the code as a number, so 012345 arrives as 12345: pad it back to six digits.
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise invalid_value("OTP_FORMAT")
    return value.zfill(6)


def _expiry(value: str) -> str:
    parse_expiry(value)
    return value


Amount = Annotated[Money, Field(description="whole sums")]
CardNumber = Annotated[str, StringConstraints(max_length=40), AfterValidator(parse_card_number)]
Expiry = Annotated[str, AfterValidator(_expiry)]
Otp = Annotated[str, StringConstraints(min_length=1, max_length=6), AfterValidator(_otp)]


class CreateBody(RequestModel):
    amount: Amount
    cardNumber: CardNumber = Field(repr=False, description="16 digits, spaces allowed")
    expiry: Expiry = Field(repr=False, description="MM/YY")
    cardType: ECardType
    brandId: MongoId
    orderId: MongoId


class ApplyBody(RequestModel):
    transactionId: Annotated[int, Field(gt=0, le=2**63 - 1)]
    otp: Otp = Field(repr=False)
    amount: Amount
    brandId: MongoId
    orderId: MongoId


class ResendBody(RequestModel):
    amount: Amount
    cardNumber: CardNumber = Field(repr=False)


# Responses

TransactionState = Annotated[
    Status,
    WithJsonSchema({"title": "TransactionStatus", "type": "string", "enum": [state.value for state in Status]}),
]


class CardCheck(ApiModel):
    type: ECardType = Field(description="the card's network, from its number")


class TransactionRef(ApiModel):
    transactionId: int = Field(gt=0, description="pass it to apply with the code sent to the card holder")


class AppliedPayment(ApiModel):
    transactionId: int = Field(gt=0)
    status: TransactionState = Field(description="CONFIRMED: the money is taken and the order updated")
    amount: Sums = Field(description="whole sums (UZS)")
    orderId: Id
    orderStatus: OrderStatus = Field(description="the order's state after the payment")
    paidAmount: Sums = Field(description="paid on the order so far")
    amountDue: Sums = Field(description="the order's total due")
    amountDueNow: Sums = Field(
        description="what card payments may take in all: amountDue for CASH, the initial payment when financed"
    )
    cardMask: str = Field(description="first 6 and last 4 digits", examples=["860049******6478"])
    cardType: ECardType


class HistoryItem(ApiModel):
    transactionId: int = Field(gt=0)
    amount: Sums = Field(description="whole sums (UZS)")
    status: TransactionState = Field(description="PENDING (waiting for the code), CONFIRMED, FAILED or EXPIRED")
    cardMask: str = Field(examples=["860049******6478"])
    cardType: ECardType
    createdAt: Timestamp
    confirmedAt: Timestamp | None
    refund: RefundState | None = Field(
        description="the money given back to the card: PENDING (asked of the card processor, retried until it is "
        "done) or DONE; null when nothing is refunded. A payment is refunded when its order is cancelled, or "
        "when the order could no longer take it",
    )
    refundedAt: Timestamp | None = Field(description="when the refund was done")
