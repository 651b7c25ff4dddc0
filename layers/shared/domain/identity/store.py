"""The identity collections: `users`, `refresh_tokens`, `identity_codes`, `login_codes`, `login_guesses`
and `login_assertions`. Only this module reads and
writes them; the rules that decide what to write are beside it (users, tokens, codes).

A unique index answers for a value another document holds (a phone, a PINFL, a code's hash): the
write that would break it is refused as a `Conflict` here, where the index is known.
"""

from datetime import datetime
from typing import NotRequired, Required, TypedDict, cast

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from core.errors import Conflict
from data.mongo import Document, Index, collection, get_db, in_transaction
from domain.identity.records import LoginChanges, User, Verification

INDEXES = [
    Index(
        collection="users",
        keys=[("phone", 1)],
        name="users_phone_unique",
        options={"unique": True, "partialFilterExpression": {"phone": {"$type": "string"}}},
    ),
    Index(
        collection="users",
        keys=[("pin", 1)],
        name="users_pin_unique",
        options={"unique": True, "partialFilterExpression": {"pin": {"$type": "string"}}},
    ),
    # Used authorization codes: `_id` is the code's keyed hash (unique by nature); kept 30 days.
    Index(
        collection="identity_codes",
        keys=[("expiresAt", 1)],
        name="identity_codes_ttl",
        options={"expireAfterSeconds": 0},
    ),
    Index(
        collection="refresh_tokens",
        keys=[("expiresAt", 1)],
        name="refresh_tokens_ttl",
        options={"expireAfterSeconds": 0},
    ),
    Index(collection="refresh_tokens", keys=[("family", 1)], name="refresh_tokens_family"),
    # A phone's one-time login code (`_id` the phone's keyed hash), gone once neither valid nor locked.
    Index(collection="login_codes", keys=[("purgeAt", 1)], name="login_codes_ttl", options={"expireAfterSeconds": 0}),
    # The answers checked against a phone's codes in the last window (`_id` a keyed hash of the phone, or of
    # the phone and an address), gone once the window after the last one has passed.
    Index(
        collection="login_guesses", keys=[("purgeAt", 1)], name="login_guesses_ttl", options={"expireAfterSeconds": 0}
    ),
    # Used login assertions (`_id` a digest of the partner and the jti), kept while they could be replayed.
    Index(
        collection="login_assertions",
        keys=[("expiresAt", 1)],
        name="login_assertions_ttl",
        options={"expireAfterSeconds": 0},
    ),
]


class RefreshToken(TypedDict):
    """A refresh token as recorded: `_id` is its `jti`; `family` the jti of the login's first token."""

    _id: str
    userId: str
    family: str
    createdAt: datetime
    expiresAt: datetime
    usedAt: datetime | None
    usedBy: NotRequired[str]  # who presented it: sessions.refresh_client(partner, fingerprint)
    revokedAt: datetime | None


class RefreshTokenUse(TypedDict, total=False):
    """The part of a refresh token record that tells how it was used (a projection)."""

    _id: Required[str]
    family: Required[str]
    usedAt: datetime | None
    usedBy: str
    revokedAt: datetime | None


class LoginCode(TypedDict):
    """A phone's one-time login code: `_id` the phone's keyed hash, `codeHash` the code's, never either."""

    _id: str
    codeHash: str
    sentAt: datetime
    expiresAt: datetime
    purgeAt: datetime


class Guess(TypedDict):
    at: datetime
    id: str  # this check's own, to give the guess back when it was no guess (a right answer, no code)


class LoginGuesses(TypedDict):
    """The answers checked against a phone's codes (from one address, or from all), newest last, at most
    the budget's count of them."""

    _id: str
    guesses: list[Guess]
    purgeAt: datetime


# -- users


def _users() -> Collection[User]:
    return collection("users", User)


def find_user(user_id: str) -> User | None:
    return _users().find_one({"_id": ObjectId(user_id)})


def verified_pin(user_id: str) -> str | None:
    """The PINFL identity verification confirmed for the user; None for an unverified (or unknown) one.
    The limits of orders follow the person (`domain.orders.buyers`)."""
    user = _users().find_one({"_id": ObjectId(user_id), "verified": True}, {"pin": 1})
    return user.get("pin") if user is not None else None


def user_exists(user_id: str) -> bool:
    return _users().count_documents({"_id": ObjectId(user_id)}, limit=1) > 0


def find_user_by_phone(phone: str) -> User | None:
    return _users().find_one({"phone": phone})


