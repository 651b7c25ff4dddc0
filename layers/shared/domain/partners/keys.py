"""Partner keys for operators (`python -m ops partners`): a key is shown once, when it is made; only its
hash is stored (`domain.partners.store`)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from core import clock
from core.errors import NotFound
from domain.partners import login, store
from domain.partners.store import LoginPolicy, PartnerRecord

# 256 random bits, URL-safe: a `client` header value.
KEY_BYTES = 32


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def add_partner(name: str, *, login_policy: LoginPolicy = login.DEFAULT_POLICY) -> tuple[PartnerRecord, str]:
    """A new active partner whose users sign in by `login_policy`, and its key (Conflict if the name is
    taken). An `assertion` partner's logins are refused until its key is registered (`login.set_login`)."""
    key = new_key()
    record = store.insert_partner(store.hash_client_key(key), name, at=clock.now(), login=login.new_login(login_policy))
    return record, key


def set_active(name: str, *, active: bool) -> PartnerRecord:
    found = store.set_partner_active(name, active, at=clock.now())
    if found is None:
        raise NotFound("PARTNER_NOT_FOUND", partner=name)
    return found


def rotate_key(name: str, *, grace: timedelta) -> tuple[PartnerRecord, str]:
    """A new key for the partner; the current one keeps working for `grace`. The record and the new key."""
    key, now = new_key(), clock.now()
    rotated = store.replace_key(name, store.hash_client_key(key), previous_until=now + grace, at=now)
    if rotated is None:
        raise NotFound("PARTNER_NOT_FOUND", partner=name)
    return rotated, key
