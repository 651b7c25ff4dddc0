"""Helpers every seed module uses: stable ids and insert-if-missing."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from bson import ObjectId
from pymongo import UpdateOne
from pymongo.collection import Collection


def stable_id(name: str) -> ObjectId:
    """The same ObjectId for the same seed name on every machine, so demo ids can be documented."""
    return ObjectId(hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:24])


def insert_missing(collection: Collection[dict[str, Any]], documents: Iterable[Mapping[str, Any]]) -> int:
    """Insert the documents whose _id is absent; never overwrite what a developer changed. Returns inserts."""
    operations = [UpdateOne({"_id": doc["_id"]}, {"$setOnInsert": doc}, upsert=True) for doc in documents]
    if not operations:
        return 0
    return collection.bulk_write(operations, ordered=False).upserted_count
