"""An injectable clock: code asks `clock.now()`, tests swap in a frozen one instead of sleeping."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

# Uzbekistan keeps UTC+5 all year (no daylight saving time): a fixed offset needs no tz database.
TASHKENT = timezone(timedelta(hours=5), "Asia/Tashkent")


def _system_now() -> datetime:
    # Whole milliseconds from the nanosecond clock, in one call: a double holds today's timestamp in
    # milliseconds / 1000 to within a fraction of a microsecond, which `fromtimestamp` rounds away.
    return datetime.fromtimestamp(time.time_ns() // 1_000_000 / 1000, UTC)


def _in_milliseconds(source: Callable[[], datetime]) -> Callable[[], datetime]:
    def read() -> datetime:
        current = source()
        return current.replace(microsecond=current.microsecond // 1000 * 1000)

    return read


_now: Callable[[], datetime] = _system_now


def now() -> datetime:
    """The current time, timezone-aware UTC, truncated to milliseconds as BSON stores it."""
    return _now()


def set_clock(source: Callable[[], datetime]) -> None:
    global _now  # noqa: PLW0603 (the one seam tests use)
    _now = source if source is _system_now else _in_milliseconds(source)


def reset_clock() -> None:
    set_clock(_system_now)


class FrozenClock:
    """A clock that only moves when told to. It starts at the real time: the database's TTL indexes
    expire documents by the server's clock, so a frozen clock far in the past would lose them."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or _system_now()

    def __call__(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)
