"""Request bodies and responses of the transaction routes. Validation messages never echo a card number, an expiry
or a code, and neither does a body's repr (Powertools logs the handler's arguments at DEBUG)."""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, WithJsonSchema

from core.errors import invalid_value
from core.models import ApiModel, Id, Sums, Timestamp
from domain.payments.cards import (
    CARD_NUMBER_PATTERN,
    PAYABLE_TYPES,
    PREFIXES,
    ECardType,
    parse_card_number,
    parse_expiry,
)
from domain.payments.records import RefundState, Status
from edge.validation import DocumentedAs, Money, MongoId, RequestModel

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
# `format: card-number` and `format: card-expiry` name what no pattern can state: the Luhn check digit,
# an expiry not yet past (tests/schemathesis_formats.py generates both).
CardNumber = Annotated[
    str,
    StringConstraints(max_length=40),
    AfterValidator(parse_card_number),
    DocumentedAs(
        pattern=CARD_NUMBER_PATTERN,
        format="card-number",
        description="16 digits, single spaces allowed between them, the last the Luhn check digit",
        examples=["8600 4954 7331 6478"],
    ),
]
Expiry = Annotated[
    str,
    AfterValidator(_expiry),
    DocumentedAs(
        pattern="^(0[1-9]|1[0-2])/[0-9]{2}$",
        format="card-expiry",
        description="MM/YY, the card's last valid month: this month or later (400 when past)",
        examples=["12/30"],
    ),
]
Otp = Annotated[
    str,
    StringConstraints(min_length=1, max_length=6),
    AfterValidator(_otp),
    DocumentedAs(pattern="^[0-9]{6}$", description="the 6-digit code sent to the card holder", examples=["666666"]),
]
# Transaction ids stay within what a JSON number holds exactly in every client (2^53 - 1).
TransactionId = Annotated[int, Field(gt=0, le=2**53 - 1)]


def _payable_card_schema(schema: dict[str, Any]) -> None:
    """Card payments take UZCARD and HUMO only, and `cardType` must be the number's network: one
    branch per payable network, its number's prefix from the table of networks."""
    schema["oneOf"] = [
        {
            "properties": {
                "cardType": {"const": card_type.value},
                "cardNumber": {"pattern": "^" + " ?".join(prefix)},
            }
        }
        for prefix, _, card_type in PREFIXES
        if card_type in PAYABLE_TYPES
    ]


class CreateBody(RequestModel):
    model_config = ConfigDict(json_schema_extra=_payable_card_schema)

    amount: Amount
    cardNumber: CardNumber = Field(repr=False)
    expiry: Expiry = Field(repr=False)
    cardType: ECardType
    brandId: MongoId
    orderId: MongoId


class ApplyBody(RequestModel):
    transactionId: TransactionId
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
