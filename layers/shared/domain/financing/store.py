"""The financing data: `organizations`, `credit_products`, `leasing_programs`, `installment_plans`,
`bank_offers` and `special_offers`; this module alone reads and writes them.

Organizations and each brand's active credit products, leasing programs and installment plans are
reference data, cached per instance (`data.reference_cache`); offers are not.

Bank offers are created with the financing data, never by a GET: `create_bank_offers` stores the offer of
every active credit product for every modification of its brand's cars (the seed runs it, operators run
`python -m ops bank-offers` after adding cars, modifications or credit products).
"""

import hashlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple, cast

from bson import ObjectId, encode
from bson.raw_bson import RawBSONDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import BulkWriteError

from core import clock
from data.lazy_records import LazyRecord, aggregate_lazily
from data.mongo import Document, Index, collection
from data.reference_cache import generation, reference_data
from domain.catalog import store as catalog
from domain.catalog.payment_types import PaymentType
from domain.financing.records import (
    BankOfferRecord,
    CreditProductRecord,
    InstallmentPlanRecord,
    LeasingProgramRecord,
    OrganizationRecord,
    SpecialOfferRecord,
)

DUPLICATE_KEY = 11000
# The reference data set replaces these whole (domain.dataset); the bank offers follow (sync_bank_offers).
DATASET_COLLECTIONS = ("organizations", "credit_products", "leasing_programs", "installment_plans", "special_offers")

INDEXES = [
    Index(collection="organizations", keys=[("slug", 1)], name="organizations_slug_unique", options={"unique": True}),
    Index(collection="credit_products", keys=[("brandId", 1), ("active", 1)], name="credit_products_by_brand"),
    # Each chain step finds the product by the id of the node it was given.
    Index(collection="credit_products", keys=[("incomeTypes._id", 1)], name="credit_products_by_income_type"),
    Index(
        collection="credit_products",
        keys=[("incomeTypes.initialPayments._id", 1)],
        name="credit_products_by_initial_payment",
    ),
    Index(
        collection="credit_products",
        keys=[("incomeTypes.initialPayments.loanTerms._id", 1)],
        name="credit_products_by_loan_term",
    ),
    # /banks reads a modification's offers. The pair is unique already: an offer's _id is derived from it.
    Index(collection="bank_offers", keys=[("modificationId", 1), ("productId", 1)], name="bank_offers_by_modification"),
    Index(
        collection="leasing_programs", keys=[("brandId", 1), ("organizationId", 1)], name="leasing_programs_by_brand"
    ),
    Index(collection="installment_plans", keys=[("brandId", 1), ("active", 1)], name="installment_plans_by_brand"),
    Index(collection="special_offers", keys=[("carId", 1), ("kind", 1)], name="special_offers_by_car"),
]


def _credit_products(db: Database[Document] | None = None) -> Collection[CreditProductRecord]:
    return collection("credit_products", CreditProductRecord, database=db)


def _bank_offers(db: Database[Document] | None = None) -> Collection[BankOfferRecord]:
    return collection("bank_offers", BankOfferRecord, database=db)


def _special_offers() -> Collection[SpecialOfferRecord]:
    return collection("special_offers", SpecialOfferRecord)


# --- organizations ----------------------------------------------------------------------------------


@reference_data
def all_active_organizations() -> list[OrganizationRecord]:
    """Every active bank, leasing company and installment provider, in their order (a few dozen)."""
    organizations = collection("organizations", OrganizationRecord)
    found = organizations.find({"active": True}, {"name": 1, "logo": 1, "order": 1})
    return list(found.sort([("order", 1), ("name", 1)]))


def active_organizations(organization_ids: list[ObjectId]) -> dict[ObjectId, OrganizationRecord]:
    """The active ones of these organizations, by id, in their order."""
    wanted = set(organization_ids)
    return {org["_id"]: org for org in all_active_organizations() if org["_id"] in wanted}


# --- each brand's credit products, leasing programs and installment plans ---------------------------

# Where the organizations serving a brand for a payment type are found (CASH needs none).
SOURCES = {
    PaymentType.CREDIT: "credit_products",
    PaymentType.LEASING: "leasing_programs",
    PaymentType.INSTALLMENT: "installment_plans",
}


