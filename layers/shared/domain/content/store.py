"""Data access for the content the API publishes: the legal documents (`documents`) and the settings
singletons (`settings`: the call centre's contacts). The one module that reads those collections."""

from typing import Literal, NotRequired, TypedDict, cast

from bson import ObjectId
from pymongo.collection import Collection

from data.mongo import Index, collection, get_db

# The reference data set replaces these whole (domain.dataset; of `settings`, the contacts only).
DATASET_COLLECTIONS = ("documents", "settings")

INDEXES = [
    Index("documents", [("slug", 1)], "documents_slug_unique", {"unique": True}),
    Index("documents", [("public", 1), ("order", 1), ("_id", 1)], "documents_public_order"),
]

# `{ru, uz, en}`: one text per language (core.locale.localize picks one)
LocalizedText = dict[str, str]


class LegalDocument(TypedDict):
    """An offer, contract or policy: a file per language (PDF), or Markdown text."""

    _id: ObjectId
    slug: str  # unique: offer, checkout, privacy-policy...
    title: NotRequired[LocalizedText | None]
    file: NotRequired[LocalizedText | None]  # a URL or an asset key, per language
    markdown: NotRequired[LocalizedText | None]  # for a text document
    order: NotRequired[int]
    public: NotRequired[bool]


class Contacts(TypedDict, total=False):
    """The `contacts` settings singleton: how to reach the call centre."""

    _id: str
    phone: str | None
    tg: str | None


def _documents() -> Collection[LegalDocument]:
    return collection("documents", LegalDocument)


def public_documents() -> list[LegalDocument]:
    return list(_documents().find({"public": True}, sort=[("order", 1), ("_id", 1)]))


def find_document(slug: str) -> LegalDocument | None:
    return _documents().find_one({"slug": slug})


def find_setting(name: Literal["contacts"]) -> Contacts | None:
    return cast("Contacts | None", get_db().settings.find_one({"_id": name}))
