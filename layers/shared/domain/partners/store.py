"""Partner client keys (`partners`): stored as SHA-256 hashes with the partner's name and an active flag.
Partner webhook endpoints (`partner_webhooks`): one per partner, by the partner's name (the rules are in
`domain.partners.webhooks`)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import NotRequired, TypedDict, cast

from pymongo import ReturnDocument
from pymongo.collection import Collection

from core import clock
from core.settings import get_settings
from data.caches import BoundedCache
from data.mongo import Index, collection, get_db

# Every query is by `_id` (the key's hash; the partner's name for webhooks) or by name for an operator:
# no index of its own.
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


def partner_exists(name: str) -> bool:
    """Whether any partner record has this name (operators name partners by it)."""
    return get_db().partners.find_one({"name": name}, {"_id": 1}) is not None


# --- webhook endpoints ------------------------------------------------------------------------------


class WebhookEndpoint(TypedDict):
    """Where a partner's order events are delivered. `salt` is what its signing secret is derived from
    (`domain.partners.webhooks.signing_secret`), never the secret itself; after a rotation the previous
    salt signs too until `previousUntil`."""

    _id: str  # the partner's name
    url: str
    salt: str
    previousSalt: NotRequired[str | None]
    previousUntil: NotRequired[datetime | None]
    createdAt: datetime
    updatedAt: datetime


def _webhooks() -> Collection[WebhookEndpoint]:
    return collection("partner_webhooks", WebhookEndpoint)


def find_webhook(partner: str) -> WebhookEndpoint | None:
    return _webhooks().find_one({"_id": partner})


def webhooks() -> list[WebhookEndpoint]:
    return list(_webhooks().find().sort("_id", 1))


def set_webhook_url(partner: str, url: str, *, new_salt: str, now: datetime) -> WebhookEndpoint:
    """Point the partner's endpoint at `url`; a new endpoint gets `new_salt`, an existing one keeps its own."""
    found = _webhooks().find_one_and_update(
        {"_id": partner},
        {"$set": {"url": url, "updatedAt": now}, "$setOnInsert": {"salt": new_salt, "createdAt": now}},
        upsert=True,
        return_document=ReturnDocument.AFTER,
    )
    return cast("WebhookEndpoint", found)


def replace_webhook_salt(
    partner: str, *, current_salt: str, new_salt: str, previous_until: datetime, now: datetime
) -> bool:
    """Sign with `new_salt` from now on and with `current_salt` until `previous_until`, if `current_salt`
    is still the endpoint's (a conditional update: two rotations at once cannot lose a salt)."""
    result = _webhooks().update_one(
        {"_id": partner, "salt": current_salt},
        {
            "$set": {
                "salt": new_salt,
                "previousSalt": current_salt,
                "previousUntil": previous_until,
                "updatedAt": now,
            }
        },
    )
    return result.modified_count == 1


def remove_webhook(partner: str) -> bool:
    return _webhooks().delete_one({"_id": partner}).deleted_count == 1
