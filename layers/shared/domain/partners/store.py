"""Partner client keys (`partners`): stored as SHA-256 hashes with the partner's name and an active flag."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import TypedDict

from core import clock
from core.settings import get_settings
from data.caches import BoundedCache
from data.mongo import Index, get_db

# Every query is by `_id` (the key's hash): no index of its own.
INDEXES: list[Index] = []

MAX_CACHED_KEYS = 1000


class Partner(TypedDict):
    """An active partner as the gate reads it: the key's hash and the partner's name ("" if it has none)."""

    _id: str
    name: str


# Unknown keys are kept too (as None): a client retrying a wrong key must not reach the database each time.
_cache: BoundedCache[Partner | None] = BoundedCache(MAX_CACHED_KEYS)


def hash_client_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def find_active_partner(client_key: str) -> Partner | None:
    """The active partner owning this key, or None. Cached briefly per process: every request asks."""
    key_hash = hash_client_key(client_key)
    now = clock.now()
    if cached := _cache.get(key_hash, now):
        return cached.value
    found = get_db().partners.find_one({"_id": key_hash, "active": True}, {"name": 1})
    partner = None if found is None else Partner(_id=key_hash, name=str(found.get("name", "")))
    _cache.put(key_hash, partner, expires=now + timedelta(seconds=get_settings().partner_cache_seconds), now=now)
    return partner


def register_partner(client_key: str, name: str, *, active: bool = True) -> None:
    get_db().partners.update_one(
        {"_id": hash_client_key(client_key)},
        {"$set": {"name": name, "active": active}, "$setOnInsert": {"createdAt": clock.now()}},
        upsert=True,
    )
    _cache.clear()
