"""What every seed table uses: stable ids."""

from __future__ import annotations

import hashlib

from bson import ObjectId


def stable_id(name: str) -> ObjectId:
    """The same ObjectId for the same seed name on every machine, so demo ids can be documented."""
    return ObjectId(hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:24])
