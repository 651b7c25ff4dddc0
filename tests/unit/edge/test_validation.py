from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from core.pinfl import pinfl_is_valid
from edge.validation import MAX_OFFSET, Money, MongoId, Offset
from tests.factories import valid_pinfl


def test_pinfl_check_digit_is_the_weighted_sum_mod_10() -> None:
    # Given 13 digits, the check digit is sum(d_i * (7, 3, 1, 7, ...)) mod 10
    pin = valid_pinfl("3010199000001")
    assert pinfl_is_valid(pin)
    wrong = pin[:13] + str((int(pin[13]) + 1) % 10)
    assert not pinfl_is_valid(wrong)
    assert not pinfl_is_valid("301019900000")
    assert not pinfl_is_valid("3010199000001a")


def test_mongo_id_must_be_24_hex() -> None:
    assert TypeAdapter(MongoId).validate_python("65A1B2C3D4E5F60718293A4B") == "65a1b2c3d4e5f60718293a4b"
    with pytest.raises(ValidationError):
        TypeAdapter(MongoId).validate_python("not-an-id")


def test_offset_is_clamped_so_no_database_meets_an_out_of_range_skip() -> None:
    # Found by fuzzing: an offset past the server's integer range was a 500 from the database.
    # Any offset that large is past the end of every list, so it becomes the largest skip there is.
    assert TypeAdapter(Offset).validate_python(MAX_OFFSET) == MAX_OFFSET
    assert TypeAdapter(Offset).validate_python(10**30) == MAX_OFFSET
    with pytest.raises(ValidationError):
        TypeAdapter(Offset).validate_python(-1)


@pytest.mark.parametrize("raw", [1, 1.0, "1", " 1 ", 10**12])
def test_money_takes_whole_numbers_and_numeric_strings(raw: object) -> None:
    assert TypeAdapter(Money).validate_python(raw) == int(str(raw).strip().removesuffix(".0"))


@pytest.mark.parametrize("raw", [True, False, 0, -1, 1.5, "1.5", "one", None, 10**12 + 1])
def test_money_refuses_booleans_fractions_and_what_is_not_positive(raw: object) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(Money).validate_python(raw)
