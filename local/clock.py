"""A clock the processes of `python -m local serve` share: core.clock's seam across processes.

With LOCAL_CLOCK_FILE set, the serving process (its scheduled jobs) and every worker read the time from
that file, an ISO-8601 instant, at each `clock.now()`; whoever writes it (`SharedClock.set`) moves time for
all of them at once, as a test moves a FrozenClock instead of sleeping. Unset, they keep the system's
clock. The deployed functions never run `local`, so it is no seam of theirs."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

from core import clock

ENV = "LOCAL_CLOCK_FILE"


class SharedClock:
    """The time written in a file, read at every call."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> datetime:
        return datetime.fromisoformat(self.path.read_text(encoding="utf-8").strip())

    def set(self, at: datetime) -> None:
        """Move every reader to `at` (the file is replaced whole: no reader sees half an instant)."""
        written = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        written.write_text(at.isoformat(), encoding="utf-8")
        written.replace(self.path)

    def advance(self, seconds: float) -> None:
        self.set(self() + timedelta(seconds=seconds))


def use_shared_clock() -> None:
    """Read the time from LOCAL_CLOCK_FILE when it is set (this process and, by the environment, the
    workers it starts)."""
    path = os.environ.get("LOCAL_CLOCK_FILE")  # ENV
    if path:
        clock.set_clock(SharedClock(Path(path)))
