"""Identity-provider authorization codes, each usable once, stored only as keyed hashes.

A code is claimed (one atomic upsert on its hash, the `_id`) before the provider is called, so two
requests with the same code never both reach the provider or both apply. The claim is released when
the verification fails (provider outage, rejected code, PINFL conflict): a failure never burns the code.
It is marked used only after the user document was updated. A pending claim older than
`STALE_CLAIM_SECONDS` belongs to an invocation that died mid-way (the function times out sooner) and
may be taken over.
"""

import uuid
from datetime import timedelta
from typing import NamedTuple

from core import clock
from core.secrets import keyed_hash
from domain.identity import store

STALE_CLAIM_SECONDS = 60
RETENTION = timedelta(days=30)  # far longer than any provider keeps a code valid


class Claim(NamedTuple):
    code_hash: str
    claim_id: str


def code_hash(code: str) -> str:
    """A keyed hash with a key of its own purpose: a leaked table reveals no code."""
    return keyed_hash("identity-code", code)


def claim(code: str, user_id: str) -> Claim:
    """Claim the code for this verification; a code used (or being used) by another is a 409."""
    now = clock.now()
    taken = Claim(code_hash(code), uuid.uuid4().hex)
    store.claim_code(
        taken.code_hash,
        taken.claim_id,
        user_id,
        at=now,
        stale_before=now - timedelta(seconds=STALE_CLAIM_SECONDS),
        expires_at=now + RETENTION,
    )
    return taken


def release(taken: Claim) -> None:
    store.release_code(taken.code_hash, taken.claim_id)


def mark_used(taken: Claim) -> None:
    store.mark_code_used(taken.code_hash, taken.claim_id, at=clock.now())
