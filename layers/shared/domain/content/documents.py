"""The legal documents and the call centre's contacts as the API publishes them: found, or 404 naming what
is missing."""

from core.errors import NotFound
from domain.content import store
from domain.content.records import ContactsSetting, LegalDocument


def contacts() -> ContactsSetting:
    found = store.find_setting("contacts")
    if found is None:
        raise NotFound("CONTACTS_NOT_CONFIGURED")
    return found


def document(slug: str) -> LegalDocument:
    found = store.find_document(slug)
    if found is None:
        raise NotFound("DOCUMENT_NOT_FOUND")
    return found


def public_documents() -> list[LegalDocument]:
    """The documents listed publicly, in their order."""
    return store.public_documents()
