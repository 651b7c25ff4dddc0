"""PINFL (JShShIR), the personal identification number: 14 digits, the last a check digit.

Here, not in edge.validation, because request types and the identity provider's adapters both check it."""

from __future__ import annotations

PINFL_WEIGHTS = (7, 3, 1)


def pinfl_check_digit(first13: str) -> str:
    """The 14th digit of a PINFL: the weighted sum (7, 3, 1, ...) of the first 13 digits, mod 10."""
    return str(sum(int(digit) * PINFL_WEIGHTS[i % 3] for i, digit in enumerate(first13)) % 10)


def pinfl_is_valid(value: str) -> bool:
    """PINFL (JShShIR): 14 digits; the last is the check digit of the first 13."""
    if len(value) != 14 or not value.isdigit():
        return False
    return value[13] == pinfl_check_digit(value[:13])