class StoredRecord[R](NamedTuple):
    """A product, program or plan of a brand's reading: what picks it (id, organization, order), and the
    record itself, decoded when first used (`data.lazy_records`)."""

    record_id: ObjectId
    organization_id: ObjectId
    order: int
    lazy: LazyRecord[R]

    def record(self) -> R:
        return self.lazy.record()


class BrandFinancing:
    """A brand's active credit products, leasing programs and installment plans (programs and plans in
    their order), each decoded when first used; with what routes render of them (`rendered`)."""

    __slots__ = ("_credit_products", "_installment_plans", "_leasing_programs", "_renderings")

    def __init__(
        self,
        credit_products: list[StoredRecord[CreditProductRecord]],
        leasing_programs: list[StoredRecord[LeasingProgramRecord]],
        installment_plans: list[StoredRecord[InstallmentPlanRecord]],
    ) -> None:
        self._credit_products = credit_products
        self._leasing_programs = leasing_programs
        self._installment_plans = installment_plans
        # key -> (the generation of the organizations it was rendered with, the rendering)
        self._renderings: dict[Hashable, tuple[int, Any]] = {}

    def credit_products(self) -> list[CreditProductRecord]:
        return [stored.record() for stored in self._credit_products]

    def credit_product(self, product_id: ObjectId) -> CreditProductRecord | None:
        """The product with this id, decoding none of the others."""
        return next((stored.record() for stored in self._credit_products if stored.record_id == product_id), None)

    def leasing_programs(self, organization_id: ObjectId | None = None) -> list[LeasingProgramRecord]:
        """The programs, or those of one organization (decoding none of the others)."""
        return [
            stored.record()
            for stored in self._leasing_programs
            if organization_id is None or stored.organization_id == organization_id
        ]

    def installment_plans(self) -> list[InstallmentPlanRecord]:
        return [stored.record() for stored in self._installment_plans]

    def rendering[T](self, key: Hashable, generation: int, build: "Callable[[BrandFinancing], T]") -> T:
        """The rendering `key` of this financing, made by `build` unless made already with the organizations
        of this `generation` (`data.reference_cache.generation`)."""
        kept = self._renderings.get(key)
        if kept is not None and kept[0] == generation:
            value: T = kept[1]
            return value
        value = build(self)
        self._renderings[key] = (generation, value)
        return value

    def organization_ids(self, payment_type: PaymentType) -> list[ObjectId]:
        """The organizations of the products, programs or plans of this payment type (none for CASH)."""
        found: dict[PaymentType, list[StoredRecord[Any]]] = {
            PaymentType.CREDIT: self._credit_products,
            PaymentType.LEASING: self._leasing_programs,
            PaymentType.INSTALLMENT: self._installment_plans,
        }
        return list(dict.fromkeys(stored.organization_id for stored in found.get(payment_type, [])))


@reference_data
def brand_financing(brand_id: ObjectId) -> BrandFinancing:
    """What finances the brand's cars, read in one round trip (the three collections as one union), each
    document with what picks it beside it, decoded when first used."""
    match = {"$match": {"brandId": brand_id, "active": True}}

    def wrapped(source: str) -> Document:
        picks = {"_id": "$_id", "organizationId": "$organizationId", "order": "$order"}
        return {"$replaceWith": {"source": source, **picks, "record": "$$ROOT"}}

    first, *others = SOURCES.values()
    pipeline: list[Document] = [match, wrapped(first)]
    pipeline += [{"$unionWith": {"coll": source, "pipeline": [match, wrapped(source)]}} for source in others]
    found: dict[str, list[StoredRecord[Any]]] = {source: [] for source in SOURCES.values()}
    for doc, record in aggregate_lazily(first, pipeline, "record"):
        found[doc["source"]].append(
            StoredRecord(
                record_id=doc["_id"], organization_id=doc["organizationId"], order=doc.get("order", 0), lazy=record
            )
        )
    in_order = {source: sorted(stored, key=lambda s: (s.order, s.record_id)) for source, stored in found.items()}
    return BrandFinancing(
        credit_products=found[SOURCES[PaymentType.CREDIT]],
        leasing_programs=in_order[SOURCES[PaymentType.LEASING]],
        installment_plans=in_order[SOURCES[PaymentType.INSTALLMENT]],
    )


