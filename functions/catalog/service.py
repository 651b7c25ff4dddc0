"""Catalog logic: the car list with its filters and sort orders, car details, brands and filters."""

from __future__ import annotations

from core.errors import NotFound
from core.locale import Locale
from core.models import Page
from domain.catalog import store, views
from domain.catalog.items import car_items
from domain.catalog.models import (
    AllFilters,
    BrandDetail,
    BrandItem,
    CarDetail,
    CarItem,
    InfoBlock,
    Modification,
    Option,
    PriceRange,
)
from domain.catalog.query import (
    BrandSort,
    CarSort,
    brand_collation,
    brand_sort,
    car_collation,
    car_filter,
    car_sort,
    parse_ids,
)
from domain.catalog.records import CarRecord, OptionRecord
from domain.saved_cars import store as saved_cars


def list_cars(
    *,
    brand_ids: str | None,
    body_type_ids: str | None,
    min_price: float | None,
    max_price: float | None,
    search: str | None,
    sort: CarSort,
    limit: int,
    offset: int,
    fingerprint: str,
    locale: Locale,
) -> Page[CarItem]:
    term = (search or "").strip()
    query = car_filter(
        brand_ids=parse_ids(brand_ids, "query.brands"),
        body_type_ids=parse_ids(body_type_ids, "query.bodyTypes"),
        min_price=min_price,
        max_price=max_price,
        search=term,
        brands_named=store.brand_ids_named(term) if term else [],
    )
    docs, total = store.find_car_page(
        query, car_sort(sort, locale), offset=offset, limit=limit, collation=car_collation(sort)
    )
    return Page[CarItem](items=car_items(docs, fingerprint=fingerprint, locale=locale), total=total)


def _car(car_id: str, *fields: str) -> CarRecord:
    car = store.find_car_fields(car_id, *fields)
    if car is None:
        raise NotFound("CAR_NOT_FOUND")
    return car


def car_detail(car_id: str, *, fingerprint: str, locale: Locale) -> CarDetail:
    car = store.find_car(car_id)
    if car is None:
        raise NotFound("CAR_NOT_FOUND")
    return views.car_detail(
        car,
        brand=store.find_brand(car["brandId"]),
        body_type=store.find_body_type(car.get("bodyTypeId")),
        powertrain=store.find_powertrain(car.get("powertrainId")),
        saved=bool(saved_cars.saved_car_ids(fingerprint, [car["_id"]])),
        locale=locale,
    )


def car_info(car_id: str, *, locale: Locale) -> Page[InfoBlock]:
    blocks = _car(car_id, "info").get("info", [])
    return Page[InfoBlock](items=[views.info_block(block, locale) for block in blocks], total=len(blocks))


def car_modifications(car_id: str, *, locale: Locale) -> Page[Modification]:
    mods = _car(car_id, "modifications").get("modifications", [])
    return Page[Modification](items=[views.modification(mod, locale) for mod in mods], total=len(mods))


def list_brands(*, search: str | None, sort: BrandSort, locale: Locale) -> Page[BrandItem]:
    found = store.find_brands(search=(search or "").strip(), sort=brand_sort(sort), collation=brand_collation(sort))
    return Page[BrandItem](items=[views.brand_item(brand, locale) for brand in found], total=len(found))


def brand_detail(brand_id: str, *, locale: Locale) -> BrandDetail:
    brand = store.find_brand(brand_id)
    if brand is None:
        raise NotFound("BRAND_NOT_FOUND")
    return views.brand_detail(brand, store.count_cars_of_brand(brand["_id"]), locale)


def _options(docs: list[OptionRecord], locale: Locale) -> Page[Option]:
    options = [option for option in (views.option(doc, locale) for doc in docs) if option is not None]
    return Page[Option](items=options, total=len(options))


def body_types(*, locale: Locale) -> Page[Option]:
    return _options(store.body_types(), locale)


def powertrains(*, locale: Locale) -> Page[Option]:
    return _options(store.powertrains(), locale)


def all_filters(*, locale: Locale) -> AllFilters:
    cheapest, dearest = store.price_range()
    return AllFilters(
        brands=list_brands(search=None, sort="order", locale=locale),
        bodyTypes=body_types(locale=locale),
        powertrains=powertrains(locale=locale),
        price=PriceRange(min=cheapest, max=dearest),
    )
