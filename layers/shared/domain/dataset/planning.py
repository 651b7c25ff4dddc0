"""Planning an import: what it adds, changes, deactivates or removes, per collection and record by record,
the file's references checked against what stays, refused when it would undo a live change made since the
file was exported. The dry run and the import make the same plan."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pymongo.client_session import ClientSession

from core.errors import Conflict
from core.serialization import to_json
from data import counters
from data.mongo import Document
from domain.dataset import store
from domain.dataset.checks import problems_of, references
from domain.dataset.models import DataSet
from domain.dataset.reading import Parsed
from domain.dataset.sections import SECTIONS, SINGULAR, documents, new_record_fields, read_stored
from domain.dataset.store import Changes
from domain.orders.store import order_events, ordered_ids

# A record missing from the file but kept (something points at it) is hidden this way, if at all.
DEACTIVATED: dict[str, Document] = {"cars": {"active": False}, "branches": {"active": False}}
# Orders point at cars and branches: those stay (deactivated) when the file drops them.
ORDERED = {"cars": "carId", "branches": "branchId"}
_MISSING = object()  # a field the stored record lacks (differs from any value, None included)


class DataSetOutdated(Conflict):
    """The import would undo live changes made since the file was exported: `problems` name each."""

    default_code = "DATA_SET_OUTDATED"

    def __init__(self, *, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


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
    stored = read_stored(session)
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
