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
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from bson import ObjectId
from pydantic import TypeAdapter, ValidationError
from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict, InvalidInput
from core.serialization import to_json
from data import counters
from data.mongo import Document
from domain.catalog import sale
from domain.catalog.store import refresh_search_prefixes
from domain.dataset import store
from domain.dataset.models import FORMAT_VERSION, OFFERS_PER_CAR, SECTION_LIMITS, DataSet, ExportedFrom
from domain.dataset.store import Changes
from domain.financing.store import sync_bank_offers
from domain.orders.store import order_events, ordered_ids

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
DERIVED = ("priceFrom", "saleStartsAt", "searchPrefixes", "used", "usedBy", "changedIn", "buckets", "bucketsAsked")
_MISSING = object()  # a field the stored record lacks (differs from any value, None included)


class DataSetRefused(InvalidInput):
    """The file is not a valid data set: `problems` name each record and field."""

    default_code = "DATA_SET_REFUSED"

    def __init__(self, *, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


class DataSetOutdated(Conflict):
    """The import would undo live changes made since the file was exported: `problems` name each."""

    default_code = "DATA_SET_OUTDATED"

    def __init__(self, *, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


@dataclass(frozen=True)
class Reference:
    path: str  # the field, from the record: `brandId`, `brandIds[2]`
    section: str  # what it points at: `brands`
    target: ObjectId


# --- reading the file -------------------------------------------------------------------------------

MAX_PROBLEMS = 100  # a file's problems reported at most (then how many more there are)
LISTS = tuple(section for section in SECTIONS if section != "contacts")


@dataclass
class Parsed:
    """A file read whole: its valid records (an invalid record left out), every problem found (with its
    JSON path, at most MAX_PROBLEMS and how many more) and the ids of the invalid records, so that their
    references are not reported as missing too."""

    data: DataSet
    problems: list[str]
    more: int = 0
    invalid_ids: dict[str, set[ObjectId]] = field(default_factory=dict)
    positions: dict[str, list[int]] = field(default_factory=dict)  # each valid record's index in the file

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more += 1

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_PROBLEMS

    def refuse(self, *extra: str) -> None:
        """DataSetRefused with every problem found, if there is one."""
        for problem in extra:
            self.add(problem)
        if self.problems:
            tail = [f"... and {self.more} more problems"] if self.more else []
            raise DataSetRefused(problems=[*self.problems, *tail])


def parse(text: str) -> DataSet:
    """The data set in `text`, or DataSetRefused naming every record and field that is wrong."""
    parsed = read(text)
    parsed.refuse()
    return parsed.data


def read(text: str) -> Parsed:
    """The file's valid records and every problem of its records: the JSON first (a broken file is one
    problem, where it breaks), the number of records of each list (over a limit: refused before its
    records are read), then every record on its own (DataSetRefused for the first two)."""
    if over := oversized_sections(text):
        raise DataSetRefused(problems=over)
    try:
        raw = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise DataSetRefused(problems=[broken_json(text, error)]) from None
    except RecursionError:
        raise DataSetRefused(problems=["(file): nested far deeper than any data set"]) from None
    except ValueError as error:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        raise DataSetRefused(problems=[f"(file): {_first_line(error)}"]) from None
    if not isinstance(raw, dict):
        raise DataSetRefused(problems=[f"(file): a data set is a JSON object, not {_json_type(raw)}"])
    return _validated(raw)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _validated(raw: dict[str, Any]) -> Parsed:
    """Each record checked on its own, so every problem is found in one pass and a file of wrong types
    everywhere stops at MAX_PROBLEMS; the top level (format, contacts, unknown lists) by the DataSet."""
    top = {key: ([] if key in LISTS and isinstance(value, list) else value) for key, value in raw.items()}
    parsed = Parsed(DataSet.model_construct(format=1), [])
    try:
        parsed.data = DataSet.model_validate(top)
    except ValidationError as error:
        for problem in error.errors():
            parsed.add(f"{location(problem['loc'])}: {problem['msg']}")
    records: dict[str, list[Any]] = {}
    for section in LISTS:
        items = raw.get(section)
        if not isinstance(items, list):
            continue
        if len(items) > SECTION_LIMITS[section]:
            parsed.add(f"{section}: more than {SECTION_LIMITS[section]:,} records, more than any catalog has")
            continue
        adapter = _ITEM_ADAPTERS[section]
        valid, invalid, positions = [], set(), []
        for n, item in enumerate(items):
            if parsed.full:
                parsed.more += 1
                continue
            try:
                valid.append(adapter.validate_python(item))
                positions.append(n)
            except ValidationError as error:
                for problem in error.errors():
                    parsed.add(f"{location((section, n, *problem['loc']))}: {problem['msg']}")
                if isinstance(item, dict) and isinstance(item.get("id"), str) and ObjectId.is_valid(item["id"]):
                    invalid.add(ObjectId(item["id"]))
        records[section] = valid
        parsed.invalid_ids[section] = invalid
        parsed.positions[section] = positions
    parsed.data = parsed.data.model_copy(update=records)
    return parsed


def _record_model(section: str) -> Any:
    """`Brand` for `brands`: the item of the section's `list[...] | None`."""
    listed = next(arg for arg in get_args(DataSet.model_fields[section].annotation) if arg is not type(None))
    return get_args(listed)[0]


_ITEM_ADAPTERS: dict[str, TypeAdapter[Any]] = {section: TypeAdapter(_record_model(section)) for section in LISTS}


def oversized_sections(text: str) -> list[str]:
    """The lists of the file with more records than SECTION_LIMITS allows, found by reading their records
    one at a time and stopping at the first one over (a file of 100,000 brands is refused after 201);
    nothing if the file is no JSON object (the full read says so)."""
    decoder, problems = json.JSONDecoder(), []
    position = _skip(text, 0)
    if not text.startswith("{", position):
        return []
    position += 1
    try:
        while not text.startswith("}", position := _skip(text, position)):
            section, position = decoder.raw_decode(text, position)
            position = _skip(text, _skip(text, position) + 1)  # the colon
            limit = SECTION_LIMITS.get(section) if isinstance(section, str) else None
            if limit is None or not text.startswith("[", position):
                _, position = decoder.raw_decode(text, position)
            else:
                count, position = 0, position + 1
                while not text.startswith("]", position := _skip(text, position)):
                    count += 1
                    if count > limit:
                        problems.append(f"{section}: more than {limit:,} records, more than any catalog has")
                        return problems  # its other lists are not read: this one refuses the file already
                    _, position = decoder.raw_decode(text, position)
                    position = _skip(text, position)
                    position += 1 if text.startswith(",", position) else 0
                position += 1
            position = _skip(text, position)
            position += 1 if text.startswith(",", position) else 0
    except (json.JSONDecodeError, RecursionError, ValueError, IndexError):
        return []  # broken, too deep or a huge number: the full read names it
    return problems


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


At = Callable[[str, int], str]


def _duplicates(at: At, section: str, docs: list[Document], label: str, key: Any) -> Iterator[str]:
    seen: dict[Any, int] = {}
    for n, doc in enumerate(docs):
        value = key(doc)
        if value is None:
            continue
        if value in seen:
            yield f"{at(section, n)}.{label}: {value} is also {at(section, seen[value])}'s"
        else:
            seen[value] = n


def _duplicate_parts(at: At, cars: list[Document]) -> Iterator[str]:
    """A modification, color or info block id used twice, in one car or two."""
    for part in ("modifications", "colors", "info"):
        seen: dict[Any, str] = {}
        for n, car in enumerate(cars):
            for m, item in enumerate(car.get(part, [])):
                here = f"{at('cars', n)}.{part}[{m}]"
                if item["_id"] in seen:
                    yield f"{here}.id: {item['_id']} is also {seen[item['_id']]}'s"
                seen.setdefault(item["_id"], here)


def problems_of(
    files: dict[str, list[Document]],
    stored: dict[str, list[Document]],
    *,
    positions: Mapping[str, list[int]] | None = None,
    invalid_ids: Mapping[str, set[ObjectId]] | None = None,
) -> list[str]:
    """Every duplicate and every reference of the file's records that resolves neither in the file nor,
    for a list the file leaves out, in the database. `positions`: where each record is in the file (its
    invalid records left out of `files`); a reference to an invalid record of the file (`invalid_ids`)
    is not a problem of its own."""

    def at(section: str, n: int) -> str:
        where = positions[section][n] if positions and section in positions else n
        return f"{section}[{where}]"

    problems: list[str] = []
    pools = {section: files[section] if section in files else stored[section] for section in SECTIONS}
    ids = {section: {doc["_id"] for doc in docs} for section, docs in pools.items()}
    for section, invalid in (invalid_ids or {}).items():
        ids[section] |= invalid
    for section, docs in files.items():
        problems += _duplicates(at, section, docs, "id", lambda doc: doc["_id"])
        if docs and "slug" in docs[0]:
            problems += _duplicates(at, section, docs, "slug", lambda doc: doc.get("slug"))
    if "stock" in files:
        problems += _duplicates(at, "stock", files["stock"], "modificationId", _stock_key)
    problems += _duplicate_parts(at, files.get("cars", []))
    problems += _crowded_cars(pools["specialOffers"])
    parts = _parts_of_cars(pools["cars"])
    for section, docs in files.items():
        for n, doc in enumerate(docs):
            for reference in references(section, doc):
                if reference.target not in ids[reference.section]:
                    what = SINGULAR[reference.section]
                    problems.append(f"{at(section, n)}.{reference.path}: no {what} {reference.target}")
            problems += _parts_problems(section, at(section, n), doc, parts)
    return problems


def _crowded_cars(offers: list[Document]) -> Iterator[str]:
    """A car with more special offers than one answer lists (OFFERS_PER_CAR)."""
    per_car = Counter(offer["carId"] for offer in offers)
    for car, count in per_car.items():
        if count > OFFERS_PER_CAR:
            yield f"specialOffers: car {car} has {count}, at most {OFFERS_PER_CAR} (one answer lists them all)"


def _stock_key(doc: Document) -> tuple[Any, ...]:
    return (doc["branchId"], doc["modificationId"], doc["colorId"])


def _parts_problems(
    section: str, here: str, doc: Document, parts: dict[ObjectId, tuple[set[Any], set[Any]]]
) -> Iterator[str]:
    """A stock row's or special offer's modification and color must be its car's."""
    if section not in ("stock", "specialOffers") or doc["carId"] not in parts:
        return
    modifications, colors = parts[doc["carId"]]
    car = doc["carId"]
    if section == "stock":
        if doc["modificationId"] not in modifications:
            yield f"{here}.modificationId: no modification {doc['modificationId']} in car {car}"
        if doc["colorId"] not in colors:
            yield f"{here}.colorId: no color {doc['colorId']} in car {car}"
        return
    for m, modification in enumerate(doc.get("modificationIds", [])):
        if modification not in modifications:
            yield f"{here}.modificationIds[{m}]: no modification {modification} in car {car}"


# --- planning and applying --------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordChange:
    """One record an import adds, changes (field by field: path, before, after), deactivates or removes."""

    section: str
    record: str  # its id (a promo code: the code)
    label: str  # its slug or name, if it has one
    action: str  # add | change | deactivate | remove
    fields: tuple[tuple[str, Any, Any], ...] = ()


@dataclass
class Plan:
    """What importing the file does, per collection (in SECTIONS order), record by record."""

    changes: list[Changes]
    records: list[RecordChange] = field(default_factory=list)
    not_imported: list[str] = field(default_factory=list)  # lists of the file left as the database has them
    overwritten: list[str] = field(default_factory=list)  # live changes an import with force undoes
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


def _slugs_of_kept(
    files: dict[str, list[Document]],
    stored: dict[str, list[Document]],
    staying: dict[str, set[Any]],
    *,
    positions: Mapping[str, list[int]],
) -> Iterator[str]:
    """A record of the file whose slug (unique) a stored record missing from the file but staying holds:
    a car orders name, the brand a kept car needs."""
    for section, docs in files.items():
        kept = {
            doc["slug"]: doc["_id"] for doc in stored[section] if doc["_id"] in staying[section] and doc.get("slug")
        }
        for n, doc in enumerate(docs):
            if (holder := kept.get(doc.get("slug"))) is not None:
                here = f"{section}[{positions[section][n] if section in positions else n}]"
                yield (
                    f"{here}.slug: {doc['slug']} is also {SINGULAR[section]} {holder}'s, which stays (orders or "
                    "records kept point at it): give the new record another slug, or keep the old one's id"
                )


def differences(before: Any, after: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Where a stored value and the file's differ, field by field (`modifications[0].price`, stored, file);
    a field the stored record lacks reads None."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in after:
            name = "id" if key == "_id" else key
            yield from differences(before.get(key), after[key], f"{path}.{name}" if path else name)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for n, (old, new) in enumerate(zip(before, after, strict=True)):
            yield from differences(old, new, f"{path}[{n}]")
    elif before != after:
        yield path, before, after


def _label(doc: Document) -> str:
    name = doc.get("name")
    return str(doc.get("slug") or (name.get("en") if isinstance(name, dict) else name) or "")


def _record_changes(section: str, changes: Changes, existing: dict[Any, Document]) -> Iterator[RecordChange]:
    for doc in changes.added:
        yield RecordChange(section, str(doc["_id"]), _label(doc), "add")
    for doc in changes.changed:
        fields = tuple(differences(existing[doc["_id"]], doc))
        yield RecordChange(section, str(doc["_id"]), _label(doc), "change", fields)
    for record_id, hidden in changes.retired:
        fields = tuple((key, existing[record_id].get(key), value) for key, value in hidden.items())
        yield RecordChange(section, str(record_id), _label(existing[record_id]), "deactivate", fields)
    for record_id in changes.removed:
        yield RecordChange(section, str(record_id), _label(existing[record_id]), "remove")


# Records operators change live (`ops prices set`, `ops sale set|clear`, `ops promo add|disable`, `ops stock
# set`), stamped with the change version they were made in (`changedIn`, data.counters).
LIVE = ("cars", "promoCodes", "stock")


def _outdated(
    data: DataSet, records: list[RecordChange], stored: dict[str, list[Document]], session: ClientSession | None
) -> list[str]:
    """What of the plan undoes a live change made since the file was exported: a stamped record the file
    changes, deactivates or removes, and stock rows the file sets after orders moved stock. A file
    without `exportedFrom`, or from another database, is older than every live change."""
    database, version = counters.read_change_version(session=session)
    mark = data.exportedFrom
    own = mark is not None and mark.database == database and mark.changeVersion <= version
    since, events_then = (mark.changeVersion, mark.orderEvents) if own and mark else (0, 0)
    stamps = {(section, str(doc["_id"])): doc.get("changedIn", 0) for section in LIVE for doc in stored[section]}
    problems = []
    for change in records:
        stamp = stamps.get((change.section, change.record), 0)
        if change.section in LIVE and stamp > since and change.action != "add":
            fields = change.fields
            what = "; ".join(f"{path}: {_brief(old)} now, {_brief(new)} in the file" for path, old, new in fields)
            problems.append(
                f"{change.section} {change.record} ({change.label or '-'}): changed live since the file was "
                f"exported (change {stamp}, the file's {since if own else 'none'}); the import would "
                f"{change.action} it" + (f": {what}" if what else "")
            )
    if any(change.section == "stock" for change in records):
        events = order_events(session=session)
        if events > events_then:
            problems.append(
                f"stock: {events - events_then} order events since the file was exported (orders placed, "
                "cancelled or expired take and give back units): its quantities are out of date"
            )
    return problems


def _brief(value: Any) -> str:
    text = to_json(value)
    return text if len(text) <= 60 else text[:57] + "..."


def plan(
    parsed: Parsed, *, with_stock: bool = False, force: bool = False, session: ClientSession | None = None
) -> Plan:
    """Check the file's references and work out every write, reading through `session` (the import's
    transaction) or without one (a dry run): the same checks either way. DataSetRefused naming every
    problem of the file (its records' and references'); DataSetOutdated when it would undo live changes
    made since it was exported, unless `force`. Stock is imported only `with_stock`."""
    data = parsed.data
    files = {section: documents(data, section) for section in SECTIONS if getattr(data, section) is not None}
    not_imported = []
    if "stock" in files and not with_stock:
        del files["stock"]
        not_imported.append("stock")
    stored = _stored(session)
    parsed.refuse(*problems_of(files, stored, positions=parsed.positions, invalid_ids=parsed.invalid_ids))
    staying = _staying(files, stored, session)
    parsed.refuse(*_slugs_of_kept(files, stored, staying, positions=parsed.positions))
    planned: list[Changes] = []
    records: list[RecordChange] = []
    for section, docs in files.items():
        changes = Changes(SECTIONS[section], on_insert=new_record_fields(section))
        existing = {doc["_id"]: doc for doc in stored[section]}
        for doc in docs:
            before = existing.get(doc["_id"])
            if before is None:
                changes.added.append(doc)
            elif any(before.get(key, _MISSING) != value for key, value in doc.items()):
                changes.changed.append(doc)
                if any(before.get(key) != doc.get(key) for key in store.unique_key(changes.collection)):
                    changes.moved.append(doc["_id"])
        wanted = {doc["_id"] for doc in docs}
        for record_id, before in existing.items():
            if record_id in wanted:
                continue
            if record_id not in staying[section]:
                changes.removed.append(record_id)
            elif (hidden := DEACTIVATED.get(section)) and any(before.get(k) != v for k, v in hidden.items()):
                changes.retired.append((record_id, hidden))
        planned.append(changes)
        records += _record_changes(section, changes, existing)
    outdated = _outdated(data, records, stored, session)
    if outdated and not force:
        raise DataSetOutdated(problems=outdated)
    return Plan(planned, records, not_imported, overwritten=outdated)


def import_data_set(
    data: DataSet | Parsed, *, dry_run: bool = False, with_stock: bool = False, force: bool = False
) -> Plan:
    """Import the data set (one transaction), or only plan it. Returns what it did or would do. The plan is
    made first outside the transaction (every problem of the file named at once, as a dry run does), then
    again in it, on what the transaction reads."""
    parsed = data if isinstance(data, Parsed) else Parsed(data, [])
    checked = plan(parsed, with_stock=with_stock, force=force)
    if dry_run:
        return checked

    def work(session: ClientSession) -> Plan:
        planned = plan(parsed, with_stock=with_stock, force=force, session=session)
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
    """The whole reference data set of the database, as the file holds it, with the database's id, change
    version and order events (`exportedFrom`), all read in one transaction (one snapshot)."""

    def work(session: ClientSession) -> DataSet:
        database, version = counters.change_version(session=session)
        mark = ExportedFrom(
            database=database, changeVersion=version, orderEvents=order_events(session=session), at=clock.now()
        )
        return data_set_of(_stored(session)).model_copy(update={"exportedFrom": mark})

    return store.replace_in_transaction(work)


def is_empty() -> bool:
    """Whether the database holds no catalog yet (a new environment)."""
    return store.is_empty("cars") and store.is_empty("brands")


def holds_brands_of(data: DataSet) -> bool:
    """Whether the database holds every brand of the data set, by id: it was imported here (ids are the
    file's, so a catalog of the database's own shares none of them)."""
    ids = [brand.id for brand in data.brands or []]
    return bool(ids) and store.holds_all("brands", ids)
