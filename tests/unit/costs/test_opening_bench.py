"""The sums `make bench ARGS=--opening` (tools/opening_bench.py) prints: the rank correlation of arrival and
position, and whether every unit that came back went to a later person in the queue."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tools.opening_bench import Returned, Taken, ranks, refresh_gaps, returns_resold, spearman

START = datetime(2026, 12, 1, 10, tzinfo=UTC)


def at(seconds: int) -> datetime:
    return START + timedelta(seconds=seconds)


def test_ties_share_the_mean_of_their_ranks() -> None:
    # Given arrivals stamped to the millisecond, two of them in the same one / When they are ranked
    # Then the two share ranks 2 and 3
    assert ranks([at(1), at(2), at(2), at(5)]) == [1.0, 2.5, 2.5, 4.0]


@pytest.mark.parametrize(
    ("positions", "expected"),
    [([1, 2, 3, 4, 5], 1.0), ([5, 4, 3, 2, 1], -1.0), ([4, 1, 3, 5, 2], 0.0)],
)
def test_the_rank_correlation_of_arrival_and_position(positions: list[int], expected: float) -> None:
    # Given five people arriving one after another and their drawn positions
    arrivals = [at(n) for n in range(5)]
    # When arrival and position are correlated / Then first come first served is 1, reversed -1, unrelated 0
    assert spearman(arrivals, positions) == pytest.approx(expected)


def test_a_unit_that_came_back_counts_once_and_only_for_a_person_admitted_after_it_and_later_in_the_queue() -> None:
    # Given units that came back at 60 s (held by position 1) and 120 s (position 6)
    returned = [Returned(at=at(60), position=1), Returned(at=at(120), position=6)]
    # When the orders after them are one by a person admitted before the first came back, and one by position 7
    # admitted at 61 s
    taken = [Taken(admitted_at=at(0), position=2), Taken(admitted_at=at(61), position=7)]
    # Then only one unit went to a later person: position 7 came after the first return, before the second
    assert returns_resold(returned, taken) == 1
    # When position 8 is admitted after the second came back / Then both went to later people
    assert returns_resold(returned, [*taken, Taken(admitted_at=at(121), position=8)]) == 2


def test_the_gaps_between_the_status_refreshes_are_the_seconds_between_its_stamps() -> None:
    # Given three stamps of status.json as the controller writes them / When the gaps are taken
    # Then they are the seconds between successive ones
    assert refresh_gaps(["2026-12-01T10:00:00.000000Z", "2026-12-01T10:00:01.250000Z", "2026-12-01T10:00:40Z"]) == [
        1.25,
        38.75,
    ]