def rendered[T](brand_id: ObjectId, key: Hashable, build: Callable[[BrandFinancing], T]) -> T:
    """What `build` makes of the brand's financing and the active organizations (a list in a language, the
    payment types offered), made once per reading of them: kept with the brand's financing while the
    active organizations are of the generation the cache answers, so never older than what it comes from
    (and with caching off, made on every call). `key` names the rendering among the brand's; shared:
    callers never change it."""
    return brand_financing(brand_id).rendering(key, generation(all_active_organizations), build)


def financed_payment_types(brand_id: ObjectId) -> frozenset[PaymentType]:
    """The payment types an active organization finances the brand's cars with (never CASH)."""
    return rendered(
        brand_id,
        "financed",
        lambda financing: frozenset(kind for kind in SOURCES if active_organizations(financing.organization_ids(kind))),
    )


def credit_tree_node(levels: Sequence[str], node_id: ObjectId, fields: Sequence[str]) -> Any:
    """The node with this id at `levels` of an active credit product's tree (e.g. incomeTypes,
    initialPayments: an initial payment), with only `fields` of it (paths in the node), or None. The
    server unwinds the tree down to the node and sends what is asked of it alone."""
    path = ".".join(levels)
    pipeline: list[Document] = [{"$match": {f"{path}._id": node_id, "active": True}}, {"$limit": 1}]
    pipeline += [{"$unwind": "$" + ".".join(levels[: depth + 1])} for depth in range(len(levels))]
    pipeline += [{"$match": {f"{path}._id": node_id}}, {"$replaceWith": "$" + path}]
    pipeline += [{"$project": {"_id": 0, **dict.fromkeys(fields, 1)}}]
    return next(_credit_products().aggregate(pipeline), None)


# The levels of a credit product's tree, in the order of the bank chain, with the fields `offer_choice`
# reads of the node chosen at each.
CREDIT_PATH = (
    ("incomeTypes", ("_id", "slug", "name")),
    ("initialPayments", ("_id", "percent")),
    ("loanTerms", ("_id", "months", "rateBp")),
    ("refundTypes", ("_id", "slug")),
)


class OfferChoice(NamedTuple):
    """A bank offer with what a credit deal reads of its product (`offer_choice`)."""

    offer: BankOfferRecord
    organization_id: ObjectId | None  # the product's bank; None when the product is gone, inactive or of another brand
    path: list[
        Any
    ]  # the node chosen at each level of CREDIT_PATH, None from the first id not found under the one before


def _path_lookup(levels: tuple[tuple[str, tuple[str, ...]], ...]) -> Document:
    """`offer_choice`'s $lookup stage for paths of `levels`, the chosen ids left to the command's `let`
    (`$$ids`): `$$n<depth>` is the node chosen at a depth, among the children of the one before."""
    path: Any = [{field: f"$$n{depth}.{field}" for field in fields} for depth, (_, fields) in enumerate(levels)]
    for depth in reversed(range(len(levels))):
        level = levels[depth][0]
        children = f"${level}" if depth == 0 else f"$$n{depth - 1}.{level}"
        chosen = {"$filter": {"input": children, "cond": {"$eq": ["$$this._id", {"$arrayElemAt": ["$$ids", depth]}]}}}
        path = {"$let": {"vars": {f"n{depth}": {"$first": chosen}}, "in": path}}
    product = {"$expr": {"$and": [{"$eq": ["$_id", "$$product"]}, {"$eq": ["$brandId", "$$brand"]}]}, "active": True}
    stages = [{"$match": product}, {"$project": {"_id": 0, "organizationId": 1, "path": path}}]
    lookup = {"from": "credit_products", "let": {"product": "$productId", "brand": "$brandId"}, "pipeline": stages}
    return {"$lookup": {**lookup, "as": "product"}}


# The same for every choice: encoded to BSON once, as the command sends it.
_OFFER_PATH_LOOKUP = RawBSONDocument(encode(_path_lookup(CREDIT_PATH)))


