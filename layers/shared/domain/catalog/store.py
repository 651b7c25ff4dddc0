"""The catalog's data: `brands`, `cars` (with modifications and colors embedded), `body_types` and
`powertrains`; this module alone reads them.

Brands, body types and powertrains are reference data cached per instance (`data.reference_cache`): a
few dozen documents that operators rarely change, each list in its default order. Cars and their
prices never are (the catalog service keeps only its rendering of a car's technical specs).
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, TypedDict

from bson import ObjectId
from pymongo import UpdateOne
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.database import Database

from core.locale import LOCALES
from data.mongo import Document, FoundPage, Index, collection, find_page
from data.reference_cache import reference_data
from domain.catalog.query import ACTIVE_CAR, NAME_COLLATION, SortSpec
from domain.catalog.records import BrandRecord, CarRecord, ColorRecord, OptionRecord, SaleRecord
from domain.catalog.search import matching, search_prefixes

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
    "saleStartsAt": 1,
}
# What a brand in a list needs: never its description nor search keys.
BRAND_ITEM_FIELDS = {"slug": 1, "name": 1, "logo": 1, "country": 1}
DETAIL_EXCLUDED = {"info": 0, "modifications.specs": 0, "searchPrefixes": 0, "createdAt": 0}
# What the financing routes need of the car holding a modification: its modifications without their
# specs (localized tables, most of a car's bytes, which every read would decode for nothing).
FINANCING_FIELDS = {
    "brandId": 1,
    "name": 1,
    "paymentTypes": 1,
    "modifications._id": 1,
    "modifications.name": 1,
    "modifications.price": 1,
}

# Every car list is a filter (none, brands, body types or a search's words) and a sort: one index per
# pair, the filter's key first (equality, or `$in` merged in order), then the sort's keys, then the
# other filters' fields, so a price bound or a second filter is checked on the index keys and the count
# reads no document (docs/DECISIONS.md, "Pages that cost the page").
CAR_FILTERS: dict[str, str | None] = {
    "all": None,
    "brand": "brandId",
    "body_type": "bodyTypeId",
    "search": "searchPrefixes",
}
CAR_SORTS: dict[str, list[tuple[str, int]]] = {
    "newest": [("createdAt", -1), ("_id", -1)],
    "price": [("priceFrom", 1), ("_id", 1)],
    "id": [("_id", 1)],
    **{f"name_{locale}": [(f"name.{locale}", 1), ("_id", 1)] for locale in LOCALES},
}
FILTERED_FIELDS = ("priceFrom", "brandId", "bodyTypeId", "active")


def _car_list_indexes() -> list[Index]:
    indexes = []
    for filter_name, lead in CAR_FILTERS.items():
        for sort_name, sort in CAR_SORTS.items():
            keys = [*([(lead, 1)] if lead else []), *sort]
            keys += [(name, 1) for name in FILTERED_FIELDS if name not in dict(keys)]
            options = {"collation": NAME_COLLATION} if sort_name.startswith("name_") else {}
            indexes.append(
                Index(collection="cars", keys=keys, name=f"cars_{filter_name}_by_{sort_name}", options=options)
            )
    return indexes


INDEXES = [
    Index(collection="brands", keys=[("slug", 1)], name="brands_slug_unique", options={"unique": True}),
    Index(collection="brands", keys=[("order", 1), ("_id", 1)], name="brands_order"),  # default brand order
    # sort=name, case-insensitive
    Index(
        collection="brands",
        keys=[("name", 1), ("_id", 1)],
        name="brands_name_ci",
        options={"collation": NAME_COLLATION},
    ),
    Index(collection="brands", keys=[("searchPrefixes", 1), ("order", 1), ("_id", 1)], name="brands_search"),
    Index(collection="body_types", keys=[("slug", 1)], name="body_types_slug_unique", options={"unique": True}),
    Index(collection="body_types", keys=[("order", 1), ("_id", 1)], name="body_types_order"),
    Index(collection="powertrains", keys=[("slug", 1)], name="powertrains_slug_unique", options={"unique": True}),
    Index(collection="powertrains", keys=[("order", 1), ("_id", 1)], name="powertrains_order"),
    Index(collection="cars", keys=[("slug", 1)], name="cars_slug_unique", options={"unique": True}),
    *_car_list_indexes(),
    # A modification or color is found with its car (orders, financing, availability).
    Index(collection="cars", keys=[("modifications._id", 1)], name="cars_modification"),
    Index(collection="cars", keys=[("colors._id", 1)], name="cars_color"),
    # The deactivated cars, counted on keys (the whole catalog's count is the collection's less these).
    Index(collection="cars", keys=[("active", 1)], name="cars_active"),
    Index(collection="price_changes", keys=[("modificationId", 1), ("at", -1)], name="price_changes_by_modification"),
    Index(collection="sale_changes", keys=[("carId", 1), ("at", -1)], name="sale_changes_by_car"),
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
    """The brands whose name's words start with the search's, in this order (an index serves both), with
    what a list item shows of them."""
    if not search:
        return list(_brands().find({}, BRAND_ITEM_FIELDS, collation=collation, sort=sort))
    # In the default order the search index serves both; the planner may tie it with the order's index.
    hint = "brands_search" if sort == DEFAULT_ORDER and collation is None else None
    # The cursor's options given to find() (as data.mongo.find_page does): chained, each call copied them.
    return list(_brands().find(matching(search), BRAND_ITEM_FIELDS, collation=collation, sort=sort, hint=hint))


def find_brand(brand_id: str | ObjectId) -> BrandRecord | None:
    """The brand, from the cached list; one just created is read from the database."""
    wanted = ObjectId(brand_id)
    return all_brands().get(wanted) or _brands().find_one({"_id": wanted})


def brand_names(brand_ids: Iterable[ObjectId]) -> dict[ObjectId, str]:
    cached = all_brands()
    found: dict[ObjectId, str] = {}
    missing: set[ObjectId] = set()
    for brand_id in brand_ids:
        brand = cached.get(brand_id)
        if brand is None:
            missing.add(brand_id)
        else:
            found[brand_id] = brand["name"]
    if missing:  # created since the list was cached
        found.update((brand["_id"], brand["name"]) for brand in _brands().find({"_id": {"$in": list(missing)}}))
    return found


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
) -> FoundPage[CarRecord]:
    """One page of matches (list-item fields) and how many match; limit 0 only counts. The page is read
    with the list index of its filter and sort (`CAR_FILTERS`, `CAR_SORTS`). The whole catalog is counted
    exactly: the collection's own count less its few deactivated cars."""
    index = car_list_index(query, sort)
    cars = _cars()

    def every_active_car() -> int:
        return cars.estimated_document_count() - cars.count_documents({"active": False})

    return find_page(
        cars,
        query,
        sort,
        offset=offset,
        limit=limit,
        projection=LIST_FIELDS,
        collation=collation,
        index=index,
        exact_count=every_active_car if query == ACTIVE_CAR else None,
    )