def find_user_by_pin(pin: str) -> User | None:
    return _users().find_one({"pin": pin})


def insert_user_if_missing(user: User) -> bool:
    """Store the user unless one with its id exists (the demo user); whether it was stored."""
    return _users().update_one({"_id": user["_id"]}, {"$setOnInsert": user}, upsert=True).upserted_id is not None


def create_user_on_login(changes: LoginChanges) -> User:
    """Create the user a login names, keyed by its PINFL, else its phone; a concurrent login creating the
    same person meets the unique index (409)."""
    key: Document = {"pin": changes["pin"]} if changes.get("pin") else {"phone": changes.get("phone")}
    defaults: Document = {
        "firstName": "",
        "lastName": "",
        "balance": 0,
        "verified": False,
        "createdAt": changes["updatedAt"],
    }
    update = {"$set": changes, "$setOnInsert": {k: v for k, v in defaults.items() if k not in changes}}
    try:
        user = _users().find_one_and_update(key, update, upsert=True, return_document=ReturnDocument.AFTER)
    except DuplicateKeyError as exc:
        raise Conflict("PHONE_OR_PIN_TAKEN") from exc
    assert user is not None  # an upsert returning the document after it always has one
    return user


def update_user_on_login(user_id: ObjectId, changes: LoginChanges) -> User | None:
    """Set what a login carries on an existing user, provided each identifier it sets is still missing or
    the same (the condition holds against a concurrent change since the user was read). None when it is
    not: the account has another phone or PINFL."""
    key: Document = {"_id": user_id}
    if "phone" in changes:
        key["phone"] = {"$in": [None, changes["phone"]]}
    if "pin" in changes:
        key["pin"] = {"$in": [None, changes["pin"]]}
    try:
        user = _users().find_one_and_update(key, {"$set": changes}, return_document=ReturnDocument.AFTER)
    except DuplicateKeyError as exc:
        raise Conflict("PHONE_OR_PIN_TAKEN") from exc
    return user


def record_verification(user_id: str, verification: Verification) -> User | None:
    """Record a verified person on the user, provided the account carries no PINFL, the same one, or one
    a login merely claimed on an account that has a phone (a PINFL-only account is that PINFL's person).
    An unverified account holding the verified PINFL (a login's claim) loses it. One transaction: None
    (nothing written) when the user is gone or is another person; the unique index on `pin` refuses a
    PINFL a verified user holds (409), even under concurrent requests."""
    pin = verification["pin"]
    own = ObjectId(user_id)

    def work(session: ClientSession) -> User | None:
        users = _users()
        users.update_many(
            {"pin": pin, "_id": {"$ne": own}, "verified": {"$ne": True}},
            {"$set": {"pin": None, "updatedAt": verification["updatedAt"]}},
            session=session,
        )
        claimed = {"verified": {"$ne": True}, "phone": {"$type": "string"}}
        return users.find_one_and_update(
            {"_id": own, "$or": [{"pin": None}, {"pin": pin}, claimed]},
            {"$set": verification},
            return_document=ReturnDocument.AFTER,
            session=session,
        )

    try:
        return in_transaction(work)
    except DuplicateKeyError as exc:
        raise Conflict("PINFL_TAKEN") from exc


# -- refresh_tokens


def insert_refresh_token(record: RefreshToken) -> None:
    get_db().refresh_tokens.insert_one(cast(Document, record))


def family_is_revoked(family: str) -> bool:
    return get_db().refresh_tokens.count_documents({"family": family, "revokedAt": {"$ne": None}}, limit=1) > 0


def revoke_refresh_token(jti: str, at: datetime) -> None:
    get_db().refresh_tokens.update_one({"_id": jti}, {"$set": {"revokedAt": at}})


def use_refresh_token(jti: str, user_id: str, *, client: str, at: datetime) -> RefreshToken | None:
    """Mark the user's token used by `client`, if it is neither used nor revoked: of two racing uses, one
    gets the record (as it was), the other None."""
    record = get_db().refresh_tokens.find_one_and_update(
        {"_id": jti, "userId": user_id, "usedAt": None, "revokedAt": None},
        {"$set": {"usedAt": at, "usedBy": client}},
    )
    return cast(RefreshToken | None, record)


def find_refresh_token_use(jti: str) -> RefreshTokenUse | None:
    record = get_db().refresh_tokens.find_one({"_id": jti}, {"family": 1, "usedAt": 1, "usedBy": 1, "revokedAt": 1})
    return cast(RefreshTokenUse | None, record)


