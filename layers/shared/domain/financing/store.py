"""Read-only look-ups in the catalog collections (docs/DATA_MODEL.md) and in `organizations`, with the
404s of the financing routes when ids do not belong together, and the one rule of which payment types a
car is really offered with (the financing routes show it, orders accept it).

Organizations and each brand's active credit products, leasing programs and installment plans are
reference data, cached per instance (`data.reference_cache`); the car and its prices never are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from core.assets import url
from core.errors import NotFound
from core.locale import localize
from core.models import Organization, Page
from data.mongo import get_db
from data.reference_cache import reference_data
from domain.catalog import brands
from domain.catalog.payment_types import PaymentType
from edge import context

Doc = dict[str, Any]


def text(value: Any) -> Any:
    """A stored `{ru, uz, en}` text in the caller's language."""
    return localize(value, context.locale())


def brand(brand_id: str) -> Doc:
    found = brands.find_by_id(brand_id)
    if found is None:
        raise NotFound("Brand not found")
    return {"_id": found["_id"], "name": found["name"]}


def car_and_modification(
    modification_id: str, *, car_id: str | None = None, brand_id: str | None = None
) -> tuple[Doc, Doc]:
    """The car holding the modification, checked against the car and brand the client chose with it."""
    car = get_db().cars.find_one(
        {"modifications._id": ObjectId(modification_id)},
        {"brandId": 1, "name": 1, "paymentTypes": 1, "modifications": 1},
    )
    if car is None:
        raise NotFound("Modification not found")
    if car_id is not None and car["_id"] != ObjectId(car_id):
        raise NotFound("modificationId does not belong to carId")
    if brand_id is not None and car["brandId"] != ObjectId(brand_id):
        raise NotFound("The car of modificationId does not belong to brandId")
    modification = next(m for m in car["modifications"] if m["_id"] == ObjectId(modification_id))
    return car, modification


def organization_refs(organization_ids: list[ObjectId]) -> dict[ObjectId, Organization]:
    """Active organizations by id, as `{_id, name, logo}` (the logo as a URL)."""
    wanted = set(organization_ids)
    found = [org for org in _active_organizations() if org["_id"] in wanted]
    return {org["_id"]: Organization(id=org["_id"], name=text(org["name"]), logo=url(org.get("logo"))) for org in found}


@reference_data
def _active_organizations() -> list[Doc]:
    """Every active bank, leasing company and installment provider, in their order (a few dozen)."""
    found = get_db().organizations.find({"active": True}, {"name": 1, "logo": 1, "order": 1})
    return list(found.sort([("order", 1), ("name", 1)]))


def organization(organization_id: str) -> Organization:
    found = organization_refs([ObjectId(organization_id)])
    if not found:
        raise NotFound("Organization not found")
    return next(iter(found.values()))


def percent(basis_points: int) -> float:
    """A rate or share stored in basis points as the percent clients read: 2400 -> 24.0."""
    return basis_points / 100


def child(node: Doc, level: str, child_id: ObjectId) -> Doc | None:
    """The element of `node[level]` with this id, or None."""
    return next((item for item in node.get(level, []) if item["_id"] == child_id), None)


def listing[T](items: list[T]) -> Page[T]:
    """A complete list in the API's list shape."""
    return Page[Any](items=items, total=len(items))


# Where the organizations serving a brand for a payment type are found (CASH needs none).
SOURCES = {
    PaymentType.CREDIT: "credit_products",
    PaymentType.LEASING: "leasing_programs",
    PaymentType.INSTALLMENT: "installment_plans",
}
ORDER = ("order", "_id")


@dataclass(frozen=True)
class BrandFinancing:
    """A brand's active credit products, leasing programs and installment plans (programs and plans in
    their order)."""

    credit_products: list[Doc]
    leasing_programs: list[Doc]
    installment_plans: list[Doc]

    def of(self, payment_type: PaymentType) -> list[Doc]:
        source = SOURCES.get(payment_type)
        return [] if source is None else list(getattr(self, source))


@reference_data
def brand_financing(brand_id: ObjectId) -> BrandFinancing:
    """What finances the brand's cars, read in one round trip (the three collections as one union)."""
    match = {"$match": {"brandId": brand_id, "active": True}}
    first, *others = SOURCES.values()
    pipeline: list[Doc] = [match, {"$set": {"_source": first}}]
    pipeline += [
        {"$unionWith": {"coll": source, "pipeline": [match, {"$set": {"_source": source}}]}} for source in others
    ]
    found: dict[str, list[Doc]] = {source: [] for source in SOURCES.values()}
    for doc in get_db()[first].aggregate(pipeline):
        found[doc.pop("_source")].append(doc)
    in_order = {
        source: sorted(docs, key=lambda doc: tuple(doc.get(key, 0) for key in ORDER)) for source, docs in found.items()
    }
    return BrandFinancing(
        credit_products=found[SOURCES[PaymentType.CREDIT]],
        leasing_programs=in_order[SOURCES[PaymentType.LEASING]],
        installment_plans=in_order[SOURCES[PaymentType.INSTALLMENT]],
    )


def serving(payment_type: PaymentType, brand_id: ObjectId) -> list[ObjectId]:
    """The active organizations serving the brand for this payment type (none for CASH)."""
    return list(dict.fromkeys(doc["organizationId"] for doc in brand_financing(brand_id).of(payment_type)))


def offered_payment_types(car: dict[str, Any]) -> list[PaymentType]:
    """The car's payment types that are really offered for its brand: cash always, credit when an active
    bank serves the brand, and so on. The one rule for what clients are shown and what orders accept."""
    allowed = set(car.get("paymentTypes", []))
    return [
        kind
        for kind in PaymentType
        if kind in allowed and (kind is PaymentType.CASH or organization_refs(serving(kind, car["brandId"])))
    ]


def ensure_offered(car: dict[str, Any], kind: PaymentType) -> None:
    """404 unless the car is sold by `kind` (`offered_payment_types`): a calculation or schedule of a
    financing the car is not sold with. Listings answer an empty list instead."""
    if kind not in offered_payment_types(car):
        raise NotFound(
            f"The car is not sold by {kind.value}",
            details={"paymentType": kind.value, "offered": [offered.value for offered in offered_payment_types(car)]},
        )
