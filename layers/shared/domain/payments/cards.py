"""Bank cards: number checks (16 digits, Luhn), the network from the prefix, the mask, the expiry.

A card number lives only in the memory of one request: it is stored masked (`860049******6478`) and
as a keyed hash (to find the transaction again on resend), never in clear, and never logged.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from core.clock import TASHKENT
from core.errors import invalid_value
from core.secrets import keyed_hash

CARD_LENGTH = 16
# What a client should send: the 16 digits, single spaces allowed between them (parse_card_number also
# takes other whitespace).
CARD_NUMBER_PATTERN = "^(?:[0-9] ?){15}[0-9]$"


class ECardType(StrEnum):
    UZCARD = "UZCARD"
    HUMO = "HUMO"
    VISA = "VISA"
    MASTERCARD = "MASTERCARD"
    UNIONPAY = "UNIONPAY"
    MIR = "MIR"


# The one table of networks: (lowest prefix, highest prefix, network), bounds of equal length, inclusive.
PREFIXES: tuple[tuple[str, str, ECardType], ...] = (
    ("8600", "8600", ECardType.UZCARD),
    ("9860", "9860", ECardType.HUMO),
    ("2200", "2204", ECardType.MIR),
    ("2221", "2720", ECardType.MASTERCARD),
    ("51", "55", ECardType.MASTERCARD),
    ("62", "62", ECardType.UNIONPAY),
    ("4", "4", ECardType.VISA),
)

# Card payments (create, apply) accept the domestic networks only.
PAYABLE_TYPES = frozenset({ECardType.UZCARD, ECardType.HUMO})


# What the Luhn check adds for a digit it doubles, as a digit: the digits of its double (7 -> 14 -> 1 + 4).
DOUBLED_DIGITS = bytes.maketrans(b"0123456789", b"0246813579")


def luhn_is_valid(digits: str) -> bool:
    """The Luhn check of a string of ASCII digits: from the right, every second digit doubled. The digits
    are summed as their character codes, less the code of "0" for each, rather than converted one by one
    with `int()`."""
    codes = digits.encode()
    added = codes[-1::-2] + codes[-2::-2].translate(DOUBLED_DIGITS)
    return (sum(added) - ord("0") * len(added)) % 10 == 0


def parse_card_number(raw: str) -> str:
    """The 16 digits of a card number written with or without spaces; refused with its code (never echoing it)."""
    digits = "".join(raw.split())
    if len(digits) != CARD_LENGTH or not digits.isascii() or not digits.isdigit():
        raise invalid_value("CARD_NUMBER_LENGTH")
    if not luhn_is_valid(digits):
        raise invalid_value("CARD_NUMBER_CHECKSUM")
    return digits


def detect_type(digits: str) -> ECardType | None:
    for low, high, card_type in PREFIXES:
        if low <= digits[: len(low)] <= high:
            return card_type
    return None


def mask(digits: str) -> str:
    """`8600495473316478` -> `860049******6478`: the first six and last four digits, as card slips show."""
    return f"{digits[:6]}{'*' * (len(digits) - 10)}{digits[-4:]}"


def lookup_hash(digits: str) -> str:
    """A keyed hash of the full number: finds a card's transaction again without storing the number."""
    return keyed_hash("card-number", digits)


def token_lookup_hash(token: str) -> str:
    """A keyed hash of a processor's card token, which stands for the card as `lookup_hash` does."""
    return keyed_hash("card-token", token)


def parse_expiry(raw: str) -> tuple[int, int]:
    """`MM/YY` -> (year, month); refused with its code for another format or a month outside 01-12."""
    month_text, separator, year_text = raw.partition("/")
    if not separator or len(month_text) != 2 or len(year_text) != 2 or not (month_text + year_text).isdigit():
        raise invalid_value("CARD_EXPIRY_FORMAT")
    month = int(month_text)
    if not 1 <= month <= 12:
        raise invalid_value("CARD_EXPIRY_MONTH")
    return 2000 + int(year_text), month


def expiry_has_passed(year: int, month: int, now: datetime) -> bool:
    """A card is valid through the last day of its expiry month, in Uzbekistan's time."""
    today = now.astimezone(TASHKENT)
    return (year, month) < (today.year, today.month)
