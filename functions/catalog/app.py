"""Catalog function: cars, brands, catalog filters."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from catalog import service
from catalog.models import AllFilters
from core.models import CountedPage, Page
from domain.catalog.models import (
    BrandDetail,
    BrandItem,
    CarDetail,
    CarItem,
    InfoBlock,
    Modification,
    Option,
)
from domain.catalog.query import MAX_IDS, BrandSort, CarSort
from domain.identity import callers
from edge import context, responses
from edge.access import OPTIONAL_JWT, PUBLIC
from edge.app import create_app, lambda_entry
from edge.caching import READS_CACHE_CONTROL
from edge.envelope import Envelope
from edge.validation import DEFAULT_PAGE_SIZE, DocumentedAs, Limit, MongoId, Offset

app = create_app(callers=callers, reads_cache_control=READS_CACHE_CONTROL)

# Comma-separated ids (`style: form, explode: false` of an array), at most MAX_IDS.
IdList = Annotated[str, DocumentedAs(pattern=f"^[0-9a-fA-F]{{24}}(,[0-9a-fA-F]{{24}}){{0,{MAX_IDS - 1}}}$")]
Ids = Annotated[IdList | None, Query(max_length=2000, description=f"comma-separated ids, at most {MAX_IDS}")]
# Control characters are refused: no name has one.
Search = Annotated[
    str | None,
    Query(
        max_length=100,
        pattern=r"^[^\x00-\x1f\x7f]*$",
        description="words that start words of the name, in any locale, in Latin or Cyrillic letters, any case "
        "(`cob`, `Кобальт` and `kobalt` find the Cobalt; `chev` the brand Chevrolet)",
    ),
]


@app.get("/api/v1/cars", operation_id="listCars", middlewares=[OPTIONAL_JWT], summary="List cars, filtered and sorted")
def get_cars(
    *,
    brands: Ids = None,
    body_types: Annotated[
        IdList | None, Query(alias="bodyTypes", max_length=2000, description=f"comma-separated ids, at most {MAX_IDS}")
    ] = None,
    min_price: Annotated[float | None, Query(alias="min", ge=0, le=1e12)] = None,
    max_price: Annotated[float | None, Query(alias="max", ge=0, le=1e12)] = None,
    search: Search = None,
    sort: Annotated[CarSort, Query()] = "new",
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> Response[Envelope[CountedPage[CarItem]]]:
    caller = context.current()
    data = service.list_cars(
        brand_ids=brands,
        body_type_ids=body_types,
        min_price=min_price,
        max_price=max_price,
        search=search,
        sort=sort,
        limit=limit,
        offset=offset,
        fingerprint=caller.fingerprint,
        locale=caller.locale,
    )
    return responses.ok(data)


@app.get(
    "/api/v1/cars/<id>",
    operation_id="getCar",
    middlewares=[OPTIONAL_JWT],
    summary="A car with its modifications and colors",
)
def get_cars_by_id(id: MongoId) -> Response[Envelope[CarDetail]]:
    caller = context.current()
    return responses.ok(service.car_detail(id, fingerprint=caller.fingerprint, locale=caller.locale))


@app.get(
    "/api/v1/cars/<id>/info",
    operation_id="listCarInfoBlocks",
    middlewares=[PUBLIC],
    summary="A car's information blocks",
)
def get_cars_by_id_info(id: MongoId) -> Response[Envelope[Page[InfoBlock]]]:
    return responses.ok(service.car_info(id, locale=context.locale()))


@app.get(
    "/api/v1/cars/<id>/modifications",
    operation_id="listCarModifications",
    middlewares=[PUBLIC],
    summary="A car's modifications with specifications",
)
def get_cars_by_id_modifications(id: MongoId) -> Response[Envelope[Page[Modification]]]:
    return responses.ok(service.car_modifications(id, locale=context.locale()))


@app.get("/api/v1/brands", operation_id="listBrands", middlewares=[PUBLIC], summary="List brands")
def get_brands(
    search: Search = None, sort: Annotated[BrandSort, Query()] = "order"
) -> Response[Envelope[Page[BrandItem]]]:
    return responses.ok(service.list_brands(search=search, sort=sort, locale=context.locale()))


@app.get("/api/v1/brands/<id>", operation_id="getBrand", middlewares=[PUBLIC], summary="A brand")
def get_brands_by_id(id: MongoId) -> Response[Envelope[BrandDetail]]:
    return responses.ok(service.brand_detail(id, locale=context.locale()))


@app.get(
    "/api/v1/filters/bodies", operation_id="listBodyTypes", middlewares=[PUBLIC], summary="Body types to filter cars by"
)
def get_filters_bodies() -> Response[Envelope[Page[Option]]]:
    return responses.ok(service.body_types(locale=context.locale()))


@app.get(
    "/api/v1/filters/powertrains",
    operation_id="listPowertrains",
    middlewares=[PUBLIC],
    summary="Powertrains to filter cars by",
)
def get_filters_powertrains() -> Response[Envelope[Page[Option]]]:
    return responses.ok(service.powertrains(locale=context.locale()))


@app.get(
    "/api/v1/filters/all",
    operation_id="getCatalogFilters",
    middlewares=[PUBLIC],
    summary="Every catalog filter at once, with the price range",
)
def get_filters_all() -> Response[Envelope[AllFilters]]:
    return responses.ok(service.all_filters(locale=context.locale()))


lambda_handler = lambda_entry(app)
