"""Reading and replacing the reference collections as a whole, for the data set import and export.

The collections stay their areas' (docs/ARCHITECTURE.md): each owner lists the ones that are reference
data in its `DATASET_COLLECTIONS`, and this module reads and writes only those, record by record, as
the import planned it. The rules of each area still live in its own store (the bank offers that follow
credit products and modifications are the financing store's, `sync_bank_offers`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bson import ObjectId
from pymongo import DeleteMany, UpdateOne
from pymongo.client_session import ClientSession

from data.mongo import Document, get_db, in_transaction
from domain.catalog import store as catalog
from domain.content import store as content
from domain.dealers import store as dealers
from domain.financing import store as financing
from domain.orders import store as orders

# A whole data set is a few megabytes: far more than one request's MONGODB_TIMEOUT_MS allows.
IMPORT_TIMEOUT_SECONDS = 300

COLLECTIONS: tuple[str, ...] = (
    *catalog.DATASET_COLLECTIONS,
    *dealers.DATASET_COLLECTIONS,
    *financing.DATASET_COLLECTIONS,
    *content.DATASET_COLLECTIONS,
    *orders.DATASET_COLLECTIONS,
)

RecordId = ObjectId | str


@dataclass
class Changes:
    """What an import does to one collection: each upsert `$set`s its fields (and `on_insert` the
    fields a new record starts with); `retire` `$set`s fields of records kept although missing from the
    file (a car orders point at is deactivated); `removed` are deleted; `moved` are the changed records
    whose unique key (`UNIQUE_KEYS`) changes."""

    collection: str
    added: list[Document] = field(default_factory=list)
    changed: list[Document] = field(default_factory=list)
    retired: list[tuple[RecordId, Document]] = field(default_factory=list)
    removed: list[RecordId] = field(default_factory=list)
    on_insert: Document = field(default_factory=dict)
    moved: list[RecordId] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "added": len(self.added),
            "changed": len(self.changed),
            "deactivated": len(self.retired),
            "removed": len(self.removed),
        }


def read_all(collection: str, *, session: ClientSession | None = None) -> list[Document]:
    """Every record of a reference collection, by id."""
    assert collection in COLLECTIONS, collection
    found = list(get_db()[collection].find({}, session=session).sort("_id", 1))
    # A stock row split into buckets holds only its first: the file holds every unit (domain.dealers.store).
    return dealers.with_split_units(found, session=session) if collection == "stock" else found


def is_empty(collection: str) -> bool:
    assert collection in COLLECTIONS, collection
    return get_db()[collection].find_one({}, {"_id": 1}) is None


def holds_all(collection: str, ids: list[ObjectId]) -> bool:
    """Whether every one of these records is in the collection (by id)."""
    assert collection in COLLECTIONS, collection
    return get_db()[collection].count_documents({"_id": {"$in": ids}}) == len(set(ids))


# The fields of each reference collection's unique index besides `_id` (the owners' INDEXES): a slug,
# or a stock row's branch, modification and color.
UNIQUE_KEYS: dict[str, tuple[str, ...]] = {"stock": ("branchId", "modificationId", "colorId")}
SLUG_KEY = ("slug",)


def unique_key(collection: str) -> tuple[str, ...]:
    return UNIQUE_KEYS.get(collection, SLUG_KEY)


def _aside(collection: str, record_id: RecordId) -> Document:
    """A moving record's unique key set to a value of its own id, which no other record and no file holds
    (a slug has no `~`; a color id is never a stock row's id)."""
    if collection == "stock":
        return {"colorId": record_id}
    return {"slug": f"~{record_id}"}


def apply(changes: Changes, *, session: ClientSession) -> None:
    """The planned writes, in an order the unique indexes (slugs, stock rows) accept whenever the end state
    does: removed records go first (a new record may take a removed one's slug), and moving keys are set
    aside before any record takes them (two records may swap theirs), so that an import the plan passed
    never fails on a duplicate key."""
    assert changes.collection in COLLECTIONS, changes.collection
    writes: list[UpdateOne | DeleteMany] = []
    if changes.removed:
        writes.append(DeleteMany({"_id": {"$in": changes.removed}}))
    writes += [
        UpdateOne({"_id": record_id}, {"$set": _aside(changes.collection, record_id)}) for record_id in changes.moved
    ]
    for doc in [*changes.added, *changes.changed]:
        update: Document = {"$set": {key: value for key, value in doc.items() if key != "_id"}}
        if on_insert := {key: value for key, value in changes.on_insert.items() if key not in doc}:
            update["$setOnInsert"] = on_insert
        writes.append(UpdateOne({"_id": doc["_id"]}, update, upsert=True))
    writes += [UpdateOne({"_id": record_id}, {"$set": fields}) for record_id, fields in changes.retired]
    if writes:
        get_db()[changes.collection].bulk_write(writes, ordered=True, session=session)
    if changes.collection == "stock":  # the file's quantity is every unit: spread it over the row's buckets
        written = [doc["_id"] for doc in [*changes.added, *changes.changed]]
        dealers.respread_rows(written, changes.removed, session=session)


def replace_in_transaction[T](work: Callable[[ClientSession], T]) -> T:
    """Run the whole import as one transaction (`data.mongo.in_transaction`) with the time a data set needs."""
    return in_transaction(work, seconds=IMPORT_TIMEOUT_SECONDS)
