"""Data access for users."""

from __future__ import annotations

from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from common import clock
from common.db import get_db
from common.errors import Conflict

User = dict[str, Any]


def find_by_id(user_id: str) -> User | None:
    return get_db().users.find_one({"_id": ObjectId(user_id)})


def _find_by(field: str, value: str | None) -> User | None:
    return get_db().users.find_one({field: value}) if value else None


def upsert_from_login(*, phone: str | None, pin: str | None, first_name: str | None, last_name: str | None) -> User:
    """Find the person by pin and/or phone and update them, or create them. One atomic write."""
    by_pin, by_phone = _find_by("pin", pin), _find_by("phone", phone)
    if by_pin and by_phone and by_pin["_id"] != by_phone["_id"]:
        raise Conflict("This phone number and this PINFL belong to different users")
    existing = by_pin or by_phone
    now = clock.now()
    changes: dict[str, Any] = {"updatedAt": now}
    for field, value in (("phone", phone), ("pin", pin), ("firstName", first_name), ("lastName", last_name)):
        if value is not None:
            changes[field] = value
    key = {"_id": existing["_id"]} if existing else ({"pin": pin} if pin else {"phone": phone})
    defaults = {"firstName": "", "lastName": "", "balance": 0, "verified": False, "createdAt": now}
    try:
        user = get_db().users.find_one_and_update(
            key,
            {"$set": changes, "$setOnInsert": {k: v for k, v in defaults.items() if k not in changes}},
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )
    except DuplicateKeyError as exc:
        # A concurrent login created the same person, or the phone/pin is taken by someone else.
        raise Conflict("This phone number or PINFL is already registered to another user") from exc
    assert user is not None  # an upsert always returns the document
    return user
