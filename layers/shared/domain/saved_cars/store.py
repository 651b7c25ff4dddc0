"""Data access for saved cars, the one module that reads and writes `saved_cars`: one document per
(fingerprint, car), unique, whose `saved` flag the toggle flips in one atomic update. A document without
the flag (written before it existed) is saved."""

from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.collection import Collection
from pymongo.errors import DuplicateKeyError

from core import clock
from data import mongo
from data.mongo import Index, collection

INDEXES = [
    # The toggle's race guard, and the `saved` flag lookups of the catalog.
    Index(
        collection="saved_cars",
        keys=[("fingerprint", 1), ("carId", 1)],
        name="saved_cars_fingerprint_car_unique",
        options={"unique": True},
    ),
    # The list: a device's saved cars, newest first; `saved` in the keys, so a removed one is skipped and
    # the list counted without reading a document.
    Index(
        collection="saved_cars",
        keys=[("fingerprint", 1), ("createdAt", -1), ("_id", -1), ("saved", 1)],
        name="saved_cars_fingerprint_newest_saved",
    ),
]

NEWEST_FIRST = [("createdAt", -1), ("_id", -1)]
IS_SAVED = {"saved": {"$ne": False}}
# In the update below, the state before it: saved when the record exists and is not flagged unsaved.
WAS_SAVED = {"$and": [{"$eq": [{"$type": "$createdAt"}, "date"]}, {"$ne": ["$saved", False]}]}


class SavedCar(TypedDict):
    """A car saved on a device (the `fingerprint` header), or saved once and since removed."""

    _id: ObjectId
    fingerprint: str
    carId: ObjectId
    createdAt: datetime  # when it was last saved: the list's order
    saved: NotRequired[bool]  # False once removed; absent (written before the flag): saved


def _saved_cars() -> Collection[SavedCar]:
    return collection("saved_cars", SavedCar)


def toggle(fingerprint: str, car_id: ObjectId) -> Literal["saved", "removed"]:
    """Save the car if this device has not, else remove it: ONE atomic update (upsert) flips the flag,
    so parallel toggles from one device each make a real transition and the final state is their parity.
    `createdAt` is when it was last saved (the list's order). The first toggle's upsert has the server
    mint the `_id` (unique per server, unlike ids minted in a restored SnapStart snapshot)."""
    flip = [
        {"$set": {"saved": {"$cond": [WAS_SAVED, False, True]}}},
        {"$set": {"createdAt": {"$cond": ["$saved", clock.now(), "$createdAt"]}}},
    ]
    key = {"fingerprint": fingerprint, "carId": car_id}
    saved_cars = _saved_cars()
    try:
        after = saved_cars.find_one_and_update(
            key, flip, upsert=True, return_document=ReturnDocument.AFTER, projection={"saved": 1}
        )
    except DuplicateKeyError:
        # Two first toggles raced to insert (MongoDB retries this itself; other servers may not):
        # the record exists now, so the same update flips it.
        after = saved_cars.find_one_and_update(key, flip, return_document=ReturnDocument.AFTER, projection={"saved": 1})
    return "saved" if after and after["saved"] else "removed"


def find_page(fingerprint: str, *, offset: int, limit: int) -> mongo.FoundPage[ObjectId]:
    """The ids of the device's saved cars, newest first, and how many it has saved; limit 0 only counts."""
    query = {"fingerprint": fingerprint, **IS_SAVED}
    found = mongo.find_page(_saved_cars(), query, NEWEST_FIRST, offset=offset, limit=limit, projection={"carId": 1})
    return mongo.FoundPage([saved["carId"] for saved in found.items], found.total, found.exact)


def forget(fingerprint: str, car_ids: list[ObjectId]) -> int:
    """Drop these cars from the device's list; returns how many were saved."""
    query = {"fingerprint": fingerprint, "carId": {"$in": car_ids}, **IS_SAVED}
    return _saved_cars().delete_many(query).deleted_count


def saved_car_ids(fingerprint: str, car_ids: list[ObjectId]) -> set[ObjectId]:
    """Which of these cars the device has saved: the server answers their ids alone, in one command
    (`distinct`: no cursor to open, iterate and close)."""
    if not car_ids:
        return set()
    return set(_saved_cars().distinct("carId", {"fingerprint": fingerprint, "carId": {"$in": car_ids}, **IS_SAVED}))
