"""Atomic sequences (contract numbers, transaction ids): one `$inc` upsert, safe under any concurrency."""

from __future__ import annotations

from pymongo import ReturnDocument

from data.mongo import get_db


def next_value(name: str) -> int:
    counter = get_db().counters.find_one_and_update(
        {"_id": name}, {"$inc": {"seq": 1}}, upsert=True, return_document=ReturnDocument.AFTER
    )
    assert counter is not None  # an upsert always returns the document
    return int(counter["seq"])
