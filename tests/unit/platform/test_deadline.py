"""core.deadline: one request's budget for partner calls, and a call bounded as a whole."""

from __future__ import annotations

import threading

import pytest

from core import deadline


def test_outside_a_budget_a_call_keeps_its_own_timeout() -> None:
    # Given no budget / When a call asks for its timeout / Then it is its own
    assert deadline.remaining() is None
    assert deadline.bounded(5.0) == 5.0


def test_inside_a_budget_a_call_gets_at_most_what_is_left() -> None:
    # Given a budget of 2 s
    with deadline.budget(2.0):
        # When a call with a 5 s timeout asks / Then it gets 2 s at most
        assert 0 < deadline.bounded(5.0) <= 2.0
        # And a call with a shorter timeout keeps its own
        assert deadline.bounded(0.5) == 0.5
    assert deadline.remaining() is None


def test_an_inner_budget_never_extends_the_outer_one() -> None:
    with deadline.budget(1.0), deadline.budget(60.0):
        left = deadline.remaining()
        assert left is not None
        assert left <= 1.0


def test_a_spent_budget_refuses_the_next_call() -> None:
    with deadline.budget(0.0), pytest.raises(deadline.DeadlineExceeded):
        deadline.bounded(5.0)


def test_a_call_that_does_not_finish_in_time_is_abandoned() -> None:
    # Given a call that blocks until released (a partner that never answers)
    released = threading.Event()
    try:
        # When it is allowed 0.05 s / Then the caller stops waiting with DeadlineExceeded
        with pytest.raises(deadline.DeadlineExceeded):
            deadline.call_within(lambda: released.wait(30), 0.05)
    finally:
        released.set()


def test_a_call_within_its_time_gives_its_result_or_its_error() -> None:
    assert deadline.call_within(lambda: 42, 5.0) == 42

    def fails() -> None:
        raise ValueError("the partner's answer")

    with pytest.raises(ValueError, match="the partner's answer"):
        deadline.call_within(fails, 5.0)


def test_a_function_within_the_request_budget_runs_inside_one() -> None:
    # Given the budget setting / When a budgeted function runs / Then it sees a budget of that size
    seen: list[float | None] = []

    @deadline.within_request_budget
    def step() -> None:
        seen.append(deadline.remaining())

    step()
    assert seen[0] is not None
    assert 0 < seen[0] <= 7.0
