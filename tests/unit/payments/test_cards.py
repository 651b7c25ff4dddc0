"""Card rules without I/O: Luhn, the network table, the mask, the expiry, the OTP and amount inputs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from domain.payments import cards
from domain.payments.cards import ECardType
from domain.payments.processor import to_tiyin
from domain.payments.sandbox import BLOCKED_CARD, INSUFFICIENT_FUNDS_CARD, PAYS_HUMO, PAYS_UZCARD
from transactions.models import ApplyBody


@pytest.mark.parametrize("number", [PAYS_UZCARD, PAYS_HUMO, INSUFFICIENT_FUNDS_CARD, BLOCKED_CARD, "4111111111111111"])
def test_valid_numbers_pass_luhn(number: str) -> None:
    assert cards.luhn_is_valid(number)


@pytest.mark.parametrize("number", ["8600495473316479", "4111111111111112", "1234567812345678"])
def test_a_wrong_check_digit_fails_luhn(number: str) -> None:
    assert not cards.luhn_is_valid(number)


def test_spaces_are_stripped_and_16_digits_required() -> None:
    assert cards.parse_card_number(" 8600 4954 7331 6478 ") == PAYS_UZCARD
    for raw in ["8600 4954 7331 647", "8600495473316478 0", "8600-4954-7331-6478", "86004954733164७8", ""]:
        with pytest.raises(ValueError, match="CARD_NUMBER_LENGTH"):
            cards.parse_card_number(raw)
    with pytest.raises(ValueError, match="CARD_NUMBER_CHECKSUM"):
        cards.parse_card_number("8600495473316479")


def test_refusals_never_echo_the_number() -> None:
    with pytest.raises(ValueError, match="CARD_NUMBER_CHECKSUM") as refused:
        cards.parse_card_number("8600495473316479")
    assert "8600" not in str(refused.value)


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("8600", ECardType.UZCARD),
        ("9860", ECardType.HUMO),
        ("4", ECardType.VISA),
        ("51", ECardType.MASTERCARD),
        ("55", ECardType.MASTERCARD),
        ("2221", ECardType.MASTERCARD),
        ("2720", ECardType.MASTERCARD),
        ("62", ECardType.UNIONPAY),
        ("2200", ECardType.MIR),
        ("2204", ECardType.MIR),
        ("2205", None),
        ("2721", None),
        ("50", None),
        ("56", None),
        ("8601", None),
        ("9861", None),
        ("3", None),
    ],
)
def test_the_network_comes_from_the_prefix(prefix: str, expected: ECardType | None) -> None:
    assert cards.detect_type(prefix.ljust(16, "0")) == expected


def test_only_the_domestic_networks_are_payable() -> None:
    assert sorted(cards.PAYABLE_TYPES) == [ECardType.HUMO, ECardType.UZCARD]


def test_the_mask_keeps_the_first_six_and_last_four_digits() -> None:
    assert cards.mask(PAYS_UZCARD) == "860049******6478"


@pytest.mark.parametrize("raw", ["1/30", "13/30", "00/30", "12-30", "12/2030", "ab/cd", "12/3"])
def test_malformed_expiry_is_refused(raw: str) -> None:
    with pytest.raises(ValueError, match=r"CARD_EXPIRY_FORMAT|CARD_EXPIRY_MONTH"):
        cards.parse_expiry(raw)


def test_a_card_is_valid_through_the_end_of_its_month_in_tashkent() -> None:
    assert cards.parse_expiry("05/26") == (2026, 5)
    # 31 May 2026, 18:59 UTC is still May in Tashkent (UTC+5)...
    assert not cards.expiry_has_passed(2026, 5, datetime(2026, 5, 31, 18, 59, tzinfo=UTC))
    # ...and 19:00 UTC is already 1 June there.
    assert cards.expiry_has_passed(2026, 5, datetime(2026, 5, 31, 19, 0, tzinfo=UTC))
    assert not cards.expiry_has_passed(2027, 1, datetime(2026, 12, 31, 12, tzinfo=UTC))


def test_amounts_go_to_processors_in_tiyin() -> None:
    assert to_tiyin(150_000) == 15_000_000


def apply_body(otp: object) -> ApplyBody:
    return ApplyBody.model_validate(
        {"transactionId": 1, "otp": otp, "amount": 1, "brandId": "a" * 24, "orderId": "b" * 24}
    )


def test_a_numeric_code_is_padded_back_to_six_digits() -> None:
    assert apply_body(666666).otp == "666666"
    assert apply_body(12345).otp == "012345"
    assert apply_body("012345").otp == "012345"


@pytest.mark.parametrize("otp", ["1234567", "12a456", "", -1, 1.5])
def test_a_malformed_code_is_refused(otp: object) -> None:
    with pytest.raises(ValidationError):
        apply_body(otp)


def test_the_keyed_card_hash_is_stable_and_not_the_number() -> None:
    assert cards.lookup_hash(PAYS_UZCARD) == cards.lookup_hash(PAYS_UZCARD)
    assert cards.lookup_hash(PAYS_UZCARD) != cards.lookup_hash(PAYS_HUMO)
    assert PAYS_UZCARD not in cards.lookup_hash(PAYS_UZCARD)


def _luhn_by_the_book(digits: str) -> bool:
    """The Luhn check as written in ISO/IEC 7812: from the right, every second digit doubled, 9 taken off."""
    total = 0
    for position, digit in enumerate(reversed(digits)):
        value = int(digit) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def test_the_luhn_check_agrees_with_the_book_on_every_length_and_many_numbers() -> None:
    import random

    # Given random digit strings of every length up to 19, and every two-digit string
    numbers = [f"{n:02d}" for n in range(100)]
    rng = random.Random(7812)
    numbers += ["".join(rng.choices("0123456789", k=rng.randint(1, 19))) for _ in range(20_000)]
    # When each is checked, then the answer is the textbook algorithm's
    for number in numbers:
        assert cards.luhn_is_valid(number) == _luhn_by_the_book(number), number
