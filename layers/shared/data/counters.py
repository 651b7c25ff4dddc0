"""Atomic sequences (contract numbers, transaction ids, the reference data's change version): one `$inc`
upsert, safe under any concurrency."""

from __future__ import annotations

import uuid

from pymongo import ReturnDocument
from pymongo.client_session import ClientSession

from data.mongo import get_db


def next_value(name: str) -> int:
    counter = get_db().counters.find_one_and_update(
        {"_id": name}, {"$inc": {"seq": 1}}, upsert=True, return_document=ReturnDocument.AFTER
    )
    assert counter is not None  # an upsert always returns the document
    return int(counter["seq"])


# The reference data's change version (docs/DECISIONS.md, "Catalog imports never undo live changes"):
# raised, in the same transaction, by every operator change of live data (a price, a stock row, sale
# rules, a promo code), which stamps the records it changed with it (`changedIn`). A catalog export
# carries it with the database's own id, so an import knows what changed since its file was made.
CHANGE_VERSION = "change-version"


def raise_change_version(*, session: ClientSession) -> int:
    """The next change version, taken in the caller's transaction (the database's id made on first use)."""
    counter = get_db().counters.find_one_and_update(
        {"_id": CHANGE_VERSION},
        {"$inc": {"seq": 1}, "$setOnInsert": {"database": uuid.uuid4().hex}},
        upsert=True,
        return_document=ReturnDocument.AFTER,
        session=session,
    )
    assert counter is not None  # an upsert always returns the document
    return int(counter["seq"])


def change_version(*, session: ClientSession) -> tuple[str, int]:
    """The database's id and its current change version, read in the caller's transaction (made, at 0,
    on first use)."""
    counter = get_db().counters.find_one_and_update(
        {"_id": CHANGE_VERSION},
        {"$setOnInsert": {"seq": 0, "database": uuid.uuid4().hex}},
        upsert=True,
        return_document=ReturnDocument.AFTER,
        session=session,
    )
    assert counter is not None
    return str(counter["database"]), int(counter["seq"])


def read_change_version(*, session: ClientSession | None = None) -> tuple[str, int]:
    """The database's id and change version as they are, writing nothing: ("", 0) before the first live
    change or export (a dry run reads this)."""
    counter = get_db().counters.find_one({"_id": CHANGE_VERSION}, session=session)
    return ("", 0) if counter is None else (str(counter["database"]), int(counter["seq"]))
