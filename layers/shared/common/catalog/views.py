"""Catalog documents rendered for the API in one locale, with storage keys turned into URLs."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from common.assets import url
from common.locale import Locale, localize

View = dict[str, Any]


def car_item(car: dict[str, Any], brand_names: dict[ObjectId, str], saved: set[ObjectId], locale: Locale) -> View:
    """A car in a list (`_id`, `name`, `priceFrom`), with what a list screen shows besides."""
    return {
        "_id": car["_id"],
        "slug": car.get("slug"),
        "name": localize(car["name"], locale),
        "priceFrom": car["priceFrom"],
        "image": url(car.get("image")),
        "year": car.get("year"),
        "isNew": bool(car.get("isNew")),
        "brand": {"_id": car["brandId"], "name": brand_names.get(car["brandId"], "")},
        "bodyTypeId": car.get("bodyTypeId"),
        "powertrainId": car.get("powertrainId"),
        "saved": car["_id"] in saved,
    }


def option(doc: dict[str, Any] | None, locale: Locale) -> View | None:
    """A body type or powertrain: `_id`, `slug`, `name`, and `image` when it has one."""
    if doc is None:
        return None
    view = {"_id": doc["_id"], "slug": doc["slug"], "name": localize(doc["name"], locale)}
    if "image" in doc:
        view["image"] = url(doc["image"])
    return view


def brand_item(brand: dict[str, Any], locale: Locale) -> View:
    return {
        "_id": brand["_id"],
        "slug": brand["slug"],
        "name": brand["name"],
        "logo": url(brand.get("logo")),
        "country": localize(brand.get("country"), locale),
    }


def brand_detail(brand: dict[str, Any], cars_count: int, locale: Locale) -> View:
    return {
        **brand_item(brand, locale),
        "description": localize(brand.get("description"), locale),
        "carsCount": cars_count,
    }


def car_detail(
    car: dict[str, Any],
    *,
    brand: dict[str, Any] | None,
    body_type: dict[str, Any] | None,
    powertrain: dict[str, Any] | None,
    saved: bool,
    locale: Locale,
) -> View:
    brand_names = {car["brandId"]: brand["name"]} if brand else {}
    return {
        **car_item(car, brand_names, {car["_id"]} if saved else set(), locale),
        "brand": {
            "_id": car["brandId"],
            "name": brand["name"] if brand else "",
            "logo": url(brand.get("logo")) if brand else None,
        },
        "description": localize(car.get("description"), locale),
        "gallery": [url(image) for image in car.get("gallery", [])],
        "paymentTypes": car.get("paymentTypes", []),
        "bodyType": option(body_type, locale),
        "powertrain": option(powertrain, locale),
        "modifications": [
            {"_id": mod["_id"], "name": localize(mod["name"], locale), "price": mod["price"]}
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


def info_block(block: dict[str, Any], locale: Locale) -> View:
    return {
        "_id": block["_id"],
        "title": localize(block["title"], locale),
        "description": localize(block["description"], locale),
        "image": url(block.get("image")),
    }


def modification(mod: dict[str, Any], locale: Locale) -> View:
    """A modification with its technical sections: `specs [{title, items [{name, value}]}]`."""
    return {
        "_id": mod["_id"],
        "name": localize(mod["name"], locale),
        "price": mod["price"],
        "specs": [
            {
                "title": localize(section["title"], locale),
                "items": [
                    {"name": localize(item["name"], locale), "value": localize(item["value"], locale)}
                    for item in section.get("items", [])
                ],
            }
            for section in mod.get("specs", [])
        ],
    }
