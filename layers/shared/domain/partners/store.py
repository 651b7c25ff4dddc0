"""Partner client keys (`partners`): stored as SHA-256 hashes with the partner's name and an active flag."""

from __future__ import annotations

import hashlib
import threading
from datetime import datetime, timedelta
from typing import TypedDict

from core import clock
from core.settings import get_settings
from data.caches import register_cache
from data.mongo import Index, get_db

# Every query is by `_id` (the key's hash): no index of its own.
INDEXES: list[Index] = []

MAX_CACHED_KEYS = 1000


class Partner(TypedDict):
    """An active partner as the gate reads it: the key's hash and the partner's name ("" if it has none)."""

    _id: str
    name: str


_cache: dict[str, tuple[datetime, Partner | None]] = {}
_cache_lock = threading.Lock()


def hash_client_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def find_active_partner(client_key: str) -> Partner | None:
    """The active partner owning this key, or None. Cached briefly per process: every request asks."""
    key_hash = hash_client_key(client_key)
    now = clock.now()
    with _cache_lock:
        cached = _cache.get(key_hash)
    if cached is not None and cached[0] > now:
        return cached[1]
    found = get_db().partners.find_one({"_id": key_hash, "active": True}, {"name": 1})
    partner = None if found is None else Partner(_id=key_hash, name=str(found.get("name", "")))
    ttl = timedelta(seconds=get_settings().partner_cache_seconds)
    with _cache_lock:
        if len(_cache) >= MAX_CACHED_KEYS:
            # Random keys must not grow a warm instance's memory: forget what expired, or else everything.
            for stale in [key for key, (expires, _) in _cache.items() if expires <= now]:
                del _cache[stale]
            if len(_cache) >= MAX_CACHED_KEYS:
                _cache.clear()
        _cache[key_hash] = (now + ttl, partner)
    return partner


def register_partner(client_key: str, name: str, *, active: bool = True) -> None:
    get_db().partners.update_one(
        {"_id": hash_client_key(client_key)},
        {"$set": {"name": name, "active": active}, "$setOnInsert": {"createdAt": clock.now()}},
        upsert=True,
    )
    clear_partner_cache()


@register_cache
def clear_partner_cache() -> None:
    with _cache_lock:
        _cache.clear()
