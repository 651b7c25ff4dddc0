"""The catalog's data: `brands`, `cars` (with modifications and colors embedded), `body_types` and
`powertrains`; this module alone reads them.

Brands, body types and powertrains are reference data cached per instance (`data.reference_cache`): a
few dozen documents that operators rarely change, each list in its default order. Cars and their
prices never are.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypedDict, cast

from bson import ObjectId
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.database import Database

from core.locale import LOCALES
from data import mongo
from data.mongo import Document, Index, collection, get_db
from data.reference_cache import reference_data
from domain.catalog.query import ACTIVE_CAR, NAME_COLLATION, SortSpec, contains
from domain.catalog.records import BrandRecord, CarRecord, ColorRecord, OptionRecord

DEFAULT_ORDER = [("order", 1), ("_id", 1)]
# The reference data set replaces these whole (domain.dataset).
DATASET_COLLECTIONS = ("brands", "body_types", "powertrains", "cars")

# What a list item needs: never the embedded specs and info blocks.
LIST_FIELDS = {
    "slug": 1,
    "name": 1,
    "brandId": 1,
    "bodyTypeId": 1,
    "powertrainId": 1,
    "priceFrom": 1,
    "image": 1,
    "year": 1,
    "isNew": 1,
    "createdAt": 1,
}
DETAIL_EXCLUDED = {"info": 0, "modifications.specs": 0}
# What the financing routes need of the car holding a modification.
FINANCING_FIELDS = {"brandId": 1, "name": 1, "paymentTypes": 1, "modifications": 1}

INDEXES = [
    Index("brands", [("slug", 1)], "brands_slug_unique", {"unique": True}),
    Index("brands", [("order", 1), ("_id", 1)], "brands_order"),  # default brand order
    # sort=name, case-insensitive (a dozen brands: the name search reads them all)
    Index("brands", [("name", 1), ("_id", 1)], "brands_name_ci", {"collation": NAME_COLLATION}),
    Index("body_types", [("slug", 1)], "body_types_slug_unique", {"unique": True}),
    Index("body_types", [("order", 1), ("_id", 1)], "body_types_order"),
    Index("powertrains", [("slug", 1)], "powertrains_slug_unique", {"unique": True}),
    Index("powertrains", [("order", 1), ("_id", 1)], "powertrains_order"),
    Index("cars", [("slug", 1)], "cars_slug_unique", {"unique": True}),
    # Filters by brand or body type, bounded and sorted by price within them; brand detail counts.
    Index("cars", [("brandId", 1), ("priceFrom", 1), ("_id", 1)], "cars_brand_price"),
    Index("cars", [("bodyTypeId", 1), ("priceFrom", 1), ("_id", 1)], "cars_body_type_price"),
    # The sort orders: price (min/max bounds, price range of filters/all), new, name per locale.
    Index("cars", [("priceFrom", 1), ("_id", 1)], "cars_price"),
    Index("cars", [("createdAt", -1), ("_id", -1)], "cars_newest"),
    *[
        Index("cars", [(f"name.{locale}", 1), ("_id", 1)], f"cars_name_{locale}_ci", {"collation": NAME_COLLATION})
        for locale in LOCALES
    ],
    # A modification or color is found with its car (orders, financing, availability).
    Index("cars", [("modifications._id", 1)], "cars_modification"),
    Index("cars", [("colors._id", 1)], "cars_color"),
    Index("price_changes", [("modificationId", 1), ("at", -1)], "price_changes_by_modification"),
]


def _brands(db: Database[Document] | None = None) -> Collection[BrandRecord]:
    return collection("brands", BrandRecord, database=db)


def _cars(db: Database[Document] | None = None) -> Collection[CarRecord]:
    return collection("cars", CarRecord, database=db)


def _options(name: str) -> Collection[OptionRecord]:
    return collection(name, OptionRecord)


# --- brands -----------------------------------------------------------------------------------------


@reference_data
def all_brands() -> dict[ObjectId, BrandRecord]:
    """Every brand by id, in the default order (treat as read-only: it is shared between requests)."""
    return {brand["_id"]: brand for brand in _brands().find({}).sort(DEFAULT_ORDER)}


def find_brands(*, search: str | None, sort: SortSpec, collation: dict[str, Any] | None = None) -> list[BrandRecord]:
    if not search and sort == DEFAULT_ORDER and collation is None:
        return list(all_brands().values())
    query = {"name": contains(search)} if search else {}
    return list(_brands().find(query, collation=collation).sort(sort))


def find_brand(brand_id: str | ObjectId) -> BrandRecord | None:
    """The brand, from the cached list; one just created is read from the database."""
    wanted = ObjectId(brand_id)
    return all_brands().get(wanted) or _brands().find_one({"_id": wanted})


def brand_names(brand_ids: Iterable[ObjectId]) -> dict[ObjectId, str]:
    cached, wanted = all_brands(), set(brand_ids)
    found = {brand_id: cached[brand_id]["name"] for brand_id in wanted if brand_id in cached}
    if missing := wanted - found.keys():  # created since the list was cached
        found.update((brand["_id"], brand["name"]) for brand in _brands().find({"_id": {"$in": list(missing)}}))
    return found


def brand_ids_named(search: str) -> list[ObjectId]:
    """Brands whose name contains the search term (case-insensitive)."""
    return [brand["_id"] for brand in _brands().find({"name": contains(search)}, {"_id": 1})]


# --- body types and powertrains ---------------------------------------------------------------------


@reference_data
def body_types() -> list[OptionRecord]:
    return list(_options("body_types").find({}).sort(DEFAULT_ORDER))


@reference_data
def powertrains() -> list[OptionRecord]:
    return list(_options("powertrains").find({}).sort(DEFAULT_ORDER))


def _option(cached: list[OptionRecord], collection: str, wanted: ObjectId | None) -> OptionRecord | None:
    """The document from the cached list; one created since is read from the database."""
    if wanted is None:
        return None
    found = next((doc for doc in cached if doc["_id"] == wanted), None)
    return found or _options(collection).find_one({"_id": wanted})


def find_body_type(body_type_id: ObjectId | None) -> OptionRecord | None:
    return _option(body_types(), "body_types", body_type_id)


def find_powertrain(powertrain_id: ObjectId | None) -> OptionRecord | None:
    return _option(powertrains(), "powertrains", powertrain_id)


# --- cars -------------------------------------------------------------------------------------------


def find_car_page(
    query: dict[str, Any], sort: SortSpec, *, offset: int, limit: int, collation: dict[str, Any] | None = None
) -> tuple[list[CarRecord], int]:
    """One page of matches (list-item fields) and the number of all matches; limit 0 only counts."""
    found, total = mongo.find_page(
        get_db().cars, query, sort, offset=offset, limit=limit, projection=LIST_FIELDS, collation=collation
    )
    return cast("list[CarRecord]", found), total


def find_cars(car_ids: Iterable[ObjectId]) -> dict[ObjectId, CarRecord]:
    """List-item fields of the given cars, by id; unknown ids are left out."""
    return {car["_id"]: car for car in _cars().find({"_id": {"$in": list(car_ids)}}, LIST_FIELDS)}


def find_car(car_id: str) -> CarRecord | None:
    """The active car with its modifications and colors, without the info blocks and specs."""
    return _cars().find_one({"_id": ObjectId(car_id), **ACTIVE_CAR}, DETAIL_EXCLUDED)


def find_car_fields(car_id: str, *fields: str) -> CarRecord | None:
    return _cars().find_one({"_id": ObjectId(car_id)}, dict.fromkeys(fields, 1))


def find_car_of_modification(modification_id: str | ObjectId) -> CarRecord | None:
    """The car holding the modification, with what financing needs of it (brand, name, payment types,
    modifications)."""
    return _cars().find_one({"modifications._id": ObjectId(modification_id), **ACTIVE_CAR}, FINANCING_FIELDS)


def car_colors(car_id: ObjectId) -> list[ColorRecord]:
    found = _cars().find_one({"_id": car_id}, {"colors": 1})
    return [] if found is None else found.get("colors", [])


def car_exists(car_id: ObjectId) -> bool:
    return _cars().count_documents({"_id": car_id, **ACTIVE_CAR}, limit=1) > 0


def count_cars_of_brand(brand_id: ObjectId) -> int:
    return _cars().count_documents({"brandId": brand_id, **ACTIVE_CAR})


def price_range() -> tuple[int, int]:
    """The lowest and highest `priceFrom` in the catalog (0 and 0 when it is empty)."""
    cars = _cars()
    cheapest = cars.find_one(ACTIVE_CAR, {"priceFrom": 1}, sort=[("priceFrom", 1), ("_id", 1)])
    dearest = cars.find_one(ACTIVE_CAR, {"priceFrom": 1}, sort=[("priceFrom", -1), ("_id", -1)])
    return (cheapest.get("priceFrom", 0) if cheapest else 0), (dearest.get("priceFrom", 0) if dearest else 0)


def modifications_of_brands(
    brand_ids: list[ObjectId], db: Database[Document] | None = None, *, session: ClientSession | None = None
) -> list[CarRecord]:
    """The cars of these brands with their modifications' ids only (`db`: the database being filled, when
    the seed or an operator command passes one; `session`: the data set import's transaction)."""
    found = _cars(db).find({"brandId": {"$in": brand_ids}}, {"brandId": 1, "modifications._id": 1}, session=session)
    return list(found)


