"""Per-process caches: each is bounded and registers itself, so that whoever must forget them all can
without knowing who owns them: the SnapStart restore hook (edge.snapstart), whose instance may start days
after the snapshot and must not trust what the snapshotted process had cached, and the tests.

A cache whose owner knows what every request will read (every brand, the active partners' keys) also
registers a loader: the restore hook, once connected, runs them all (`load_caches`), so the first
request of a restored instance reads no more than the second."""

import threading
from collections.abc import Callable, Hashable
from datetime import datetime
from typing import NamedTuple

_lock = threading.Lock()
_clears: list[Callable[[], None]] = []
_loaders: list[Callable[[], object]] = []


def register_cache(clear: Callable[[], None]) -> None:
    """Register the function that empties a per-process cache."""
    with _lock:
        if clear not in _clears:
            _clears.append(clear)


def clear_caches() -> None:
    """Empty every registered cache."""
    with _lock:
        clears = list(_clears)
    for clear in clears:
        clear()


def register_loader(load: Callable[[], object]) -> None:
    """Register a function that fills a per-process cache with what requests will read (from MongoDB)."""
    with _lock:
        if load not in _loaders:
            _loaders.append(load)


def load_caches() -> list[tuple[str, Exception]]:
    """Run every registered loader; those that failed, by name, with what they raised. The others go
    on: what a failed one did not load, the first request that needs it reads. Never raises."""
    with _lock:
        loaders = list(_loaders)
    failed = []
    for load in loaders:
        try:
            load()
        except Exception as error:
            failed.append((getattr(load, "__qualname__", repr(load)), error))
    return failed


class Entry[V](NamedTuple):
    expires: datetime
    value: V


class BoundedCache[V]:
    """Values kept until they expire, at most `max_entries` of them. Keys may come from clients (an id, a
    partner key), so they must not grow a warm instance's memory: when full, what has expired is
    forgotten, or else everything. Safe to share between threads; registered with `clear_caches`."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._entries: dict[Hashable, Entry[V]] = {}
        register_cache(self.clear)

    def get(self, key: Hashable, now: datetime) -> Entry[V] | None:
        """The entry of `key` if it has not expired at `now`."""
        with self._lock:
            entry = self._entries.get(key)
        return entry if entry is not None and entry.expires > now else None

    def put(self, key: Hashable, value: V, *, expires: datetime, now: datetime) -> None:
        with self._lock:
            if len(self._entries) >= self.max_entries:
                for stale in [name for name, entry in self._entries.items() if entry.expires <= now]:
                    del self._entries[stale]
                if len(self._entries) >= self.max_entries:
                    self._entries.clear()
            self._entries[key] = Entry(expires, value)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
