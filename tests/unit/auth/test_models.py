"""The auth routes' own request types: a phone number and a PINFL."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from auth.models import Phone, Pinfl
from tests.factories import valid_pinfl


@pytest.mark.parametrize("raw", ["+998901234567", "+998 90 123-45-67", "+14155550123"])
def test_phone_accepts_e164_and_normalises_separators(raw: str) -> None:
    assert TypeAdapter(Phone).validate_python(raw).startswith("+")


@pytest.mark.parametrize("raw", ["998901234567", "+0998901234567", "+99890", "phone"])
def test_phone_refuses_numbers_without_country_prefix(raw: str) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(Phone).validate_python(raw)


def test_a_pinfl_with_a_wrong_check_digit_is_refused() -> None:
    # Given a PINFL and the same 13 digits with another check digit
    pin = valid_pinfl("3010199000001")
    wrong = pin[:13] + str((int(pin[13]) + 1) % 10)

    # When each is validated as a request's PINFL
    # Then the right one passes as it is, the other is refused
    assert TypeAdapter(Pinfl).validate_python(pin) == pin
    with pytest.raises(ValidationError):
        TypeAdapter(Pinfl).validate_python(wrong)
