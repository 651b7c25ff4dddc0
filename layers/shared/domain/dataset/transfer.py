"""Export and import of the reference data set (`python -m ops catalog export|import`).

An import is checked whole before anything is written (the file's models, then every reference), then
planned against the database (what is added, changed, kept or removed, per collection) and applied as
one MongoDB transaction: it happens entirely or not at all, also when the process dies half-way. The
same file imported twice changes nothing the second time.

Records missing from the file are removed, except what something staying in the database still points
at: a car or branch that orders name is deactivated (orders keep the price and deal they were placed
with, and their snapshot of the car), and what a kept record needs (its brand, region...) is kept.
The bank offers follow the credit products and modifications, and the brands' and cars' search keys
their names, in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bson import ObjectId
from pydantic import ValidationError
from pymongo.client_session import ClientSession

from core import clock
from core.errors import InvalidInput
from data.mongo import Document
from domain.catalog import sale
from domain.catalog.store import refresh_search_prefixes
from domain.dataset import store
from domain.dataset.models import FORMAT_VERSION, DataSet
from domain.dataset.store import Changes
from domain.financing.store import sync_bank_offers
from domain.orders.store import ordered_ids

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
# A record missing from the file but kept (something points at it) is hidden this way, if at all.
DEACTIVATED: dict[str, Document] = {"cars": {"active": False}, "branches": {"active": False}}
# Orders point at cars and branches: those stay (deactivated) when the file drops them.
ORDERED = {"cars": "carId", "branches": "branchId"}
CONTACTS_ID = "contacts"
# Stored but never in the file: computed on import (prices "from", search keys) or the database's own.
DERIVED = ("priceFrom", "saleStartsAt", "searchPrefixes", "used", "usedBy")
_MISSING = object()  # a field the stored record lacks (differs from any value, None included)


class DataSetRefused(InvalidInput):
    """The file is not a valid data set: `problems` name each record and field."""

    default_code = "DATA_SET_REFUSED"

    def __init__(self, *, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


@dataclass(frozen=True)
class Reference:
    path: str  # the field, from the record: `brandId`, `brandIds[2]`
    section: str  # what it points at: `brands`
    target: ObjectId


# --- reading the file -------------------------------------------------------------------------------


def parse(text: str) -> DataSet:
    """The data set in `text`, or DataSetRefused naming every record and field that is wrong."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataSetRefused(problems=[broken_json(text, error)]) from None
    try:
        return DataSet.model_validate(raw)
    except ValidationError as error:
        raise DataSetRefused(problems=[f"{location(e['loc'])}: {e['msg']}" for e in error.errors()]) from None


