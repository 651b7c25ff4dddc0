"""Partner client keys (`partners`): stored as SHA-256 hashes with the partner's name, an active flag and
its creation time; after a key rotation the previous key's hash too, until its grace period ends.
Partner webhook endpoints (`partner_webhooks`): one per partner, by the partner's name (the rules are in
`domain.partners.webhooks`)."""

import functools
import hashlib
from datetime import datetime, timedelta
from typing import Literal, NotRequired, TypedDict, cast

from pymongo import ReturnDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from core import clock
from core.errors import Conflict
from core.settings import get_settings
from data.caches import BoundedCache
from data.mongo import Index, collection, get_db, in_transaction

# The gate finds a partner by `_id` (its key's hash) or, during a rotation's grace period, by the
# previous key's hash; operators name partners (and webhooks are kept by name), so a name is one
# partner's.
INDEXES: list[Index] = [
    Index(collection="partners", keys=[("previousKeyHash", 1)], name="partners_previous_key", options={"sparse": True}),
    Index(
        collection="partners",
        keys=[("name", 1)],
        name="partners_name_unique",
        options={"unique": True, "partialFilterExpression": {"name": {"$type": "string"}}},
    ),
]

MAX_CACHED_KEYS = 1000


class Partner(TypedDict):
    """An active partner as the gate reads it: the key's hash and the partner's name ("" if it has none)."""

    _id: str
    name: str


LoginPolicy = Literal["trusted", "assertion", "otp"]
AssertionAlgorithm = Literal["EdDSA", "ES256", "RS256", "HS256"]


class AssertionKey(TypedDict):
    """What verifies a partner's login assertions: a public key (PEM) for EdDSA, ES256 or RS256, or for
    HS256 the salt its shared secret is derived from (`domain.partners.login`), never the secret."""

    alg: AssertionAlgorithm
    publicKey: str | None
    salt: str | None
    setAt: datetime


class PartnerLogin(TypedDict):
    """How a partner's users sign in (docs/INTERFACE.md, "Who the caller is")."""

    policy: LoginPolicy
    assertionKey: AssertionKey | None


class PartnerRecord(TypedDict):
    """A stored partner: `_id` is the hash of its current key (the key itself is never stored). A record
    without `login` is a `trusted` partner (every partner made before login policies)."""

    _id: str
    name: str
    active: bool
    createdAt: datetime
    login: NotRequired[PartnerLogin]
    previousKeyHash: NotRequired[str | None]  # the key before the last rotation, accepted until
    previousKeyExpiresAt: NotRequired[datetime | None]
    updatedAt: NotRequired[datetime]


# Unknown keys are kept too (as None): a client retrying a wrong key must not reach the database each time.
_cache: BoundedCache[Partner | None] = BoundedCache(MAX_CACHED_KEYS)


def _partners() -> Collection[PartnerRecord]:
    return collection("partners", PartnerRecord)


# The gate hashes the client key of every request, and a partner's app sends the same key each time.
@functools.lru_cache(maxsize=MAX_CACHED_KEYS)
def hash_client_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# The demo partners' keys, which `make run` registers (local.seed.core) and the README publishes: they
# open nothing outside STAGE=local, whatever a database holds.
DEMO_KEY = "demo-partner-key"
DEMO_OTP_KEY = "demo-otp-partner-key"  # a partner whose users sign in by SMS code (the `otp` policy)
DEMO_KEYS = frozenset({DEMO_KEY, DEMO_OTP_KEY})

# What the gate's lookups read of a partner: whom a key names, and how long a previous key is honoured.
LOOKUP_FIELDS = {"name": 1, "previousKeyHash": 1, "previousKeyExpiresAt": 1}


def find_active_partner(client_key: str) -> Partner | None:
    """The active partner owning this key (or whose previous key it is, within the rotation's grace
    period), or None. Cached briefly per process (PARTNER_CACHE_SECONDS): every request asks. The
    demo keys are no partner's outside the local stage."""
    if client_key in DEMO_KEYS and not get_settings().is_local:
        return None
    key_hash = hash_client_key(client_key)
    now = clock.now()
    if cached := _cache.get(key_hash, now):
        return cached.value
    found = _partners().find_one(
        {
            "$or": [{"_id": key_hash}, {"previousKeyHash": key_hash, "previousKeyExpiresAt": {"$gt": now}}],
            "active": True,
        },
        LOOKUP_FIELDS,
    )
    return _remember(key_hash, found, expires=now + timedelta(seconds=get_settings().partner_cache_seconds), now=now)


def _remember(key_hash: str, record: PartnerRecord | None, *, expires: datetime, now: datetime) -> Partner | None:
    """Cache whom a key names (None: no active partner): a previous key no longer than its grace period."""
    partner = None if record is None else Partner(_id=record["_id"], name=str(record.get("name", "")))
    if record is not None and record["_id"] != key_hash:
        expires = min(expires, record.get("previousKeyExpiresAt") or now)
    _cache.put(key_hash, partner, expires=expires, now=now)
    return partner


