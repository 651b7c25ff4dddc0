"""The figures `make bench ARGS=--sale` prints for a wave (tools/sale_bench.py): percentiles by nearest rank, the
statuses with the refusals' codes, units sold from the stock."""

from __future__ import annotations

from tools.sale_bench import TimedAnswer, Wave, percentile


def test_percentiles_are_nearest_rank_of_the_sorted_latencies() -> None:
    # Given 100 latencies of 1..100 ms, and a single one
    latencies = [n / 1000 for n in range(1, 101)]
    # Then p50 and p99 are the 50th and 99th, and one latency is every percentile
    assert (percentile(latencies, 0.50), percentile(latencies, 0.99)) == (0.050, 0.099)
    assert percentile([0.2], 0.99) == 0.2
    assert percentile([], 0.5) == 0.0


def test_a_wave_prints_units_sold_statuses_with_codes_and_its_rate() -> None:
    # Given a rush of four buyers for two units: two placed, two told it ran out, over 0.5 s
    answers = [
        TimedAnswer(status=201, code=None, seconds=0.1),
        TimedAnswer(status=409, code="OUT_OF_STOCK", seconds=0.2),
        TimedAnswer(status=201, code=None, seconds=0.4),
        TimedAnswer(status=409, code="OUT_OF_STOCK", seconds=0.5),
    ]
    wave = Wave(label="rush", answers=answers, wall_seconds=0.5, units=2, orders_stored=2, stock_left=0)
    # When it is printed
    lines = wave.lines()
    # Then it says what was sold, how each buyer was answered, and how fast
    assert lines == [
        "rush",
        "  units sold 2 of 2 (orders stored 2, stock left 0)",
        "  statuses 201 x2, 409 x2 (OUT_OF_STOCK x2); 5xx 0",
        "  p50 200 ms, p99 500 ms, 8.0 answers per second (4 answers in 0.50 s)",
    ]
