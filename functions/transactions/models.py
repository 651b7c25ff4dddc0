"""Request bodies and responses of the transaction routes. Validation messages never echo a card number, an expiry
or a code, and neither does a body's repr (Powertools logs the handler's arguments at DEBUG)."""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, WithJsonSchema, model_validator

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
from domain.payments.records import RefundState, TransactionStatus
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
CardToken = Annotated[
    str,
    StringConstraints(min_length=1, max_length=4096),
    DocumentedAs(
        pattern="^[!-~]+$",
        description="the card token the card processor gave the partner's app (Payme: `result.card.token` of "
        "`cards.create`, called from the app with the cashbox id): the card number never reaches us",
        examples=["NTg0YTg0ZDYyYWJiNWNhYTMxMDc5OTE0X1VnYU02ME92IUttWHVHRThJODRJNWE0"],
    ),
]
CARD_ENTRY = (
    "The card comes one of two ways, as the stage's card processor takes it: `cardNumber`, `expiry` and "
    "`cardType` (ATMOS), or `cardToken` (Payme: its rules forbid a merchant's server from receiving card "
    "numbers, so the app tokenizes the card with Payme's front-end `cards.create`). The sandbox takes both; "
    "a form the processor does not take is 400 `CARD_ENTRY_NOT_ACCEPTED`, `details.accepted` naming what it takes."
)


def _token_text(value: str) -> str:
    if not value.isascii() or not value.isprintable() or " " in value:
        raise invalid_value("CARD_TOKEN_FORMAT")
    return value


# Transaction ids stay within what a JSON number holds exactly in every client (2^53 - 1).
TransactionId = Annotated[int, Field(gt=0, le=2**53 - 1)]


NUMBER_FIELDS = ("cardNumber", "expiry", "cardType")


def _payable_card_schema(schema: dict[str, Any]) -> None:
    """The card by number or by token, never both. By number: UZCARD and HUMO only, and `cardType` must
    be the number's network (one branch per payable network, its number's prefix from the table of
    networks)."""
    schema["oneOf"] = [
        *(
            {
                "required": list(NUMBER_FIELDS),
                "not": {"required": ["cardToken"]},
                "properties": {
                    "cardType": {"const": card_type.value},
                    "cardNumber": {"type": "string", "pattern": "^" + " ?".join(prefix)},
                    "expiry": {"type": "string"},
                },
            }
            for prefix, _, card_type in PREFIXES
            if card_type in PAYABLE_TYPES
        ),
        {
            "required": ["cardToken"],
            "not": {"anyOf": [{"required": [name]} for name in NUMBER_FIELDS]},
            "properties": {"cardToken": {"type": "string"}},
        },
    ]


def _by_number_or_token(body: "CreateBody | ResendBody", number_fields: tuple[str, ...]) -> None:
    """The card's number fields, all of them and not null, or its token (not null) alone: what was sent
    counts, a null too, as the schema's `oneOf` reads the body."""
    sent = body.model_fields_set
    if "cardToken" in sent:
        if body.cardToken is None or any(name in sent for name in number_fields):
            raise invalid_value("CARD_NUMBER_OR_TOKEN")
    elif any(getattr(body, name) is None for name in number_fields):
        raise invalid_value("CARD_NUMBER_OR_TOKEN")


class CreateBody(RequestModel):
    model_config = ConfigDict(json_schema_extra=_payable_card_schema)

    amount: Amount
    cardNumber: CardNumber | None = Field(default=None, repr=False)
    expiry: Expiry | None = Field(default=None, repr=False)
    cardType: ECardType | None = None
    cardToken: Annotated[CardToken, AfterValidator(_token_text)] | None = Field(default=None, repr=False)
    brandId: MongoId
    orderId: MongoId

    @model_validator(mode="after")
    def number_or_token(self) -> "CreateBody":
        _by_number_or_token(self, NUMBER_FIELDS)
        return self


class ApplyBody(RequestModel):
    transactionId: TransactionId
    otp: Otp = Field(repr=False)
    amount: Amount
    brandId: MongoId
    orderId: MongoId


def _number_or_token_schema(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [
        {
            "required": ["cardNumber"],
            "not": {"required": ["cardToken"]},
            "properties": {"cardNumber": {"type": "string"}},
        },
        {
            "required": ["cardToken"],
            "not": {"required": ["cardNumber"]},
            "properties": {"cardToken": {"type": "string"}},
        },
    ]


class ResendBody(RequestModel):
    """The card of the pending payment, as create was given it: its number, or its token."""

    model_config = ConfigDict(json_schema_extra=_number_or_token_schema)

    amount: Amount
    cardNumber: CardNumber | None = Field(default=None, repr=False)
    cardToken: Annotated[CardToken, AfterValidator(_token_text)] | None = Field(default=None, repr=False)

    @model_validator(mode="after")
    def number_or_token(self) -> "ResendBody":
        _by_number_or_token(self, ("cardNumber",))
        return self


# Responses

TransactionState = Annotated[
    TransactionStatus,
    WithJsonSchema(
        {"title": "TransactionStatus", "type": "string", "enum": [state.value for state in TransactionStatus]}
    ),
]


class CardCheck(ApiModel):
    type: ECardType = Field(description="the card's network, from its number")


class TransactionRef(ApiModel):
    transactionId: int = Field(gt=0, description="pass it to apply with the code sent to the card holder")
    codeExpiresAt: Timestamp = Field(description="until when the code sent is valid (after it: resend-code)")
    codeValidSeconds: int = Field(
        gt=0,
        description="how long the code is valid from its sending: as long as the card processor says (Payme's "
        "`wait`), else 120 s",
        examples=[120],
    )


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
