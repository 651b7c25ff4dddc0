"""Checking a data set's references: every id the file's records point at (a car's brand, a stock row's
branch, car, modification and color...) resolves, in the file or, for a list the file leaves out, in the
database; no id or slug twice; no car with more special offers than one answer lists."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from data.mongo import Document
from domain.dataset.models import OFFERS_PER_CAR
from domain.dataset.sections import SECTIONS, SINGULAR


@dataclass(frozen=True)
class Reference:
    path: str  # the field, from the record: `brandId`, `brandIds[2]`
    section: str  # what it points at: `brands`
    target: ObjectId


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
