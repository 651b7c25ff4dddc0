"""Partner client keys: stored as SHA-256 hashes with the partner's name and an active flag."""

from __future__ import annotations

import hashlib
import threading
from datetime import datetime, timedelta
from typing import Any

from core import clock
from core.settings import get_settings
from data.mongo import get_db

MAX_CACHED_KEYS = 1000
_cache: dict[str, tuple[datetime, dict[str, Any] | None]] = {}
_cache_lock = threading.Lock()


def hash_client_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def find_active_partner(client_key: str) -> dict[str, Any] | None:
    """The active partner owning this key, or None. Cached briefly per process: every request asks."""
    key_hash = hash_client_key(client_key)
    now = clock.now()
    with _cache_lock:
        cached = _cache.get(key_hash)
    if cached is not None and cached[0] > now:
        return cached[1]
    partner = get_db().partners.find_one({"_id": key_hash, "active": True}, {"name": 1})
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


def clear_partner_cache() -> None:
    with _cache_lock:
        _cache.clear()
