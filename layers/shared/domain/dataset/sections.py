"""The data set file's lists (its sections), the collections they fill, and a record of the file as the
database stores it and back."""

from __future__ import annotations

from typing import Any

from pymongo.client_session import ClientSession

from core import clock
from data.mongo import Document
from domain.catalog import sale
from domain.dataset import store
from domain.dataset.models import DataSet

# The file's lists and the collections they fill, in the order references need them.
SECTIONS: dict[str, str] = {
    "brands": "brands",
    "bodyTypes": "body_types",
    "powertrains": "powertrains",
    "cars": "cars",
    "regions": "regions",
    "branches": "branches",
    "stock": "stock",
    "organizations": "organizations",
    "creditProducts": "credit_products",
    "leasingPrograms": "leasing_programs",
    "installmentPlans": "installment_plans",
    "specialOffers": "special_offers",
    "documents": "documents",
    "contacts": "settings",
    "promoCodes": "promo_codes",
}
SINGULAR = {
    "brands": "brand",
    "bodyTypes": "body type",
    "powertrains": "powertrain",
    "cars": "car",
    "regions": "region",
    "branches": "branch",
    "organizations": "organization",
}
CONTACTS_ID = "contacts"
# Stored but never in the file: computed on import (prices "from", search keys) or the database's own.
DERIVED = ("priceFrom", "saleStartsAt", "searchPrefixes", "used", "usedBy", "changedIn", "buckets", "bucketsAsked")


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {(new if key == old else key): _renamed(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    return value


def documents(data: DataSet, section: str) -> list[Document]:
    """The stored documents of one section of the file: ids as `_id`, derived fields computed; what the
    database keeps on its own (creation times left out of the file, promo code uses) is not set."""
    value = getattr(data, section)
    if section == "contacts":
        return [{"_id": CONTACTS_ID, **value.model_dump()}]
    docs = []
    for record in value:
        doc = _renamed(record.model_dump(), "id", "_id")
        if section == "promoCodes":
            doc["_id"] = doc.pop("code")
        if section == "cars":
            doc["priceFrom"] = min(modification["price"] for modification in doc["modifications"])
            # Derived, for the lists; null (stored) when there are no rules, as `sale`: an import sets the
            # fields of the file, so a rule left out of it is cleared.
            doc["saleStartsAt"] = sale.starts_at(doc)
        if doc.get("createdAt", "") is None:
            del doc["createdAt"]
        docs.append(doc)
    return docs


def new_record_fields(section: str) -> Document:
    """What a record starts with that the file does not say."""
    now = clock.now()
    if section == "promoCodes":
        return {"used": 0, "usedBy": [], "createdAt": now}
    return {"createdAt": now} if section in ("brands", "cars") else {}


def record_of(section: str, doc: Document) -> dict[str, Any]:
    """A stored document as the file holds it."""
    record = {key: value for key, value in doc.items() if key not in DERIVED}
    if section == "promoCodes":
        record.pop("createdAt", None)
        record["code"] = record.pop("_id")
        return record
    if section == "contacts":
        record.pop("_id", None)
        return record
    return _renamed(record, "_id", "id")


def read_stored(session: ClientSession | None) -> dict[str, list[Document]]:
    """Every section's stored documents, read through `session` (a transaction) or without one."""
    stored = {section: store.read_all(collection, session=session) for section, collection in SECTIONS.items()}
    stored["contacts"] = [doc for doc in stored["contacts"] if doc["_id"] == CONTACTS_ID]  # one of the settings
    return stored