def car_list_index(query: dict[str, Any], sort: SortSpec) -> str:
    """The index serving a car list: its first filter with an equality (brands, body types, search words;
    else all cars) and its sort."""
    filter_name = next((name for name, lead in CAR_FILTERS.items() if lead is not None and lead in query), "all")
    sort_name = next(name for name, keys in CAR_SORTS.items() if keys[0][0] == sort[0][0])
    return f"cars_{filter_name}_by_{sort_name}"


def find_cars(car_ids: Iterable[ObjectId]) -> dict[ObjectId, CarRecord]:
    """List-item fields of the given cars, by id; unknown ids are left out."""
    return {car["_id"]: car for car in _cars().find({"_id": {"$in": list(car_ids)}}, LIST_FIELDS)}


def find_car(car_id: str) -> CarRecord | None:
    """The active car with its modifications and colors, without what no reader of it answers: the info
    blocks, specs, search keys and creation time."""
    return _cars().find_one({"_id": ObjectId(car_id), **ACTIVE_CAR}, DETAIL_EXCLUDED)


def car_has_choice(car_id: ObjectId, modification_id: ObjectId, color_id: ObjectId, brand_id: ObjectId) -> bool:
    """Whether the active car is of this brand and has this modification and color: its id alone is read."""
    query = {
        "_id": car_id,
        **ACTIVE_CAR,
        "brandId": brand_id,
        "modifications._id": modification_id,
        "colors._id": color_id,
    }
    return _cars().find_one(query, {"_id": 1}) is not None


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