def load_active_partners() -> None:
    """Cache every active partner's key, and a rotated key within its grace period, as the gate's
    lookups would (domain.identity.callers has a SnapStart restore run this, so the gate's first lookup
    reads nothing). Partners are a few; at most half the cache is filled, the rest is left to lookups."""
    lifetime = get_settings().partner_cache_seconds
    if lifetime == 0:
        return
    now = clock.now()
    expires = now + timedelta(seconds=lifetime)
    found = _partners().find({"active": True}, LOOKUP_FIELDS)
    for record in found.limit(MAX_CACHED_KEYS // 2):
        _remember(record["_id"], record, expires=expires, now=now)
        previous, until = record.get("previousKeyHash"), record.get("previousKeyExpiresAt")
        if previous and until is not None and until > now:
            _remember(previous, record, expires=expires, now=now)


def register_partner(client_key: str, name: str, *, active: bool = True, login: PartnerLogin | None = None) -> None:
    """Store the partner of a known key (the demo partners, tests), or update its name, state and policy."""
    changes: dict[str, object] = {"name": name, "active": active} | ({} if login is None else {"login": login})
    get_db().partners.update_one(
        {"_id": hash_client_key(client_key)}, {"$set": changes, "$setOnInsert": {"createdAt": clock.now()}}, upsert=True
    )
    _cache.clear()


def insert_partner(key_hash: str, name: str, *, at: datetime, login: PartnerLogin | None = None) -> PartnerRecord:
    """A new, active partner; Conflict if the name is taken."""
    record = PartnerRecord(_id=key_hash, name=name, active=True, createdAt=at)
    if login is not None:
        record["login"] = login
    try:
        _partners().insert_one(record)
    except DuplicateKeyError as exc:
        raise Conflict("PARTNER_NAME_TAKEN", partner=name) from exc
    return record


def all_partners() -> list[PartnerRecord]:
    return list(_partners().find({}).sort([("createdAt", 1), ("_id", 1)]))


def set_partner_active(name: str, active: bool, *, at: datetime) -> PartnerRecord | None:
    """Enable or disable the named partner; the record, or None if there is none. Other processes see it
    once their cached lookups expire (PARTNER_CACHE_SECONDS)."""
    found = _partners().find_one_and_update({"name": name}, {"$set": {"active": active, "updatedAt": at}})
    _cache.clear()
    return found


def replace_key(name: str, new_key_hash: str, *, previous_until: datetime, at: datetime) -> PartnerRecord | None:
    """Give the named partner a new key, keeping its current one valid until `previous_until` (the key
    before that stops at once). One transaction: the record moves to its new `_id`."""

    def work(session: ClientSession) -> PartnerRecord | None:
        partners = _partners()
        found = partners.find_one({"name": name}, session=session)
        if found is None:
            return None
        partners.delete_one({"_id": found["_id"]}, session=session)
        rotated = PartnerRecord(
            {
                **found,
                "_id": new_key_hash,
                "previousKeyHash": found["_id"],
                "previousKeyExpiresAt": previous_until,
                "updatedAt": at,
            }
        )
        partners.insert_one(rotated, session=session)
        return rotated

    rotated = in_transaction(work)
    _cache.clear()
    return rotated


def find_partner_login(name: str) -> tuple[bool, PartnerLogin | None] | None:
    """Whether the named partner is active and how its users sign in (None: no login policy stored, a
    `trusted` partner); None for no partner of that name. Read on every login, never cached: a policy an
    operator sets holds for the next login."""
    found = _partners().find_one({"name": name}, {"active": 1, "login": 1})
    if found is None:
        return None
    return bool(found.get("active")), found.get("login")


def set_partner_login(name: str, login: PartnerLogin, *, at: datetime) -> PartnerRecord | None:
    """Set how the named partner's users sign in; the record after, or None if there is none."""
    return _partners().find_one_and_update(
        {"name": name}, {"$set": {"login": login, "updatedAt": at}}, return_document=ReturnDocument.AFTER
    )


def key_registered(client_key: str) -> bool:
    """Whether a partner record holds this key (enabled or not; `make run` asks it of the demo key)."""
    return _partners().find_one({"_id": hash_client_key(client_key)}, {"_id": 1}) is not None


def partner_exists(name: str) -> bool:
    """Whether any partner record has this name (operators name partners by it)."""
    return _partners().find_one({"name": name}, {"_id": 1}) is not None


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
    disabledAt: NotRequired[datetime | None]  # set when the endpoint answered 410 Gone: nothing is sent
    disabledReason: NotRequired[str | None]


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


def set_webhook_disabled(partner: str, *, reason: str, at: datetime) -> bool:
    """Disable the partner's endpoint, unless it is disabled already (or gone): whether this disabled it."""
    result = _webhooks().update_one(
        {"_id": partner, "disabledAt": None},
        {"$set": {"disabledAt": at, "disabledReason": reason, "updatedAt": at}},
    )
    return result.modified_count == 1


def set_webhook_enabled(partner: str, *, at: datetime) -> WebhookEndpoint | None:
    """Deliver to the partner's endpoint again; the endpoint, or None if the partner has none."""
    return _webhooks().find_one_and_update(
        {"_id": partner},
        {"$set": {"disabledAt": None, "disabledReason": None, "updatedAt": at}},
        return_document=ReturnDocument.AFTER,
    )


def remove_webhook(partner: str) -> bool:
    return _webhooks().delete_one({"_id": partner}).deleted_count == 1
