"""The string formats openapi.json names beyond JSON Schema's own, as schemathesis strategies.

A `format` says what no `pattern` can: a PINFL's check digit, a card number's Luhn digit, an expiry not
yet past. Registered here, schemathesis generates values the server accepts, so its positive data
tests the routes rather than the checksums. Imported by tests/integration/contract/test_fuzz.py; for the CLI:
`SCHEMATHESIS_HOOKS=tests.schemathesis_formats st run ...`.
"""

from __future__ import annotations

import schemathesis
from hypothesis import strategies as st

from core.clock import TASHKENT, now
from core.pinfl import pinfl_check_digit
from domain.payments.cards import CARD_LENGTH, PREFIXES, luhn_is_valid

# Far enough ahead that a run never meets a month turning over.
EXPIRY_YEARS_AHEAD = (1, 20)


def _luhn_completed(body: str) -> str:
    return next(body + digit for digit in "0123456789" if luhn_is_valid(body + digit))


@st.composite
def card_numbers(draw: st.DrawFn) -> str:
    """A card number of a known network (its prefix from the table), spaced or not, with its Luhn digit."""
    low, high, _ = draw(st.sampled_from(PREFIXES))
    prefix = str(draw(st.integers(int(low), int(high)))).zfill(len(low))
    middle = draw(st.text("0123456789", min_size=CARD_LENGTH - 1 - len(prefix), max_size=CARD_LENGTH - 1 - len(prefix)))
    digits = _luhn_completed(prefix + middle)
    spaced = draw(st.booleans())
    return " ".join(digits[i : i + 4] for i in range(0, CARD_LENGTH, 4)) if spaced else digits


@st.composite
def pinfls(draw: st.DrawFn) -> str:
    first13 = draw(st.text("0123456789", min_size=13, max_size=13))
    return first13 + pinfl_check_digit(first13)


@st.composite
def card_expiries(draw: st.DrawFn) -> str:
    year = now().astimezone(TASHKENT).year + draw(st.integers(*EXPIRY_YEARS_AHEAD))
    return f"{draw(st.integers(1, 12)):02d}/{year % 100:02d}"


schemathesis.openapi.format("pinfl", pinfls())
schemathesis.openapi.format("card-number", card_numbers())
schemathesis.openapi.format("card-expiry", card_expiries())