def set_price(
    modification_id: ObjectId, price: int, *, changed_in: int, session: ClientSession
) -> tuple[CarRecord, int] | None:
    """Set a modification's price and its car's `priceFrom` in one atomic update, the car stamped with the
    change version `changed_in`; the car (before) and the old price, or None if no car has the
    modification."""
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
            {"$set": {"priceFrom": {"$min": "$modifications.price"}, "changedIn": changed_in}},
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


class SaleChange(TypedDict):
    """An operator's change of a car's sale rules (`sale_changes`): who changed the rules of which car (or
    of one of its modifications: `modificationId`), from what to what, and why."""

    _id: ObjectId
    carId: ObjectId
    modificationId: ObjectId | None
    before: SaleRecord | None
    after: SaleRecord | None
    by: str
    cause: str
    at: datetime


# What changing a car's sale rules reads of it.
SALE_FIELDS = {"sale": 1, "saleStartsAt": 1, "modifications._id": 1, "modifications.sale": 1}


def find_queued_cars() -> list[CarRecord]:
    """The active cars sold through a fair opening's queue (`sale.queue`), with their sale rules."""
    return list(_cars().find({"sale.queue": {"$ne": None}, **ACTIVE_CAR}, SALE_FIELDS))


def find_car_sale(car_id: ObjectId, *, session: ClientSession | None = None) -> CarRecord | None:
    """The car's sale rules and its modifications' (`SALE_FIELDS`)."""
    return _cars().find_one({"_id": car_id}, SALE_FIELDS, session=session)


def set_sale(
    car_id: ObjectId,
    modification_id: ObjectId | None,
    sale: SaleRecord | None,
    *,
    starts_at: datetime | None,
    changed_in: int,
    session: ClientSession,
) -> bool:
    """Set the sale rules of the car (or of its modification) and the car's `saleStartsAt`, the car stamped
    with the change version `changed_in`; whether the car (and the modification) was found."""
    stamp = {"saleStartsAt": starts_at, "changedIn": changed_in}
    if modification_id is None:
        done = _cars().update_one({"_id": car_id}, {"$set": {"sale": sale, **stamp}}, session=session)
    else:
        done = _cars().update_one(
            {"_id": car_id, "modifications._id": modification_id},
            {"$set": {"modifications.$.sale": sale, **stamp}},
            session=session,
        )
    return done.matched_count == 1


def record_sale_change(change: SaleChange, *, session: ClientSession) -> None:
    collection("sale_changes", SaleChange).insert_one(change, session=session)


# --- search keys ------------------------------------------------------------------------------------


def brand_search_prefixes(brand: Mapping[str, Any]) -> list[str]:
    """The `searchPrefixes` a brand document stores: its name's."""
    return search_prefixes([brand.get("name", "")])


def car_search_prefixes(car: Mapping[str, Any], brand_name: str) -> list[str]:
    """The `searchPrefixes` a car document stores: its name's in every locale and its brand's."""
    return search_prefixes([*car.get("name", {}).values(), brand_name])


def refresh_search_prefixes(db: Database[Document] | None = None, *, session: ClientSession | None = None) -> int:
    """Store every brand's and car's `searchPrefixes` as their names make them now (after a catalog is
    loaded or names change; `python -m ops indexes` runs it; the data set import in its transaction,
    `session`); returns how many documents changed."""
    brands, cars = _brands(db), _cars(db)
    names: dict[ObjectId, str] = {}
    brand_changes, car_changes = [], []
    for brand in brands.find({}, {"name": 1, "searchPrefixes": 1}, session=session):
        names[brand["_id"]] = brand.get("name", "")
        if (prefixes := brand_search_prefixes(brand)) != brand.get("searchPrefixes"):
            brand_changes.append(UpdateOne({"_id": brand["_id"]}, {"$set": {"searchPrefixes": prefixes}}))
    for car in cars.find({}, {"name": 1, "brandId": 1, "searchPrefixes": 1}, session=session):
        if (prefixes := car_search_prefixes(car, names.get(car["brandId"], ""))) != car.get("searchPrefixes"):
            car_changes.append(UpdateOne({"_id": car["_id"]}, {"$set": {"searchPrefixes": prefixes}}))
    for target, changes in ((brands, brand_changes), (cars, car_changes)):
        if changes:
            target.bulk_write(changes, ordered=False, session=session)
    return len(brand_changes) + len(car_changes)
