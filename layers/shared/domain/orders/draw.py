"""The draw of a fair opening, checkable by anyone (docs/INTERFACE.md, "Sale queues"): pure functions, no
database. The same algorithm is published as a standalone script that imports nothing of ours.

    seedCommitment = sha256(seed)                                   published when the queue is set
    drawKey        = sha256(seed || sha256("\\n".join(sorted(entry ids)) as UTF-8))   raw bytes throughout
    positions      1..n in ascending order of HMAC-SHA256(drawKey, entry id as UTF-8), hex

The seed is committed before registration closes and the closed list of entries is part of the key, so
neither the operator (who cannot change the seed) nor a buyer (who cannot see it) chooses the order."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

SEED_BYTES = 32


def new_seed() -> str:
    """A fresh secret seed, hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """sha256(seed), hex: what is published before the draw."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def draw_key(seed: str, entry_ids: Iterable[str]) -> bytes:
    """The key of the draw: the committed seed and the closed list of entries together."""
    entries = hashlib.sha256("\n".join(sorted(entry_ids)).encode()).digest()
    return hashlib.sha256(bytes.fromhex(seed) + entries).digest()


def ticket(key: bytes, entry_id: str) -> str:
    """An entry's place in the draw: HMAC-SHA256(drawKey, entryId), hex."""
    return hmac.new(key, entry_id.encode(), hashlib.sha256).hexdigest()


def drawn_order(seed: str, entry_ids: Iterable[str]) -> list[str]:
    """The entry ids in position order (position 1 first)."""
    ids = list(entry_ids)
    key = draw_key(seed, ids)
    return sorted(ids, key=lambda entry_id: (ticket(key, entry_id), entry_id))


def check(published: Mapping[str, Any]) -> list[str]:
    """What is wrong with a published draw.json (empty when it checks): the seed against its commitment,
    the entries' order against the draw."""
    problems = []
    seed, entries = published["seed"], list(published["entries"])
    if commitment(seed) != published["seedCommitment"]:
        problems.append("sha256(seed) is not the published seedCommitment")
    if drawn_order(seed, entries) != entries:
        problems.append("the entries are not in the order the draw gives")
    return problems