class PriceChange(TypedDict):
    """An operator's price change (`price_changes`): who changed which modification's price, and why."""

    _id: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    before: int
    after: int
    by: str
    cause: str
    at: datetime


def set_price(modification_id: ObjectId, price: int, *, session: ClientSession) -> tuple[CarRecord, int] | None:
    """Set a modification's price and its car's `priceFrom` in one atomic update; the car (before) and the
    old price, or None if no car has the modification."""
    wanted = {"modifications._id": modification_id}
    before = _cars().find_one_and_update(
        wanted,
        [
            {
                "$set": {
                    "modifications": {
                        "$map": {
                            "input": "$modifications",
                            "in": {
                                "$cond": [
                                    {"$eq": ["$$this._id", modification_id]},
                                    {"$mergeObjects": ["$$this", {"price": price}]},
                                    "$$this",
                                ]
                            },
                        }
                    }
                }
            },
            {"$set": {"priceFrom": {"$min": "$modifications.price"}}},
        ],
        projection={"name": 1, "modifications._id": 1, "modifications.name": 1, "modifications.price": 1},
        session=session,
    )
    if before is None:
        return None
    old = next(m["price"] for m in before.get("modifications", []) if m["_id"] == modification_id)
    return before, old


def record_price_change(change: PriceChange, *, session: ClientSession) -> None:
    collection("price_changes", PriceChange).insert_one(change, session=session)
