"""Data access for saved cars: one document per (fingerprint, car), unique."""

from __future__ import annotations

from contextlib import suppress
from typing import Any, Literal

from bson import ObjectId
from pymongo.errors import DuplicateKeyError

from common import clock, db
from common.db import get_db
from common.ids import new_id

NEWEST_FIRST = [("createdAt", -1), ("_id", -1)]


def toggle(fingerprint: str, car_id: ObjectId) -> Literal["saved", "removed"]:
    """Remove the car if this device saved it, else save it. Race-safe: the unique index on
    (fingerprint, carId) lets only one concurrent save insert; the others find it saved."""
    saved_cars = get_db().saved_cars
    if saved_cars.delete_one({"fingerprint": fingerprint, "carId": car_id}).deleted_count:
        return "removed"
    # A concurrent request from the same device may have saved it first: it is saved either way.
    with suppress(DuplicateKeyError):
        saved_cars.insert_one({"_id": new_id(), "fingerprint": fingerprint, "carId": car_id, "createdAt": clock.now()})
    return "saved"


def find_page(fingerprint: str, *, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The device's saved cars, newest first; limit 0 only counts."""
    query = {"fingerprint": fingerprint}
    return db.find_page(get_db().saved_cars, query, NEWEST_FIRST, offset=offset, limit=limit, projection={"carId": 1})


def forget(fingerprint: str, car_ids: list[ObjectId]) -> int:
    """Drop these cars from the device's list; returns how many were there."""
    return get_db().saved_cars.delete_many({"fingerprint": fingerprint, "carId": {"$in": car_ids}}).deleted_count


def saved_car_ids(fingerprint: str, car_ids: list[ObjectId]) -> set[ObjectId]:
    """Which of these cars the device has saved."""
    if not car_ids:
        return set()
    found = get_db().saved_cars.find({"fingerprint": fingerprint, "carId": {"$in": car_ids}}, {"carId": 1})
    return {doc["carId"] for doc in found}