def location(loc: Iterable[int | str]) -> str:
    """`('cars', 12, 'brandId')` as `cars[12].brandId`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"


def broken_json(text: str, error: json.JSONDecodeError) -> str:
    """Where the file stops being JSON, named by the last record that was read whole (a truncated
    export names the list and index it was cut at)."""
    where = f"line {error.lineno} column {error.colno}: {error.msg}"
    decoder = json.JSONDecoder()
    position, section, index = _skip(text, 0), "", -1
    if not text.startswith("{", position):
        return f"(file): not a JSON object ({where})"
    position += 1
    try:
        while True:
            position = _skip(text, position)
            section, position = decoder.raw_decode(text, position)
            position = _skip(text, position) + 1  # the colon
            position = _skip(text, position)
            if text.startswith("[", position):
                index, position = -1, position + 1
                while not text.startswith("]", position := _skip(text, position)):
                    index += 1
                    _, position = decoder.raw_decode(text, position)
                    position = _skip(text, position)
                    position += 1 if text.startswith(",", position) else 0
                position += 1
            else:
                index = -1
                _, position = decoder.raw_decode(text, position)
            position = _skip(text, position)
            position += 1 if text.startswith(",", position) else 0
    except (json.JSONDecodeError, IndexError):
        record = f"{section}[{index}]" if index >= 0 else str(section or "(file)")
        return f"{record}: the file is broken or cut short here ({where})"


def _skip(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


# --- records and documents --------------------------------------------------------------------------


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


# --- references -------------------------------------------------------------------------------------


def references(section: str, doc: Document) -> list[Reference]:
    """What a stored document points at, outside its own record."""
    found: list[Reference] = []

    def to(path: str, target_section: str, value: Any) -> None:
        if isinstance(value, ObjectId):
            found.append(Reference(path, target_section, value))

    if section == "cars":
        to("brandId", "brands", doc.get("brandId"))
        to("bodyTypeId", "bodyTypes", doc.get("bodyTypeId"))
        to("powertrainId", "powertrains", doc.get("powertrainId"))
    elif section == "branches":
        to("regionId", "regions", doc.get("regionId"))
        for n, brand in enumerate(doc.get("brandIds", [])):
            to(f"brandIds[{n}]", "brands", brand)
    elif section == "stock":
        to("branchId", "branches", doc.get("branchId"))
        to("carId", "cars", doc.get("carId"))
    elif section in ("creditProducts", "leasingPrograms", "installmentPlans"):
        to("organizationId", "organizations", doc.get("organizationId"))
        to("brandId", "brands", doc.get("brandId"))
    elif section == "specialOffers":
        to("organizationId", "organizations", doc.get("organizationId"))
        to("carId", "cars", doc.get("carId"))
    return found


def _parts_of_cars(cars: Iterable[Document]) -> dict[ObjectId, tuple[set[Any], set[Any]]]:
    return {
        car["_id"]: (
            {modification["_id"] for modification in car.get("modifications", [])},
            {color["_id"] for color in car.get("colors", [])},
        )
        for car in cars
    }


def _unique(problems: list[str], section: str, docs: list[Document], label: str, key: Any) -> None:
    seen: dict[Any, int] = {}
    for n, doc in enumerate(docs):
        value = key(doc)
        if value is None:
            continue
        if value in seen:
            problems.append(f"{section}[{n}].{label}: {value} is also {section}[{seen[value]}]'s")
        else:
            seen[value] = n


def problems_of(files: dict[str, list[Document]], stored: dict[str, list[Document]]) -> list[str]:
    """Every duplicate and every reference of the file's records that resolves neither in the file nor,
    for a list the file leaves out, in the database."""
    problems: list[str] = []
    pools = {section: files[section] if section in files else stored[section] for section in SECTIONS}
    ids = {section: {doc["_id"] for doc in docs} for section, docs in pools.items()}
    for section, docs in files.items():
        _unique(problems, section, docs, "id", lambda doc: doc["_id"])
        if docs and "slug" in docs[0]:
            _unique(problems, section, docs, "slug", lambda doc: doc.get("slug"))
    if "stock" in files:
        _unique(problems, "stock", files["stock"], "modificationId", _stock_key)
    if "cars" in files:
        for part in ("modifications", "colors", "info"):
            seen: dict[Any, str] = {}
            for n, car in enumerate(files["cars"]):
                for m, item in enumerate(car.get(part, [])):
                    here = f"cars[{n}].{part}[{m}]"
                    if item["_id"] in seen:
                        problems.append(f"{here}.id: {item['_id']} is also {seen[item['_id']]}'s")
                    seen.setdefault(item["_id"], here)
    parts = _parts_of_cars(pools["cars"])
    for section, docs in files.items():
        for n, doc in enumerate(docs):
            for reference in references(section, doc):
                if reference.target not in ids[reference.section]:
                    what = SINGULAR[reference.section]
                    problems.append(f"{section}[{n}].{reference.path}: no {what} {reference.target}")
            problems += _parts_problems(section, n, doc, parts)
    return problems


def _stock_key(doc: Document) -> tuple[Any, ...]:
    return (doc["branchId"], doc["modificationId"], doc["colorId"])


def _parts_problems(
    section: str, n: int, doc: Document, parts: dict[ObjectId, tuple[set[Any], set[Any]]]
) -> Iterator[str]:
    """A stock row's or special offer's modification and color must be its car's."""
    if section not in ("stock", "specialOffers") or doc["carId"] not in parts:
        return
    modifications, colors = parts[doc["carId"]]
    car = doc["carId"]
    if section == "stock":
        if doc["modificationId"] not in modifications:
            yield f"stock[{n}].modificationId: no modification {doc['modificationId']} in car {car}"
        if doc["colorId"] not in colors:
            yield f"stock[{n}].colorId: no color {doc['colorId']} in car {car}"
        return
    for m, modification in enumerate(doc.get("modificationIds", [])):
        if modification not in modifications:
            yield f"specialOffers[{n}].modificationIds[{m}]: no modification {modification} in car {car}"


# --- planning and applying --------------------------------------------------------------------------


@dataclass
class Plan:
    """What importing the file does, per collection (in SECTIONS order)."""

    changes: list[Changes]
    bank_offers: tuple[int, int] | None = None  # created and removed, once applied

    def counts(self) -> dict[str, dict[str, int]]:
        counts = {changes.collection: changes.counts() for changes in self.changes}
        if self.bank_offers is not None:
            counts["bank_offers"] = dict(zip(("added", "removed"), self.bank_offers, strict=True))
        return counts

    @property
    def empty(self) -> bool:
        return not any(any(numbers.values()) for numbers in self.counts().values())


