"""Counting the MongoDB commands a piece of code sends (pymongo command monitoring), split into reads and
writes: what `make bench` prints per sample event and what the round-trip tests assert.

counter = CommandCounter()
reset_client(event_listeners=[counter])   # data.mongo: the next client reports to it
with counter.counting() as counts:
    handler(event, context)
counts.reads, counts.writes, counts.total
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pymongo import monitoring

READS = frozenset({"find", "getMore", "aggregate", "count", "distinct", "listCollections", "listIndexes"})
WRITES = frozenset(
    {"insert", "update", "delete", "findAndModify", "bulkWrite", "commitTransaction", "create", "createIndexes"}
)
# An aggregation ending in one of these stages writes.
WRITING_STAGES = ("$out", "$merge")


@dataclass
class Counts:
    """The commands seen in one window, by name, in order."""

    names: list[str] = field(default_factory=list)
    commands: list[dict[str, object]] = field(default_factory=list)  # as sent (`make bench --scale` explains them)
    reads: int = 0
    writes: int = 0

    @property
    def total(self) -> int:
        """Every command sent, reads, writes and any other (`endSessions`, `abortTransaction`...)."""
        return len(self.names)


def is_write(command_name: str, command: object) -> bool:
    if command_name in WRITES:
        return True
    if command_name == "aggregate" and isinstance(command, dict):
        return any(stage in step for step in command.get("pipeline", []) for stage in WRITING_STAGES)
    return False


class CommandCounter(monitoring.CommandListener):
    """A command listener that counts into the open `counting()` window (and ignores commands outside one)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window: Counts | None = None

    @contextmanager
    def counting(self) -> Iterator[Counts]:
        counts = Counts()
        with self._lock:
            self._window = counts
        try:
            yield counts
        finally:
            with self._lock:
                self._window = None

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        with self._lock:
            counts = self._window
            if counts is None:
                return
            counts.names.append(event.command_name)
            counts.commands.append(dict(event.command))
            if is_write(event.command_name, event.command):
                counts.writes += 1
            elif event.command_name in READS:
                counts.reads += 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass
