"""One request's time budget for the calls it makes to partners (card processors, identity providers, the
SMS gateway), and the deadline of one exchange (`Deadline`), which every outbound call keeps: the
outbound port (`core.outbound`) and the webhook transport (`domain.partners.transport`).

A request that talks to a partner starts a budget (`budget`, PROVIDER_BUDGET_SECONDS, below the
function's timeout); every partner call inside it gets what is left of the budget at most, as a whole
(connecting, sending and reading the answer), not per socket read: a partner trickling its answer a
byte at a time cannot hold a request past its budget (`call_within`). A call that cannot finish in
time raises `DeadlineExceeded`, an outage whose outcome is unknown: the caller answers 503 and the
payment reconciliation settles what was left in doubt, so API Gateway never answers a timeout.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from core.settings import get_settings

_deadline: ContextVar[float | None] = ContextVar("provider_deadline", default=None)


class DeadlineExceeded(TimeoutError):
    """The request's budget for partner calls is spent."""


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Partner calls made inside end within `seconds` from now (or an enclosing budget's end, if earlier)."""
    end = time.monotonic() + seconds
    enclosing = _deadline.get()
    token = _deadline.set(end if enclosing is None else min(end, enclosing))
    try:
        yield
    finally:
        _deadline.reset(token)


def within_request_budget[**P, R](function: Callable[P, R]) -> Callable[P, R]:
    """`function` run inside a budget of PROVIDER_BUDGET_SECONDS: an operation of a request that calls
    partners (a card payment's step, an identity verification)."""

    @functools.wraps(function)
    def budgeted(*args: P.args, **kwargs: P.kwargs) -> R:
        with budget(get_settings().provider_budget_seconds):
            return function(*args, **kwargs)

    return budgeted


class Deadline:
    """When one exchange with a partner must be over: `seconds` from now, or the end of the request's budget
    if that comes first. Every blocking step asks `left()` for the time it may take."""

    def __init__(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        budget_end = _deadline.get()
        self.end = end if budget_end is None else min(end, budget_end)

    def left(self) -> float:
        """Seconds left; DeadlineExceeded when none are."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded("the exchange's deadline passed")
        return left


def remaining() -> float | None:
    """Seconds left of the current budget (0 when spent); None outside any budget."""
    end = _deadline.get()
    return None if end is None else max(0.0, end - time.monotonic())


def bounded(timeout: float) -> float:
    """`timeout`, or less if the budget ends sooner; DeadlineExceeded when nothing is left."""
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:
        raise DeadlineExceeded("the request's budget for partner calls is spent")
    return min(timeout, left)


def call_within[T](work: Callable[[], T], seconds: float) -> T:
    """`work()`'s result, or DeadlineExceeded if it has not finished within `seconds` of wall-clock time.

    `work` runs on a daemon thread: a call still blocked when time is up is abandoned (its socket
    timeout ends it later), and the request carries on without it. `work` must not log: the request's
    logging context stays with the request's thread."""
    outcome: list[tuple[bool, object]] = []
    finished = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:
            outcome.append((False, exc))
        finally:
            finished.set()

    threading.Thread(target=run, name="partner-call", daemon=True).start()
    if not finished.wait(seconds):
        raise DeadlineExceeded(f"a partner call did not finish within {seconds:.1f} s")
    succeeded, value = outcome[0]
    if not succeeded:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]
