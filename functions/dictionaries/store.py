"""Data access of the Dictionaries function besides the shared dealer network (`domain.dealers.store`): documents
and the settings singletons (contacts)."""

from __future__ import annotations

from typing import Any

from data.mongo import get_db

Doc = dict[str, Any]


def public_documents() -> list[Doc]:
    return list(get_db().documents.find({"public": True}).sort([("order", 1), ("_id", 1)]))


def find_document(slug: str) -> Doc | None:
    return get_db().documents.find_one({"slug": slug})


def find_setting(name: str) -> Doc | None:
    return get_db().settings.find_one({"_id": name})
