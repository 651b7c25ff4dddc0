"""Identity-provider authorization codes, each usable once, stored only as keyed hashes.

A code is claimed (one atomic upsert on its hash, the `_id`) before the provider is called, so two
requests with the same code never both reach the provider or both apply. The claim is released when
the verification fails (provider outage, rejected code, PINFL conflict): a failure never burns the code.
It is marked used only after the user document was updated. A pending claim older than
`STALE_CLAIM_SECONDS` belongs to an invocation that died mid-way (the function times out sooner) and
may be taken over.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from bson import ObjectId
from pymongo.errors import DuplicateKeyError

from core import clock
from core.errors import Conflict
from core.secrets import keyed_hash
from data.mongo import get_db

STALE_CLAIM_SECONDS = 60
RETENTION = timedelta(days=30)  # far longer than any provider keeps a code valid


@dataclass(frozen=True)
class Claim:
    code_hash: str
    claim_id: str


def code_hash(code: str) -> str:
    """A keyed hash with a key of its own purpose: a leaked table reveals no code."""
    return keyed_hash("identity-code", code)


def claim(code: str, user_id: str) -> Claim:
    now = clock.now()
    taken = Claim(code_hash(code), uuid.uuid4().hex)
    try:
        # Inserts a new claim or takes over a stale pending one; any other existing claim fails the
        # upsert on the `_id` unique index.
        get_db().identity_codes.update_one(
            {
                "_id": taken.code_hash,
                "state": "pending",
                "claimedAt": {"$lt": now - timedelta(seconds=STALE_CLAIM_SECONDS)},
            },
            {
                "$set": {
                    "state": "pending",
                    "claimId": taken.claim_id,
                    "userId": ObjectId(user_id),
                    "claimedAt": now,
                    "expiresAt": now + RETENTION,
                }
            },
            upsert=True,
        )
    except DuplicateKeyError as exc:
        raise Conflict("This authorization code has already been used") from exc
    return taken


def release(taken: Claim) -> None:
    get_db().identity_codes.delete_one({"_id": taken.code_hash, "claimId": taken.claim_id, "state": "pending"})


def mark_used(taken: Claim) -> None:
    get_db().identity_codes.update_one(
        {"_id": taken.code_hash, "claimId": taken.claim_id},
        {"$set": {"state": "used", "usedAt": clock.now()}},
    )
