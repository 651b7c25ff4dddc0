"""Per-instance caching of reference data that changes rarely: brands, body types, powertrains, regions and
branches, banks and the other organizations with their financing programs. A warm Lambda instance reads
them once per REFERENCE_CACHE_SECONDS (default 60) instead of on every request, so a GET needs only the
round trips for what is really per request (the car and its prices, stock, the caller's own data).

Prices, stock, orders and anything a caller owns are never cached. An operator's change to reference data
reaches every instance within the lifetime. 0 turns caching off (the tests do, except those about it,
which drive the injectable clock). Entries are keyed by database name as well, so a process that switches
databases (tests, the local server) never sees another's data. Cached values are shared between requests:
callers treat them as read-only.

A function names the argument-less loaders its routes read (`preload(store.all_brands, ...)`, in its
service module): a SnapStart restore reads them right after emptying the caches (edge.snapstart through
`data.caches.load_caches`), so the first request of a restored instance finds them cached.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from core import clock
from core.settings import get_settings
from data.caches import BoundedCache, register_loader

MAX_ENTRIES = 1000

_cache: BoundedCache[Any] = BoundedCache(MAX_ENTRIES)
_preloads: dict[Callable[[], object], Callable[[], None]] = {}  # a loader -> what data.caches runs for it


def reference_data[**P, T](load: Callable[P, T]) -> Callable[P, T]:
    """Cache what `load` returns, by its (hashable) arguments, for REFERENCE_CACHE_SECONDS. None (not
    found) is not kept: what an operator has just created is found at once."""

    name = (load.__module__, load.__qualname__)

    @functools.wraps(load)
    def cached(*args: P.args, **kwargs: P.kwargs) -> T:
        settings = get_settings()
        if settings.reference_cache_seconds == 0:
            return load(*args, **kwargs)
        key = (settings.mongodb_db, name, args, tuple(sorted(kwargs.items())) if kwargs else ())
        now = clock.now()
        if entry := _cache.get(key, now):
            cached_value: T = entry.value
            return cached_value
        value = load(*args, **kwargs)
        if value is not None:
            _cache.put(key, value, expires=now + timedelta(seconds=settings.reference_cache_seconds), now=now)
        return value

    return cached


def preload(*loaders: Callable[[], object]) -> None:
    """Have these cached, argument-less loaders read again after a SnapStart restore (`data.caches.load_caches`),
    unless caching is off. A function names those its routes read: a restore reads nothing else."""
    for load in loaders:
        if load in _preloads:
            continue

        def fill(load: Callable[[], object] = load) -> None:
            if get_settings().reference_cache_seconds:
                load()

        fill.__qualname__ = f"preload {load.__qualname__}"
        _preloads[load] = fill
        register_loader(fill)
