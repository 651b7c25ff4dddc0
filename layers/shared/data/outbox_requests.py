"""What a request wrote to the outbox (`data.outbox`): the aggregates it added events for, which the outbox
delivers right after the request (`data.outbox.flush`). Apart from the outbox, which only the functions that
write events import: the edge starts every request of every function (`start_request`) and asks whether it
wrote any (`touched`) before it imports the outbox to deliver them."""

from __future__ import annotations

from contextvars import ContextVar

_touched: ContextVar[frozenset[str]] = ContextVar("outbox_touched", default=frozenset())


def start_request() -> None:
    """Forget what a previous request on this thread touched."""
    _touched.set(frozenset())


def touch(aggregate: str) -> None:
    """This request wrote an event of `aggregate` (`data.outbox.add`, in the change's transaction)."""
    _touched.set(_touched.get() | {aggregate})


def touched() -> frozenset[str]:
    """The aggregates this request wrote events for, not delivered yet."""
    return _touched.get()


def take() -> frozenset[str]:
    """The aggregates this request wrote events for, forgotten: their delivery is the caller's."""
    aggregates = _touched.get()
    _touched.set(frozenset())
    return aggregates
