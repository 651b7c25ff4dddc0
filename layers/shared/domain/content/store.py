"""Data access for the content the API publishes: the legal documents (`documents`) and the settings
singletons (`settings`: the call centre's contacts). The one module that reads those collections."""

from typing import Literal, cast

from pymongo.collection import Collection

from data.mongo import Index, collection, get_db
from domain.content.records import ContactsSetting, LegalDocument

# The reference data set replaces these whole (domain.dataset; of `settings`, the contacts only).
DATASET_COLLECTIONS = ("documents", "settings")

INDEXES = [
    Index(collection="documents", keys=[("slug", 1)], name="documents_slug_unique", options={"unique": True}),
    Index(collection="documents", keys=[("public", 1), ("order", 1), ("_id", 1)], name="documents_public_order"),
]


def _documents() -> Collection[LegalDocument]:
    return collection("documents", LegalDocument)


def public_documents() -> list[LegalDocument]:
    return list(_documents().find({"public": True}, sort=[("order", 1), ("_id", 1)]))


def find_document(slug: str) -> LegalDocument | None:
    return _documents().find_one({"slug": slug})


def find_setting(name: Literal["contacts"]) -> ContactsSetting | None:
    return cast("ContactsSetting | None", get_db().settings.find_one({"_id": name}))
