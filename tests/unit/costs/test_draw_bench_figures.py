"""The figures `make bench ARGS=--draw` takes to a million entries (tools/draw_bench.py): in proportion to the
largest count measured, and under SaleAdmission's steps (DRAW_SHARE of each second writing)."""

from __future__ import annotations

from domain.orders import pacing
from tools.draw_bench import Controlled, Parts, table


def test_the_largest_count_is_taken_to_a_million_and_to_the_runs_it_takes() -> None:
    # Given 20,000 and 100,000 entries measured: at 100,000 a read of 0.6 s, an order of 0.4 s, writes of 30 s
    rows = [
        (Parts(20_000, 0.1, 0.1, 7.0, 5.0), Controlled(1.0, 12.0, 1, 0.02)),
        (Parts(100_000, 0.6, 0.4, 30.0, 20.0), Controlled(2.0, 55.0, 1, 0.03)),
    ]
    # When the table is printed
    lines = table(rows)
    # Then each count has its row, writes a second among them
    assert lines[2].split() == ["100,000", "0.60", "0.40", "30.00", "3,333", "20", "2.0", "55.0", "1", "0.03"]
    # And a million entries take ten times the largest: 6 s, 4 s, 300 s and 200 MB
    assert lines[4] == (
        "At 1,000,000 entries (the 100,000 row times 10): read 6 s, order 4 s, write 300 s; memory 200 MB for the "
        "ids and their order (SaleAdmission has 512 MB)"
    )
    # And under SaleAdmission the writes take their share of each step: 10 s + 300 s / share
    expected = 10 + 300 / pacing.DRAW_SHARE
    assert (
        f"every position written {expected:.0f} s after the draw is due, about {expected / 58:.1f} runs of 58 s"
        in (lines[5])
    )
