"""Data access for the catalog filters: body types and powertrains."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from common.db import get_db

ORDER = [("order", 1), ("_id", 1)]


def body_types() -> list[dict[str, Any]]:
    return list(get_db().body_types.find({}).sort(ORDER))


def powertrains() -> list[dict[str, Any]]:
    return list(get_db().powertrains.find({}).sort(ORDER))


def find_body_type(body_type_id: ObjectId | None) -> dict[str, Any] | None:
    return get_db().body_types.find_one({"_id": body_type_id})


def find_powertrain(powertrain_id: ObjectId | None) -> dict[str, Any] | None:
    return get_db().powertrains.find_one({"_id": powertrain_id})
