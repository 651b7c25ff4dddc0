"""What keeps a car has one owner (docs/ARCHITECTURE.md, `domain.orders.holds`): the deadlines, the deposit,
lateness and the late refusal are decided there, and nowhere else reads or compares them. Only the order's
document (placement stores the terms holds gives it, the store lists them) and the answer (which asks
holds) name them."""

from __future__ import annotations

import re
from pathlib import Path

from tests.architecture import ROOT

# What only the hold's owner decides: the deadlines and deposit fields, the settings behind them, the refusals.
HOLD_WORDS = re.compile(
    r'"(?:payBy|depositBy|deposit|ORDER_HOLD_EXPIRED|PAYMENT_BELOW_DEPOSIT)"'
    r"|order_(?:deposit_minutes|hold_hours|deposit_percent)"
)
# Where they may be named besides: the settings they are read from, the error catalogue, the document's
# writer and projection, and the answer, which takes them from holds.
ALLOWED = {
    "layers/shared/domain/orders/holds.py",
    "layers/shared/domain/orders/settings.py",
    "layers/shared/edge/error_codes/orders.py",
    "layers/shared/domain/orders/placement.py",
    "layers/shared/domain/orders/store.py",
    "functions/orders/service.py",
}


def test_the_rule_of_what_keeps_a_car_lives_in_one_module() -> None:
    # Given every module of the layer and the functions
    sources = [*ROOT.joinpath("layers", "shared").rglob("*.py"), *ROOT.joinpath("functions").rglob("*.py")]
    # When they are searched for the hold's fields, settings and refusals
    naming = {str(path.relative_to(ROOT)) for path in sources if HOLD_WORDS.search(Path(path).read_text("utf-8"))}
    # Then only the hold's owner and the places that store or answer its terms name them
    assert naming <= ALLOWED, sorted(naming - ALLOWED)
    assert "layers/shared/domain/orders/holds.py" in naming
