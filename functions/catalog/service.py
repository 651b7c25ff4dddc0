"""Catalog logic: the car list with its filters and sort orders, car details, brands and filters."""

from __future__ import annotations

from bson import ObjectId
from pydantic import TypeAdapter

from catalog.models import AllFilters, PriceRange
from core.locale import Locale
from core.models import CountedPage, Page, parametrized
from data.reference_cache import RenderingCache, preload, reference_data
from domain.catalog import brands, cars, items, views
from domain.catalog.models import (
    BrandDetail,
    BrandItem,
    CarDetail,
    CarItem,
    InfoBlock,
    Modification,
    Option,
    SpecSection,
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
from domain.catalog.records import BrandRecord, OptionRecord

# The reference data these routes read: a SnapStart restore reads it before the first request.
preload(*brands.REFERENCE_DATA)

SPEC_SECTIONS = TypeAdapter(list[SpecSection])
# A car's modifications' technical specs, rendered per locale, are kept for the reference data's lifetime:
# descriptive data the catalog's data set replaces, most of a car's bytes, too much to decode and render
# on every request. Which modifications, their names and prices are read on every request, without the
# specs. A cache of their own: one entry per car and locale, which browsing a large catalog would otherwise
# churn through the brands and branches every request reads.
CAR_SPECS = RenderingCache(max_entries=1000)
MODIFICATION_FIELDS = ("modifications._id", "modifications.name", "modifications.price")


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
) -> CountedPage[CarItem]:
    term = (search or "").strip()
    query = car_filter(
        brand_ids=parse_ids(brand_ids, "query.brands"),
        body_type_ids=parse_ids(body_type_ids, "query.bodyTypes"),
        min_price=min_price,
        max_price=max_price,
        search=term,
    )
    return items.catalog_page(
        query,
        car_sort(sort, locale),
        collation=car_collation(sort),
        offset=offset,
        limit=limit,
        fingerprint=fingerprint,
        locale=locale,
    )


def car_detail(car_id: str, *, fingerprint: str, locale: Locale) -> CarDetail:
    car = cars.car(car_id)
    return views.car_detail(
        car,
        brand=brands.brand_of(car),
        body_type=brands.body_type(car.get("bodyTypeId")),
        powertrain=brands.powertrain(car.get("powertrainId")),
        saved=items.is_saved(car["_id"], fingerprint=fingerprint),
        locale=locale,
    )


def car_info(car_id: str, *, locale: Locale) -> Page[InfoBlock]:
    blocks = cars.car_fields(car_id, "info").get("info", [])
    return parametrized(Page, InfoBlock).model_validate(
        {"items": [views.info_block(block, locale) for block in blocks], "total": len(blocks)}
    )


def car_modifications(car_id: str, *, locale: Locale) -> Page[Modification]:
    """The car's modifications as they are now (which, their names and prices), each with its technical
    sections as rendered for this car and locale within the reference data's lifetime (`CAR_SPECS`)."""
    key = (car_id, locale)
    specs: dict[ObjectId, list[SpecSection]] | None = CAR_SPECS.kept(key)
    if specs is not None:
        mods = cars.car_fields(car_id, *MODIFICATION_FIELDS).get("modifications", [])
        if any(mod["_id"] not in specs for mod in mods):  # added since they were rendered
            specs = None
    if specs is None:
        mods = cars.car_fields(car_id, "modifications").get("modifications", [])
        specs = {mod["_id"]: SPEC_SECTIONS.validate_python(views.spec_sections(mod, locale)) for mod in mods}
        CAR_SPECS.keep(key, specs)
    items = [views.modification(mod, specs[mod["_id"]], locale) for mod in mods]
    return parametrized(Page, Modification).model_validate({"items": items, "total": len(items)})


def list_brands(*, search: str | None, sort: BrandSort, locale: Locale) -> Page[BrandItem]:
    term = (search or "").strip()
    if not term and sort == "order":
        return every_brand(locale)
    return _brand_page(brands.brands(search=term, sort=brand_sort(sort), collation=brand_collation(sort)), locale)


@reference_data
def every_brand(locale: Locale) -> Page[BrandItem]:
    """Every brand in the default order, rendered once per locale and reference-data lifetime (read from
    the database then, so an operator's change shows within one lifetime). Shared, as any `reference_data`."""
    return _brand_page(brands.brands(search=None, sort=brand_sort("order")), locale)


def _brand_page(found: list[BrandRecord], locale: Locale) -> Page[BrandItem]:
    return parametrized(Page, BrandItem).model_validate(
        {"items": [views.brand_item(brand, locale) for brand in found], "total": len(found)}
    )


def brand_detail(brand_id: str, *, locale: Locale) -> BrandDetail:
    brand = brands.brand(brand_id)
    return views.brand_detail(brand, brands.cars_of_brand(brand["_id"]), locale)


def _options(docs: list[OptionRecord], locale: Locale) -> Page[Option]:
    options = [option for option in (views.option(doc, locale) for doc in docs) if option is not None]
    return Page[Option](items=options, total=len(options))


@reference_data
def body_types(*, locale: Locale) -> Page[Option]:
    """Rendered once per locale and reference-data lifetime, as every_brand."""
    return _options(brands.body_types(), locale)


@reference_data
def powertrains(*, locale: Locale) -> Page[Option]:
    """Rendered once per locale and reference-data lifetime, as every_brand."""
    return _options(brands.powertrains(), locale)


def all_filters(*, locale: Locale) -> AllFilters:
    """The reference lists as rendered once per locale, and the price range as it is now."""
    cheapest, dearest = brands.price_range()
    return _reference_filters(locale).model_copy(update={"price": PriceRange(min=cheapest, max=dearest)})


@reference_data
def _reference_filters(locale: Locale) -> AllFilters:
    """filters/all but its price range (never cached), rendered once per locale and lifetime."""
    return AllFilters(
        brands=every_brand(locale),
        bodyTypes=body_types(locale=locale),
        powertrains=powertrains(locale=locale),
        price=PriceRange(min=0, max=0),
    )
