"""Per-process caches, each registered by its owner, so that whoever must forget them all can without
knowing who owns them: the SnapStart restore hook (edge.snapstart), whose instance may start days after
the snapshot and must not trust what the snapshotted process had cached."""

from __future__ import annotations

import threading
from collections.abc import Callable

_lock = threading.Lock()
_clears: list[Callable[[], None]] = []


def register_cache[F: Callable[[], None]](clear: F) -> F:
    """Register the function that empties a per-process cache (usable as a decorator on it)."""
    with _lock:
        if clear not in _clears:
            _clears.append(clear)
    return clear


def clear_caches() -> None:
    """Empty every registered cache."""
    with _lock:
        clears = list(_clears)
    for clear in clears:
        clear()
