"""The content's documents as `domain.content.store` returns them: the legal documents and the contacts."""

from typing import NotRequired, TypedDict

from bson import ObjectId

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


class ContactsSetting(TypedDict, total=False):
    """The `contacts` settings singleton: how to reach the call centre."""

    _id: str
    phone: str | None
    tg: str | None