def offer_choice(offer_id: str, node_ids: list[ObjectId]) -> OfferChoice | None:
    """The bank offer, and of its product (if active and of the offer's brand) the bank and the node chosen
    at each level of `CREDIT_PATH` (`node_ids`, one per level), each found among the children of the one
    before: one round trip, the server walking the tree and sending those nodes alone. None when there is
    no such offer. The offer is matched, then its product looked up with this stage:

        {"$lookup": {
            "from": "credit_products",
            "let": {"product": "$productId", "brand": "$brandId"},
            "pipeline": [
                {"$match": {
                    "$expr": {"$and": [{"$eq": ["$_id", "$$product"]}, {"$eq": ["$brandId", "$$brand"]}]},
                    "active": True,
                }},
                {"$project": {"_id": 0, "organizationId": 1, "path": {"$let": {
                    "vars": {"n0": {"$first": {"$filter": {
                        "input": "$incomeTypes",
                        "cond": {"$eq": ["$$this._id", {"$arrayElemAt": ["$$ids", 0]}]},
                    }}}},
                    "in": {"$let": {
                        "vars": {"n1": {"$first": {"$filter": {
                            "input": "$$n0.initialPayments",
                            "cond": {"$eq": ["$$this._id", {"$arrayElemAt": ["$$ids", 1]}]},
                        }}}},
                        "in": {"$let": {
                            "vars": {"n2": {"$first": {"$filter": {
                                "input": "$$n1.loanTerms",
                                "cond": {"$eq": ["$$this._id", {"$arrayElemAt": ["$$ids", 2]}]},
                            }}}},
                            "in": {"$let": {
                                "vars": {"n3": {"$first": {"$filter": {
                                    "input": "$$n2.refundTypes",
                                    "cond": {"$eq": ["$$this._id", {"$arrayElemAt": ["$$ids", 3]}]},
                                }}}},
                                "in": [
                                    {"_id": "$$n0._id", "slug": "$$n0.slug", "name": "$$n0.name"},
                                    {"_id": "$$n1._id", "percent": "$$n1.percent"},
                                    {"_id": "$$n2._id", "months": "$$n2.months", "rateBp": "$$n2.rateBp"},
                                    {"_id": "$$n3._id", "slug": "$$n3.slug"},
                                ],
                            }},
                        }},
                    }},
                }}}},
            ],
            "as": "product",
        }}

    with `$$ids` the command's `let` (`node_ids`)."""
    pipeline = [{"$match": {"_id": ObjectId(offer_id)}}, _OFFER_PATH_LOOKUP]
    found = next(collection("bank_offers", Document).aggregate(pipeline, let={"ids": node_ids}), None)
    if found is None:
        return None
    products = found.pop("product")
    if not products:
        return OfferChoice(cast("BankOfferRecord", found), None, [])
    # A node not found has none of its fields (or all of them null, on the mongoeco fallback).
    nodes = [node if node.get("_id") is not None else None for node in products[0]["path"]]
    return OfferChoice(cast("BankOfferRecord", found), products[0]["organizationId"], nodes)


# What prices a lease of a program (`leasing_choice`): its rates, and whose and for which brand it is.
LEASING_PRICING = dict.fromkeys(
    ("organizationId", "brandId", "rateBp", "markupBp", "contractFeeBp", "monthlyFee", "buyoutBp"), 1
)


def leasing_choice(
    program_id: str, loan_term_id: ObjectId, initial_payment_id: ObjectId
) -> LeasingProgramRecord | None:
    """The leasing program if it is active, with what prices a lease of it and, of its loan terms and
    initial payments, the chosen ones alone (`$elemMatch`: none when the id is not the program's). Its
    name and the other choices are not read: nobody answers them."""
    programs = collection("leasing_programs", LeasingProgramRecord)
    chosen = {
        "loanTerms": {"$elemMatch": {"_id": loan_term_id}},
        "initialPayments": {"$elemMatch": {"_id": initial_payment_id}},
    }
    return programs.find_one({"_id": ObjectId(program_id), "active": True}, {**LEASING_PRICING, **chosen})


def find_installment_plan(plan_id: str) -> InstallmentPlanRecord | None:
    """The installment plan if it is active."""
    plans = collection("installment_plans", InstallmentPlanRecord)
    return plans.find_one({"_id": ObjectId(plan_id), "active": True})


# --- bank offers ------------------------------------------------------------------------------------


