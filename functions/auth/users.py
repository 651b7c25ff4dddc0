"""Data access for users."""

from __future__ import annotations

from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from auth.identity import VerifiedPerson
from core import clock
from core.errors import Conflict, NotAuthenticated
from data.mongo import get_db

User = dict[str, Any]


def find_by_id(user_id: str) -> User | None:
    return get_db().users.find_one({"_id": ObjectId(user_id)})


def _find_by(field: str, value: str | None) -> User | None:
    return get_db().users.find_one({field: value}) if value else None


def upsert_from_login(*, phone: str | None, pin: str | None, first_name: str | None, last_name: str | None) -> User:
    """Find the person by pin and/or phone and update them, or create them. One atomic write.

    A login adds an identifier the account lacks; it never replaces one (409), and it never renames a
    verified person, whose names come from the identity provider."""
    by_pin, by_phone = _find_by("pin", pin), _find_by("phone", phone)
    if by_pin and by_phone and by_pin["_id"] != by_phone["_id"]:
        raise Conflict("This phone number and this PINFL belong to different users")
    existing = by_pin or by_phone
    now = clock.now()
    changes: dict[str, Any] = {"updatedAt": now}
    for field, value in (("phone", phone), ("pin", pin), ("firstName", first_name), ("lastName", last_name)):
        if value is not None:
            changes[field] = value
    defaults = {"firstName": "", "lastName": "", "balance": 0, "verified": False, "createdAt": now}
    if existing is None:
        key: dict[str, Any] = {"pin": pin} if pin else {"phone": phone}
    else:
        # The conditions hold the rule against a concurrent change between the read above and this write.
        key = {"_id": existing["_id"]}
        for field, value in (("phone", phone), ("pin", pin)):
            if value is not None:
                key[field] = {"$in": [None, value]}
        if existing.get("verified"):
            changes.pop("firstName", None)
            changes.pop("lastName", None)
    try:
        user = get_db().users.find_one_and_update(
            key,
            {"$set": changes, "$setOnInsert": {k: v for k, v in defaults.items() if k not in changes}},
            upsert=existing is None,
            return_document=ReturnDocument.AFTER,
        )
    except DuplicateKeyError as exc:
        # A concurrent login created the same person, or the phone/pin is taken by someone else.
        raise Conflict("This phone number or PINFL is already registered to another user") from exc
    if user is None:
        raise Conflict("This account already has another phone number or PINFL; a login cannot replace it")
    return user


def apply_verification(user_id: str, person: VerifiedPerson) -> User:
    """Record a verified person on the user: one conditional write that changes nothing when it fails.

    The account may already carry a PINFL (a login by pin); then it must be the verified person's.
    The unique index on `pin` refuses a PINFL that another user holds, even under concurrent requests.
    """
    now = clock.now()
    changes = {
        "pin": person.pin,
        "firstName": person.first_name,
        "lastName": person.last_name,
        "middleName": person.middle_name,
        "birthDate": person.birth_date.isoformat() if person.birth_date else None,
        "verified": True,
        "verifiedAt": now,
        "updatedAt": now,
    }
    try:
        user = get_db().users.find_one_and_update(
            {"_id": ObjectId(user_id), "$or": [{"pin": None}, {"pin": person.pin}]},
            {"$set": changes},
            return_document=ReturnDocument.AFTER,
        )
    except DuplicateKeyError as exc:
        raise Conflict("This person's PINFL is already registered to another user") from exc
    if user is not None:
        return user
    if find_by_id(user_id) is None:
        raise NotAuthenticated("User not found")
    raise Conflict("The verified person's PINFL differs from the PINFL of this account")