def revoke_family(family: str, at: datetime) -> None:
    get_db().refresh_tokens.update_many({"family": family}, {"$set": {"revokedAt": at}})


# -- identity_codes


def claim_code(
    code_hash: str, claim_id: str, user_id: str, *, at: datetime, stale_before: datetime, expires_at: datetime
) -> None:
    """Insert a pending claim on the code, or take over a pending one claimed before `stale_before`. Any
    other existing claim fails the upsert on the `_id` unique index: the code was used (409)."""
    update: Document = {
        "$set": {
            "state": "pending",
            "claimId": claim_id,
            "userId": ObjectId(user_id),
            "claimedAt": at,
            "expiresAt": expires_at,
        }
    }
    try:
        get_db().identity_codes.update_one(
            {"_id": code_hash, "state": "pending", "claimedAt": {"$lt": stale_before}}, update, upsert=True
        )
    except DuplicateKeyError as exc:
        raise Conflict("AUTHORIZATION_CODE_USED") from exc


def release_code(code_hash: str, claim_id: str) -> None:
    """Drop a pending claim, so the code can be used again."""
    get_db().identity_codes.delete_one({"_id": code_hash, "claimId": claim_id, "state": "pending"})


def mark_code_used(code_hash: str, claim_id: str, *, at: datetime) -> None:
    get_db().identity_codes.update_one(
        {"_id": code_hash, "claimId": claim_id}, {"$set": {"state": "used", "usedAt": at}}
    )


# -- login_codes


def _login_codes() -> Collection[LoginCode]:
    return collection("login_codes", LoginCode)


def start_login_code(code: LoginCode, *, resend_before: datetime) -> LoginCode | None:
    """Store a phone's new code, unless its last one was sent at or after `resend_before`: None when
    stored, else the record that stands in the way. One conditional upsert: of two racing requests, one
    stores."""
    try:
        _login_codes().find_one_and_update(
            {"_id": code["_id"], "sentAt": {"$not": {"$gte": resend_before}}},
            {"$set": {k: v for k, v in code.items() if k != "_id"}},
            upsert=True,
        )
        return None
    except DuplicateKeyError:
        return _login_codes().find_one({"_id": code["_id"]})


def forget_login_code(phone_key: str, code_hash: str) -> None:
    """Drop a code that could not be sent, so the person may ask again at once."""
    _login_codes().delete_one({"_id": phone_key, "codeHash": code_hash})


def find_login_code(phone_key: str) -> LoginCode | None:
    return _login_codes().find_one({"_id": phone_key})


def use_login_code(phone_key: str, code_hash: str, sent_at: datetime) -> bool:
    """Consume the code: of two racing right answers, one logs in."""
    result = _login_codes().delete_one({"_id": phone_key, "codeHash": code_hash, "sentAt": sent_at})
    return result.deleted_count == 1


# -- login_guesses


def _login_guesses() -> Collection[LoginGuesses]:
    return collection("login_guesses", LoginGuesses)


def take_login_guess(key: str, guess: Guess, *, budget: int, window_start: datetime) -> LoginGuesses | None:
    """Count `guess` under `key` if fewer than `budget` guesses fall after `window_start`: the record after
    (its newest `budget` guesses), or None when the budget is spent. One conditional upsert keeping the
    newest `budget` guesses: the oldest of them is in the window only when all of them are, so racing
    checks never exceed the budget in any window."""
    try:
        return _login_guesses().find_one_and_update(
            {
                "_id": key,
                "$or": [{f"guesses.{budget - 1}": {"$exists": False}}, {"guesses.0.at": {"$lte": window_start}}],
            },
            {
                "$push": {"guesses": {"$each": [guess], "$slice": -budget}},
                "$set": {"purgeAt": guess["at"] + (guess["at"] - window_start)},
            },
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )
    except DuplicateKeyError:
        return None


def find_login_guesses(key: str) -> LoginGuesses | None:
    return _login_guesses().find_one({"_id": key})


def give_back_login_guess(key: str, guess_id: str) -> None:
    _login_guesses().update_one({"_id": key}, {"$pull": {"guesses": {"id": guess_id}}})


# -- login_assertions


def use_assertion(key: str, *, at: datetime, expires_at: datetime) -> bool:
    """Record an assertion's use; False when it was used before (a replay)."""
    try:
        get_db().login_assertions.insert_one({"_id": key, "usedAt": at, "expiresAt": expires_at})
    except DuplicateKeyError:
        return False
    return True
