"""Catalog documents rendered for the API in one locale, with storage keys turned into URLs."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from core.assets import url
from core.locale import Locale, localize
from data import edge_files
from domain.catalog import sale
from domain.catalog.models import (
    BrandDetail,
    CarDetail,
    Option,
    SpecSection,
)
from domain.catalog.records import (
    BrandRecord,
    CarRecord,
    InfoBlockRecord,
    ModificationRecord,
    OptionRecord,
)
from domain.catalog.sale import NO_RULES, SaleRules


def car_item(car: CarRecord, brand_names: dict[ObjectId, str], saved: set[ObjectId], locale: Locale) -> dict[str, Any]:
    """A car in a list (`_id`, `name`, `priceFrom`), with what a list screen shows besides, as the fields of
    a `CarItem` (a page of them is validated in one call)."""
    fields = _car_fields(car, saved, locale)
    fields["brand"] = {"_id": car["brandId"], "name": brand_names.get(car["brandId"], "")}
    return fields


def _car_fields(car: CarRecord, saved: set[ObjectId], locale: Locale) -> dict[str, Any]:
    return {
        "_id": car["_id"],
        "slug": car.get("slug"),
        "name": localize(car["name"], locale),
        "priceFrom": car["priceFrom"],
        "image": url(car.get("image")),
        "year": car.get("year"),
        "isNew": bool(car.get("isNew")),
        "saleStartsAt": car.get("saleStartsAt"),
        "bodyTypeId": car.get("bodyTypeId"),
        "powertrainId": car.get("powertrainId"),
        "saved": car["_id"] in saved,
    }


def option(doc: OptionRecord | None, locale: Locale) -> Option | None:
    """A body type or powertrain: `_id`, `slug`, `name`, and `image` when it has one."""
    fields = _option_fields(doc, locale)
    return None if fields is None else Option.model_validate(fields)


def _option_fields(doc: OptionRecord | None, locale: Locale) -> dict[str, Any] | None:
    if doc is None:
        return None
    return {
        "_id": doc["_id"],
        "slug": doc["slug"],
        "name": localize(doc["name"], locale),
        "image": url(doc.get("image")),
    }


def _brand_fields(brand: BrandRecord, locale: Locale) -> dict[str, Any]:
    return {
        "_id": brand["_id"],
        "slug": brand["slug"],
        "name": brand["name"],
        "logo": url(brand.get("logo")),
        "country": localize(brand.get("country"), locale),
    }


def brand_item(brand: BrandRecord, locale: Locale) -> dict[str, Any]:
    """A brand in a list, as the fields of a `BrandItem` (a page of them is validated in one call)."""
    return _brand_fields(brand, locale)


def brand_detail(brand: BrandRecord, cars_count: int, locale: Locale) -> BrandDetail:
    return BrandDetail(
        **_brand_fields(brand, locale),
        description=localize(brand.get("description"), locale),
        carsCount=cars_count,
    )


def car_detail(
    car: CarRecord,
    *,
    brand: BrandRecord | None,
    body_type: OptionRecord | None,
    powertrain: OptionRecord | None,
    saved: bool,
    locale: Locale,
) -> CarDetail:
    """Validated in one call from its fields, nested ones included."""
    return CarDetail.model_validate(
        {
            **_car_fields(car, {car["_id"]} if saved else set(), locale),
            "brand": {
                "_id": car["brandId"],
                "name": brand["name"] if brand else "",
                "logo": url(brand.get("logo")) if brand else None,
            },
            "description": localize(car.get("description"), locale),
            "gallery": [link for link in (url(image) for image in car.get("gallery", [])) if link],
            "paymentTypes": car.get("paymentTypes", []),
            "bodyType": _option_fields(body_type, locale),
            "powertrain": _option_fields(powertrain, locale),
            "sale": sale_terms(car["_id"], sale.rules_of(car)),
            "modifications": [
                {
                    "_id": mod["_id"],
                    "name": localize(mod["name"], locale),
                    "price": mod["price"],
                    "sale": sale_terms(car["_id"], sale.rules_of(car, mod)),
                }
                for mod in car.get("modifications", [])
            ],
            "colors": [
                {
                    "_id": color["_id"],
                    "name": localize(color["name"], locale),
                    "hex": color["hex"],
                    "image": url(color.get("image")),
                }
                for color in car.get("colors", [])
            ],
        }
    )


def sale_terms(car_id: ObjectId, rules: SaleRules) -> dict[str, Any] | None:
    """A car's (or one modification's) sale rules as the fields of `SaleTerms`; None without any."""
    if rules == NO_RULES:
        return None
    limit, queue = rules.per_person_limit, rules.queue
    return {
        "startsAt": rules.starts_at,
        "depositAmount": rules.deposit_amount,
        "holdMinutes": rules.hold_minutes,
        "perPersonLimit": {"count": limit.orders, "days": limit.days} if limit else None,
        "verifiedBuyersOnly": rules.verified_buyers_only,
        "queue": None
        if queue is None
        else {
            "registrationOpensAt": queue.registration_opens_at,
            "admissionPerSecond": queue.admission_per_second,
            "admissionMinutes": queue.admission_minutes,
            "statusUrl": edge_files.public_url(edge_files.sale_status_key(car_id)),
            "drawUrl": edge_files.public_url(edge_files.sale_draw_key(car_id)),
        },
    }


def info_block(block: InfoBlockRecord, locale: Locale) -> dict[str, Any]:
    """An info block as the fields of an `InfoBlock` (a page of them is validated in one call)."""
    return {
        "_id": block["_id"],
        "title": localize(block["title"], locale),
        "description": localize(block["description"], locale),
        "image": url(block.get("image")),
    }


def modification(mod: ModificationRecord, specs: list[SpecSection], locale: Locale) -> dict[str, Any]:
    """A modification as the fields of a `Modification` (a page of them is validated in one call), with its
    technical sections as rendered (`spec_sections`)."""
    return {"_id": mod["_id"], "name": localize(mod["name"], locale), "price": mod["price"], "specs": specs}


def spec_sections(mod: ModificationRecord, locale: Locale) -> list[dict[str, Any]]:
    """A modification's technical sections (`[{title, items [{name, value}]}]`) as the fields of
    `SpecSection`s: validated in one call, not one constructor per spec item."""
    return [
        {
            "title": localize(section["title"], locale),
            "items": [
                {"name": localize(item["name"], locale), "value": localize(item["value"], locale)}
                for item in section.get("items", [])
            ],
        }
        for section in mod.get("specs", [])
    ]
