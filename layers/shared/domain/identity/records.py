"""A user as `domain.identity.store` returns it, and what a login or a verified identity sets on one."""

from datetime import datetime
from typing import Required, TypedDict

from bson import ObjectId


class User(TypedDict, total=False):
    """A user as stored. A user created by a login has every field but the verification's."""

    _id: Required[ObjectId]
    phone: str | None  # E.164; absent or None for a user who signed in by PINFL only
    pin: str | None  # the PINFL
    firstName: str
    lastName: str
    middleName: str | None  # from the identity provider
    birthDate: str | None  # YYYY-MM-DD, from the identity provider
    balance: int  # in sums
    verified: bool
    verifiedAt: datetime
    createdAt: datetime
    updatedAt: datetime


class LoginChanges(TypedDict, total=False):
    """What a login sets on a user: the identifiers and names it carries, and the time."""

    phone: str
    pin: str
    firstName: str
    lastName: str
    updatedAt: Required[datetime]


class Verification(TypedDict):
    """What a verified identity sets on a user."""

    pin: str
    firstName: str
    lastName: str
    middleName: str | None
    birthDate: str | None
    verified: bool
    verifiedAt: datetime
    updatedAt: datetime