def offer_id(product_id: ObjectId, modification_id: ObjectId) -> ObjectId:
    """The id of a product's offer for a modification: the same for the same pair, everywhere."""
    return ObjectId(offer_id_text(product_id, modification_id))


def offer_id_text(product_id: ObjectId, modification_id: ObjectId) -> str:
    """`offer_id` as the API answers it (24 hex digits), not parsed into an ObjectId to be written again."""
    digest = hashlib.sha1(f"bank-offer:{product_id}:{modification_id}".encode(), usedforsecurity=False)
    return digest.hexdigest()[:24]


def find_bank_offer(offer_id: str) -> BankOfferRecord | None:
    return _bank_offers().find_one({"_id": ObjectId(offer_id)})


def products_offered(modification_id: ObjectId, product_ids: list[ObjectId]) -> set[ObjectId]:
    """Those of these products whose offer for the modification is stored (read from the index alone)."""
    query = {"productId": {"$in": product_ids}, "modificationId": modification_id}
    return {offer["productId"] for offer in _bank_offers().find(query, {"_id": 0, "productId": 1})}


def _wanted_offers(db: Database[Document] | None, session: ClientSession | None) -> list[BankOfferRecord]:
    """The offer of every active credit product for every modification of its brand's cars."""
    products = list(_credit_products(db).find({"active": True}, {"organizationId": 1, "brandId": 1}, session=session))
    brand_ids = list({product["brandId"] for product in products})
    now = clock.now()
    return [
        {
            "_id": offer_id(product["_id"], modification["_id"]),
            "organizationId": product["organizationId"],
            "productId": product["_id"],
            "brandId": car["brandId"],
            "carId": car["_id"],
            "modificationId": modification["_id"],
            "createdAt": now,
        }
        for car in catalog.modifications_of_brands(brand_ids, db, session=session)
        for modification in car.get("modifications", [])
        for product in products
        if product["brandId"] == car["brandId"]
    ]


def sync_bank_offers(*, session: ClientSession) -> tuple[int, int]:
    """After a data set import (in its transaction): store the missing offers and delete those of products
    and modifications that are gone or inactive (orders keep the deal they were placed with). Returns
    how many were created and deleted."""
    offers = _bank_offers()
    wanted = {offer["_id"]: offer for offer in _wanted_offers(None, session)}
    stored = {doc["_id"] for doc in offers.find({}, {"_id": 1}, session=session)}
    missing = [offer for offer_id, offer in wanted.items() if offer_id not in stored]
    gone = list(stored - wanted.keys())
    if missing:
        offers.insert_many(missing, session=session)
    if gone:
        offers.delete_many({"_id": {"$in": gone}}, session=session)
    return len(missing), len(gone)


def create_bank_offers(db: Database[Document] | None = None) -> int:
    """Store the missing offers of every active credit product for every modification of its brand's cars,
    never changing a stored one (its id is what clients hold); idempotent. Returns how many were created.
    `db`: the database being filled, when the seed passes one."""
    wanted = _wanted_offers(db, None)
    offers = _bank_offers(db)
    stored = {doc["_id"] for doc in offers.find({"_id": {"$in": [offer["_id"] for offer in wanted]}}, {"_id": 1})}
    missing = [offer for offer in wanted if offer["_id"] not in stored]
    if not missing:
        return 0
    try:
        return len(offers.insert_many(missing, ordered=False).inserted_ids)
    except BulkWriteError as exc:  # a concurrent run stored some first: they are the same documents
        if any(error.get("code") != DUPLICATE_KEY for error in exc.details.get("writeErrors", [])):
            raise
        return int(exc.details.get("nInserted", 0))


# --- special offers ---------------------------------------------------------------------------------


def special_offers_of_car(car_id: ObjectId, kind: str) -> list[SpecialOfferRecord]:
    """The car's active special offers of this kind (BANK or LEASING), in their order."""
    found = _special_offers().find({"carId": car_id, "kind": kind, "active": True})
    return list(found.sort("order", 1))


def find_special_offer(special_offer_id: str) -> SpecialOfferRecord | None:
    """The special offer if it is active."""
    return _special_offers().find_one({"_id": ObjectId(special_offer_id), "active": True})
