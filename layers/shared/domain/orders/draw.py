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


def entries_digest(entry_ids: Iterable[str]) -> bytes:
    """sha256 of the closed list of entries: their ids sorted, joined by "\\n", UTF-8."""
    return hashlib.sha256("\n".join(sorted(entry_ids)).encode()).digest()


def draw_key(seed: str, entry_ids: Iterable[str]) -> bytes:
    """The key of the draw: the committed seed and the closed list of entries together."""
    return hashlib.sha256(bytes.fromhex(seed) + entries_digest(entry_ids)).digest()


def ticket(key: bytes, entry_id: str) -> str:
    """An entry's place in the draw: HMAC-SHA256(drawKey, entryId), hex."""
    return hmac.new(key, entry_id.encode(), hashlib.sha256).hexdigest()


def drawn_order(seed: str, entry_ids: Iterable[str]) -> list[str]:
    """The entry ids in position order (position 1 first): ascending (ticket, id). Sorted on the raw HMAC
    with the id's bytes after it, which orders exactly as the hex ticket and then the id do (a fixed-length
    digest, and UTF-8 keeps the order of the characters), at a fraction of the time and memory: a million
    entries is what a national opening draws."""
    ids = list(entry_ids)
    key = draw_key(seed, ids)
    return sorted(ids, key=lambda entry_id: hmac.digest(key, entry_id.encode(), "sha256") + entry_id.encode())


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