def _stored(session: ClientSession | None) -> dict[str, list[Document]]:
    stored = {section: store.read_all(collection, session=session) for section, collection in SECTIONS.items()}
    stored["contacts"] = [doc for doc in stored["contacts"] if doc["_id"] == CONTACTS_ID]  # one of the settings
    return stored


def _staying(
    files: dict[str, list[Document]], stored: dict[str, list[Document]], session: ClientSession | None
) -> dict[str, set[Any]]:
    """The ids of stored records missing from the file that must stay: what orders point at, what a
    list the file leaves out points at, and so on (what a staying record needs stays too)."""
    file_ids = {section: {doc["_id"] for doc in docs} for section, docs in files.items()}
    by_id = {section: {doc["_id"]: doc for doc in docs} for section, docs in stored.items()}
    staying: dict[str, set[Any]] = {section: set() for section in SECTIONS}
    queue: list[tuple[str, Document]] = []
    for section, docs in stored.items():
        if section not in files:
            queue += [(section, doc) for doc in docs]  # a list the file leaves out stays whole
    for section, field_name in ORDERED.items():
        if section in files:
            for record_id in ordered_ids(field_name, session=session) - file_ids[section]:
                if record_id in by_id[section]:
                    staying[section].add(record_id)
                    queue.append((section, by_id[section][record_id]))
    while queue:
        section, doc = queue.pop()
        for reference in references(section, doc):
            target = reference.section
            if target not in files or reference.target in file_ids[target] | staying[target]:
                continue
            if found := by_id[target].get(reference.target):
                staying[target].add(reference.target)
                queue.append((target, found))
    return staying


def plan(data: DataSet, *, session: ClientSession | None = None) -> Plan:
    """Check the file's references and work out every write, reading through `session` (the import's
    transaction) or without one (a dry run). DataSetRefused if a reference does not resolve."""
    files = {section: documents(data, section) for section in SECTIONS if getattr(data, section) is not None}
    stored = _stored(session)
    if problems := problems_of(files, stored):
        raise DataSetRefused(problems=problems)
    staying = _staying(files, stored, session)
    planned = []
    for section, docs in files.items():
        changes = Changes(SECTIONS[section], on_insert=new_record_fields(section))
        existing = {doc["_id"]: doc for doc in stored[section]}
        for doc in docs:
            before = existing.get(doc["_id"])
            if before is None:
                changes.added.append(doc)
            elif any(before.get(key, _MISSING) != value for key, value in doc.items()):
                changes.changed.append(doc)
        wanted = {doc["_id"] for doc in docs}
        for record_id, before in existing.items():
            if record_id in wanted:
                continue
            if record_id not in staying[section]:
                changes.removed.append(record_id)
            elif (hidden := DEACTIVATED.get(section)) and any(before.get(k) != v for k, v in hidden.items()):
                changes.retired.append((record_id, hidden))
        planned.append(changes)
    return Plan(planned)


def import_data_set(data: DataSet, *, dry_run: bool = False) -> Plan:
    """Import the data set (one transaction), or only plan it. Returns what it did or would do."""
    if dry_run:
        return plan(data)

    def work(session: ClientSession) -> Plan:
        planned = plan(data, session=session)
        for changes in planned.changes:
            store.apply(changes, session=session)
        planned.bank_offers = sync_bank_offers(session=session)
        refresh_search_prefixes(session=session)  # the names' search keys, derived as every catalog writer does
        return planned

    return store.replace_in_transaction(work)


def data_set_of(stored: dict[str, list[Document]]) -> DataSet:
    """The file holding these stored documents (by section; a section left out stays out)."""
    raw: dict[str, Any] = {"format": FORMAT_VERSION}
    for section, docs in stored.items():
        if section == "contacts":
            raw[section] = record_of(section, docs[0]) if docs else None
        else:
            raw[section] = [record_of(section, doc) for doc in docs]
    try:
        return DataSet.model_validate(raw)
    except ValidationError as error:  # the documents hold what the file format cannot say
        raise DataSetRefused(problems=[f"{location(e['loc'])}: {e['msg']} (stored)" for e in error.errors()]) from None


def export_data_set() -> DataSet:
    """The whole reference data set of the database, as the file holds it."""
    return data_set_of(_stored(None))


def is_empty() -> bool:
    """Whether the database holds no catalog yet (a new environment)."""
    return store.is_empty("cars") and store.is_empty("brands")


def holds_brands_of(data: DataSet) -> bool:
    """Whether the database holds every brand of the data set, by id: it was imported here (ids are the
    file's, so a catalog of the database's own shares none of them)."""
    ids = [brand.id for brand in data.brands or []]
    return bool(ids) and store.holds_all("brands", ids)
