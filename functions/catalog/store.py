"""Data access of the Catalog function besides the shared catalog (`domain.catalog`): body types and
powertrains, reference data cached per instance (`data.reference_cache`)."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from data.mongo import get_db
from data.reference_cache import reference_data

Doc = dict[str, Any]
ORDER = [("order", 1), ("_id", 1)]


@reference_data
def body_types() -> list[Doc]:
    return list(get_db().body_types.find({}).sort(ORDER))


@reference_data
def powertrains() -> list[Doc]:
    return list(get_db().powertrains.find({}).sort(ORDER))


def _one(cached: list[Doc], collection: str, wanted: ObjectId | None) -> Doc | None:
    """The document from the cached list; one created since is read from the database."""
    if wanted is None:
        return None
    found = next((doc for doc in cached if doc["_id"] == wanted), None)
    return found or get_db()[collection].find_one({"_id": wanted})


def find_body_type(body_type_id: ObjectId | None) -> Doc | None:
    return _one(body_types(), "body_types", body_type_id)


def find_powertrain(powertrain_id: ObjectId | None) -> Doc | None:
    return _one(powertrains(), "powertrains", powertrain_id)
