"""Per-instance caching of reference data that changes rarely: brands, body types, powertrains, regions and
branches, banks and the other organizations with their financing programs. A warm Lambda instance reads
them once per REFERENCE_CACHE_SECONDS (default 60) instead of on every request, so a GET needs only the
round trips for what is really per request (the car and its prices, stock, the caller's own data).

Prices, stock, orders and anything a caller owns are never cached. An operator's change to reference data
reaches every instance within the lifetime. 0 turns caching off (the tests do, except those about it,
which drive the injectable clock). Entries are keyed by database name as well, so a process that switches
databases (tests, the local server) never sees another's data. Cached values are shared between requests:
callers treat them as read-only.

Each reading has a generation (`generation`): a number that changes whenever the data is read again, so
what is derived from it can tell whether it is still derived from what the cache answers now.

A function names the argument-less loaders its routes read (`preload(store.all_brands, ...)`, in its
service module): a SnapStart restore reads them right after emptying the caches (edge.snapstart through
`data.caches.load_caches`), so the first request of a restored instance finds them cached.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable
from datetime import timedelta
from typing import Any, NamedTuple

from core import clock
from core.settings import get_settings
from data.caches import BoundedCache, register_loader

MAX_ENTRIES = 1000


class RenderingCache:
    """Values derived from reference data, kept for REFERENCE_CACHE_SECONDS per database, at most
    `max_entries` of them (`data.caches.BoundedCache`: when full, what has expired is forgotten, or else
    everything). Renderings with a key per car or per client input get a cache of their own, so that
    many of them never push out the brands and branches every request reads. Values are shared between
    requests: never changed once kept."""

    def __init__(self, max_entries: int) -> None:
        self._entries: BoundedCache[Any] = BoundedCache(max_entries)

    def kept(self, key: Hashable) -> Any | None:
        """What `keep` kept under `key` within its lifetime; None when nothing is, or caching is off."""
        settings = get_settings()
        if settings.reference_cache_seconds == 0:
            return None
        entry = self._entries.get((settings.mongodb_db, key), clock.now())
        return None if entry is None else entry.value

    def keep(self, key: Hashable, value: object) -> None:
        """Keep `value` under `key` for REFERENCE_CACHE_SECONDS, unless caching is off or it is None."""
        settings = get_settings()
        if settings.reference_cache_seconds == 0 or value is None:
            return
        now = clock.now()
        expires = now + timedelta(seconds=settings.reference_cache_seconds)
        self._entries.put((settings.mongodb_db, key), value, expires=expires, now=now)


class Reading[T](NamedTuple):
    """What a loader read, and the generation of that reading (never given to another)."""

    value: T
    generation: int


_cache = RenderingCache(MAX_ENTRIES)  # the `Reading`s of what `reference_data` loads
_generations = itertools.count(1)
# A cached loader's name (its module and qualified name, which a `functools.wraps` wrapper of it shares) ->
# its reading, by the loader's arguments (`generation`).
_readers: dict[tuple[str, str], Callable[[tuple[Any, ...], dict[str, Any]], Reading[Any]]] = {}
_preloads: dict[Callable[[], object], Callable[[], None]] = {}  # a loader -> what data.caches runs for it


def reference_data[**P, T](load: Callable[P, T]) -> Callable[P, T]:
    """Cache what `load` returns, by its (hashable) arguments, for REFERENCE_CACHE_SECONDS. None (not
    found) is not kept: what an operator has just created is found at once. What it returns is shared by
    the process's requests until it expires, so no caller changes it (docs/DECISIONS.md, "Import-time
    work")."""

    name = (load.__module__, load.__qualname__)

    def read(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Reading[T]:
        key = (name, args, tuple(sorted(kwargs.items())) if kwargs else ())
        found: Reading[T] | None = _cache.kept(key)
        if found is not None:
            return found
        value = load(*args, **kwargs)
        reading = Reading(value, next(_generations))
        if value is not None:
            _cache.keep(key, reading)
        return reading

    @functools.wraps(load)
    def cached(*args: P.args, **kwargs: P.kwargs) -> T:
        return read(args, kwargs).value

    _readers[name] = read
    return cached


def generation(cached: Callable[..., object], *args: Any, **kwargs: Any) -> int:
    """The generation of what the `reference_data` loader `cached` answers now for these arguments (read
    if it is not cached): it changes each time the data is read again, and so on every call with caching
    off."""
    return _readers[(cached.__module__, cached.__qualname__)](args, kwargs).generation


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
