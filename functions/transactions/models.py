"""Request bodies of the transaction routes. Validation messages never echo a card number, an expiry
or a code, and neither does a body's repr (Powertools logs the handler's arguments at DEBUG)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from common.validation import Money, MongoId, RequestModel
from transactions.cards import ECardType, parse_card_number, parse_expiry


def _otp(value: str) -> str:
    # Clients may send the code as a number, so 012345 arrives as 12345: pad it back to six digits.
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise ValueError("must be the 6-digit code")
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
