"""Catalog through HTTP: the car list with every filter, sort mode and page edge, car details,
brands and filters."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from tests.data import insert_body_type, insert_brand, insert_car, insert_powertrain, text
from tests.factories import ApiClient, bearer

CARS = "/api/v1/cars"
ASSETS = "http://127.0.0.1:3000/assets"


@dataclass
class Catalog:
    chevrolet: ObjectId
    byd: ObjectId
    sedan: ObjectId
    crossover: ObjectId
    cars: dict[str, dict[str, Any]]

    def id(self, slug: str) -> str:
        return str(self.cars[slug]["_id"])


@pytest.fixture
def catalog(db: Database[dict[str, Any]]) -> Catalog:
    """Four cars of two brands and two body types; names differ per locale, ids follow insertion."""
    chevrolet = insert_brand(db, "Chevrolet", order=1)
    byd = insert_brand(db, "BYD", order=2, logo="https://cdn.example.com/byd.svg")
    sedan = insert_body_type(db, "sedan", order=1)
    crossover = insert_body_type(db, "crossover", order=2, image="https://cdn.example.com/crossover.png")
    rows = [
        ("cobalt", chevrolet, sedan, (150_000_000, 170_000_000), "2025-01-01", ("Кобальт", "Kobalt", "Cobalt")),
        ("tracker", chevrolet, crossover, (240_000_000, 290_000_000), "2025-03-01", ("Трекер", "Treker", "Tracker")),
        ("han", byd, sedan, (548_000_000,), "2025-02-01", ("Хан", "Xan", "Han")),
        ("song", byd, crossover, (409_000_000, 449_000_000), "2025-04-01", ("Сонг Плюс", "Song Plyus", "Song Plus")),
    ]
    cars = {
        slug: insert_car(
            db,
            brand,
            name=slug.title(),
            prices=prices,
            bodyTypeId=body,
            createdAt=datetime.fromisoformat(created).replace(tzinfo=UTC),
            localized_name={"ru": ru, "uz": uz, "en": en},
        )
        for slug, brand, body, prices, created, (ru, uz, en) in rows
    }
    return Catalog(chevrolet, byd, sedan, crossover, cars)


def names(response: Any) -> list[str]:
    assert response.status_code == 200, response.text
    return [item["name"] for item in response.json()["data"]["items"]]


def error_fields(response: Any) -> list[str]:
    assert response.status_code == 400, response.text
    return [error["field"] for error in response.json()["errors"]]


# --- the car list -------------------------------------------------------------------------------


def test_car_list_items_carry_the_spec_fields_and_the_total(api: ApiClient, catalog: Catalog) -> None:
    # When a client lists cars without any parameter
    response = api.get(CARS)
    # Then every car is there, newest first, in the envelope
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    assert body["message"] == "Success"
    assert body["data"]["total"] == 4
    item = body["data"]["items"][-1]
    assert item["_id"] == catalog.id("cobalt")
    assert item["name"] == "Cobalt"
    assert item["priceFrom"] == 150_000_000
    assert item["brand"] == {"_id": str(catalog.chevrolet), "name": "Chevrolet"}
    assert item["image"] == f"{ASSETS}/cars/cobalt.webp"
    assert item["saved"] is False


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("new", ["Song Plus", "Tracker", "Han", "Cobalt"]),
        ("name", ["Cobalt", "Han", "Song Plus", "Tracker"]),
        ("-name", ["Tracker", "Song Plus", "Han", "Cobalt"]),
        ("id", ["Cobalt", "Tracker", "Han", "Song Plus"]),
        ("-id", ["Song Plus", "Han", "Tracker", "Cobalt"]),
        ("price", ["Cobalt", "Tracker", "Song Plus", "Han"]),
        ("-price", ["Han", "Song Plus", "Tracker", "Cobalt"]),
    ],
)
def test_each_sort_mode_gives_its_exact_order(api: ApiClient, catalog: Catalog, sort: str, expected: list[str]) -> None:
    assert names(api.get(CARS, params={"sort": sort})) == expected


def test_sort_by_name_follows_the_requested_locale(api: ApiClient, catalog: Catalog) -> None:
    # Given names whose alphabetical order differs between English and Russian
    ru = api.get(CARS, params={"sort": "name"}, headers={"accept-language": "ru"})
    # Then Russian names come in Russian order
    assert names(ru) == ["Кобальт", "Сонг Плюс", "Трекер", "Хан"]


def test_sort_by_name_ignores_letter_case(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # Given names with capitals inside, as the demo catalog has ("CS55 Plus" beside "Captiva")
    brand = insert_brand(db, "Changan")
    for name in ("CS55 Plus", "cobalt", "Captiva"):
        insert_car(db, brand, name=name)
    # When cars are sorted by name, both ways
    ascending = names(api.get(CARS, params={"sort": "name"}))
    descending = names(api.get(CARS, params={"sort": "-name"}))
    # Then letter case does not decide the order
    assert ascending == ["Captiva", "cobalt", "CS55 Plus"]
    assert descending == ["CS55 Plus", "cobalt", "Captiva"]


def test_equal_keys_are_ordered_by_id(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    # Given three cars at the same price
    brand = insert_brand(db)
    ids = [str(insert_car(db, brand, name=name, prices=(100_000_000,))["_id"]) for name in ("C", "A", "B")]
    # Then price order keeps them in id order, and the descending order reverses it
    ascending = [item["_id"] for item in api.get(CARS, params={"sort": "price"}).json()["data"]["items"]]
    descending = [item["_id"] for item in api.get(CARS, params={"sort": "-price"}).json()["data"]["items"]]
    assert ascending == ids
    assert descending == ids[::-1]


def test_unknown_sort_mode_is_400_naming_the_field(api: ApiClient, catalog: Catalog) -> None:
    assert error_fields(api.get(CARS, params={"sort": "cheapest"})) == ["query.sort"]


def test_brands_filter_takes_comma_separated_ids(api: ApiClient, catalog: Catalog) -> None:
    only_byd = api.get(CARS, params={"brands": str(catalog.byd), "sort": "name"})
    both = api.get(CARS, params={"brands": f"{catalog.byd}, {catalog.chevrolet},", "sort": "name"})
    assert names(only_byd) == ["Han", "Song Plus"]
    assert only_byd.json()["data"]["total"] == 2
    assert names(both) == ["Cobalt", "Han", "Song Plus", "Tracker"]


def test_body_types_filter_combines_with_brands(api: ApiClient, catalog: Catalog) -> None:
    sedans = api.get(CARS, params={"bodyTypes": str(catalog.sedan), "sort": "name"})
    byd_crossovers = api.get(CARS, params={"bodyTypes": str(catalog.crossover), "brands": str(catalog.byd)})
    assert names(sedans) == ["Cobalt", "Han"]
    assert names(byd_crossovers) == ["Song Plus"]


def test_an_unknown_but_wellformed_id_matches_nothing(api: ApiClient, catalog: Catalog) -> None:
    response = api.get(CARS, params={"brands": str(ObjectId())})
    assert names(response) == []
    assert response.json()["data"]["total"] == 0


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"brands": "not-an-id"}, "query.brands"),
        ({"brands": f"{ObjectId()},zzz"}, "query.brands"),
        ({"bodyTypes": "123"}, "query.bodyTypes"),
        ({"min": "cheap"}, "query.min"),
        ({"max": "-1"}, "query.max"),
        ({"search": "x" * 101}, "query.search"),
    ],
)
def test_malformed_filters_are_400_naming_the_field(
    api: ApiClient, catalog: Catalog, params: dict[str, str], field: str
) -> None:
    assert error_fields(api.get(CARS, params=params)) == [field]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"min": "240000000"}, ["Tracker", "Song Plus", "Han"]),
        ({"max": "409000000"}, ["Cobalt", "Tracker", "Song Plus"]),
        ({"min": "200000000", "max": "500000000"}, ["Tracker", "Song Plus"]),
        ({"min": "150000000.5"}, ["Tracker", "Song Plus", "Han"]),
        # a range with min above max is empty, not an error: the document cannot say min <= max
        ({"min": "300000000", "max": "200000000"}, []),
    ],
)
def test_min_and_max_bound_price_from_inclusively(
    api: ApiClient, catalog: Catalog, params: dict[str, str], expected: list[str]
) -> None:
    assert names(api.get(CARS, params={**params, "sort": "price"})) == expected


@pytest.mark.parametrize(
    ("search", "locale", "expected"),
    [
        ("cob", "en", ["Cobalt"]),  # English name, lower case
        ("ТРЕК", "en", ["Tracker"]),  # Russian name, upper case: every locale is searched
        ("plyus", "ru", ["Сонг Плюс"]),  # Uzbek name
        ("byd", "en", ["Han", "Song Plus"]),  # the brand's name
        ("  han ", "en", ["Han"]),  # surrounding blanks are ignored
        ("Кобальт", "en", ["Cobalt"]),  # the English name spelled in Cyrillic
        ("сонг плю", "en", ["Song Plus"]),  # every word typed starts a word of the name
        ("ong", "en", []),  # the inside of a word is not its start
        ("Song.*", "en", ["Song Plus"]),  # punctuation separates words, never a pattern
        (".", "en", []),  # no word at all: nothing
        ("(", "en", []),
        ("[a-z]+", "en", []),
    ],
)
def test_search_finds_word_starts_in_any_locale_and_alphabet(
    api: ApiClient, catalog: Catalog, search: str, locale: str, expected: list[str]
) -> None:
    response = api.get(CARS, params={"search": search, "sort": "name"}, headers={"accept-language": locale})
    assert names(response) == expected
    assert response.json()["data"]["total"] == len(expected)


def test_a_name_with_regex_characters_is_found_literally(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    brand = insert_brand(db)
    insert_car(db, brand, name="C+ (2.0)")
    insert_car(db, brand, name="C 2x0")
    assert names(api.get(CARS, params={"search": "c+ (2.0"})) == ["C+ (2.0)"]


@pytest.mark.parametrize(
    ("params", "expected", "total"),
    [
        ({"limit": "2"}, ["Cobalt", "Tracker"], 4),
        ({"limit": "2", "offset": "1"}, ["Tracker", "Song Plus"], 4),
        ({"limit": "2", "offset": "3"}, ["Han"], 4),
        ({"offset": "4"}, [], 4),  # offset past the end: an empty page, the real total
        ({"offset": "1000000"}, [], 4),
        ({"offset": str(10**30)}, [], 4),  # past any database limit, still just past the end
        ({"limit": "0"}, [], 4),  # limit 0: only the total
        ({"limit": "100"}, ["Cobalt", "Tracker", "Song Plus", "Han"], 4),
        ({"limit": "2", "min": "240000000"}, ["Tracker", "Song Plus"], 3),  # total counts every match
    ],
)
def test_limit_and_offset_page_through_every_match(
    api: ApiClient, catalog: Catalog, params: dict[str, str], expected: list[str], total: int
) -> None:
    response = api.get(CARS, params={**params, "sort": "price"})
    assert names(response) == expected
    assert response.json()["data"]["total"] == total


def test_limit_defaults_to_ten(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    brand = insert_brand(db)
    for number in range(12):
        insert_car(db, brand, name=f"Model {number:02}")
    response = api.get(CARS)
    assert len(names(response)) == 10
    assert response.json()["data"]["total"] == 12


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": "101"}, "query.limit"),
        ({"limit": "-1"}, "query.limit"),
        ({"limit": "ten"}, "query.limit"),
        ({"limit": "2.5"}, "query.limit"),
        ({"offset": "-1"}, "query.offset"),
        ({"offset": "first"}, "query.offset"),
    ],
)
def test_out_of_range_or_non_numeric_paging_is_400_naming_the_field(
    api: ApiClient, catalog: Catalog, params: dict[str, str], field: str
) -> None:
    assert error_fields(api.get(CARS, params=params)) == [field]


@pytest.mark.parametrize(
    ("header", "expected"),
    [("ru", "Кобальт"), ("uz", "Kobalt"), ("en-US,en;q=0.9", "Cobalt"), ("de", "Kobalt"), (None, "Kobalt")],
)
def test_names_come_in_the_requested_locale_with_uz_as_default(
    api: ApiClient, catalog: Catalog, header: str | None, expected: str
) -> None:
    response = api.get(CARS, params={"search": "cob"}, headers={"accept-language": header})
    assert names(response) == [expected]


def test_optional_jwt_accepts_a_valid_token_and_refuses_an_invalid_one(api: ApiClient, catalog: Catalog) -> None:
    api.login()
    assert api.get(CARS).status_code == 200
    assert api.get(f"{CARS}/{catalog.id('han')}").status_code == 200
    assert api.get(CARS, headers=bearer("not.a.token")).status_code == 401
    assert api.get(f"{CARS}/{catalog.id('han')}", headers=bearer("not.a.token")).status_code == 401


def test_common_headers_are_required_on_public_routes(api: ApiClient, catalog: Catalog) -> None:
    assert api.get(CARS, headers={"fingerprint": None}).status_code == 400
    assert api.get("/api/v1/brands", headers={"client": "unknown-partner"}).status_code == 403


# --- one car ------------------------------------------------------------------------------------


def test_car_detail_has_the_contract_fields(api: ApiClient, db: Database[dict[str, Any]], catalog: Catalog) -> None:
    # Given a car with a known powertrain
    electric = insert_powertrain(db, "EV")
    db.cars.update_one({"_id": catalog.cars["han"]["_id"]}, {"$set": {"powertrainId": electric}})
    # When a client opens it in Russian
    response = api.get(f"{CARS}/{catalog.id('han')}", headers={"accept-language": "ru"})
    # Then it has the shape a client chains on, localized
    assert response.status_code == 200
    data = response.json()["data"]
    han = catalog.cars["han"]
    assert data["_id"] == catalog.id("han")
    assert data["name"] == "Хан"
    assert data["description"] == "The Han (ru)"
    assert data["brand"] == {"_id": str(catalog.byd), "name": "BYD", "logo": "https://cdn.example.com/byd.svg"}
    assert data["priceFrom"] == 548_000_000
    assert data["modifications"] == [
        {"_id": str(mod["_id"]), "name": mod["name"], "price": mod["price"], "sale": None}
        for mod in han["modifications"]
    ]
    assert data["sale"] is None  # no rules of its own (the rules: tests/integration/orders/test_sale_rules.py)
    assert [(c["_id"], c["name"], c["hex"]) for c in data["colors"]] == [
        (str(color["_id"]), color["name"]["ru"], color["hex"]) for color in han["colors"]
    ]
    assert data["bodyType"] == {
        "_id": str(catalog.sedan),
        "slug": "sedan",
        "name": "Sedan (ru)",
        "image": f"{ASSETS}/bodies/sedan.svg",
    }
    assert data["powertrain"] == {"_id": str(electric), "slug": "EV", "name": "EV (ru)"}
    assert data["paymentTypes"] == ["CASH", "CREDIT", "LEASING", "INSTALLMENT"]
    assert "specs" not in data["modifications"][0]
    assert "info" not in data


def test_car_info_lists_localized_marketing_blocks(api: ApiClient, catalog: Catalog) -> None:
    response = api.get(f"{CARS}/{catalog.id('cobalt')}/info", headers={"accept-language": "uz"})
    assert response.status_code == 200
    data = response.json()["data"]
    block = catalog.cars["cobalt"]["info"][0]
    assert data == {
        "items": [{"_id": str(block["_id"]), "title": "Safety (uz)", "description": "Six airbags (uz)", "image": None}],
        "total": 1,
    }


def test_car_modifications_list_technical_sections(api: ApiClient, catalog: Catalog) -> None:
    response = api.get(f"{CARS}/{catalog.id('tracker')}/modifications", headers={"accept-language": "en"})
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["total"] == 2
    first = data["items"][0]
    assert first["price"] == 240_000_000
    assert first["specs"] == [{"title": "Engine", "items": [{"name": "Volume", "value": "1.5 l"}]}]


@pytest.mark.parametrize("suffix", ["", "/info", "/modifications"])
def test_car_routes_refuse_malformed_ids_and_miss_unknown_ones(api: ApiClient, catalog: Catalog, suffix: str) -> None:
    assert error_fields(api.get(f"{CARS}/not-an-id{suffix}")) == ["path.id"]
    assert error_fields(api.get(f"{CARS}/{'g' * 24}{suffix}")) == ["path.id"]
    missing = api.get(f"{CARS}/{ObjectId()}{suffix}")
    assert missing.status_code == 404
    assert missing.json()["message"] == "Car not found"


# --- brands and filters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, ["Chevrolet", "BYD", "Kia"]),  # the curated order
        ({"sort": "order"}, ["Chevrolet", "BYD", "Kia"]),
        ({"sort": "name"}, ["BYD", "Chevrolet", "Kia"]),
        ({"sort": "-name"}, ["Kia", "Chevrolet", "BYD"]),
        ({"sort": "id"}, ["Chevrolet", "BYD", "Kia"]),
        ({"sort": "-id"}, ["Kia", "BYD", "Chevrolet"]),
        ({"search": "CHE"}, ["Chevrolet"]),
        ({"search": "kIA", "sort": "name"}, ["Kia"]),
        ({"search": "b.d"}, []),
    ],
)
def test_brands_search_and_sort(
    api: ApiClient, db: Database[dict[str, Any]], catalog: Catalog, params: dict[str, str], expected: list[str]
) -> None:
    insert_brand(db, "Kia", order=3)
    response = api.get("/api/v1/brands", params=params)
    assert names(response) == expected
    assert response.json()["data"]["total"] == len(expected)


def test_brand_list_items_and_unknown_brand_sort(api: ApiClient, catalog: Catalog) -> None:
    item = api.get("/api/v1/brands", headers={"accept-language": "ru"}).json()["data"]["items"][1]
    assert item == {
        "_id": str(catalog.byd),
        "slug": "byd",
        "name": "BYD",
        "logo": "https://cdn.example.com/byd.svg",
        "country": "Uzbekistan (ru)",
    }
    assert error_fields(api.get("/api/v1/brands", params={"sort": "price"})) == ["query.sort"]


def test_brand_detail(api: ApiClient, catalog: Catalog) -> None:
    response = api.get(f"/api/v1/brands/{catalog.chevrolet}")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["name"] == "Chevrolet"
    assert data["logo"] == f"{ASSETS}/brands/chevrolet.svg"
    assert data["description"] == "Chevrolet cars"
    assert data["carsCount"] == 2
    assert error_fields(api.get("/api/v1/brands/xyz")) == ["path.id"]
    assert api.get(f"/api/v1/brands/{ObjectId()}").status_code == 404


def test_body_type_filter_lists_images_as_urls(api: ApiClient, catalog: Catalog) -> None:
    response = api.get("/api/v1/filters/bodies")
    assert response.status_code == 200
    assert response.json()["data"] == {
        "items": [
            {"_id": str(catalog.sedan), "slug": "sedan", "name": "Sedan", "image": f"{ASSETS}/bodies/sedan.svg"},
            {
                "_id": str(catalog.crossover),
                "slug": "crossover",
                "name": "Crossover",
                "image": "https://cdn.example.com/crossover.png",
            },
        ],
        "total": 2,
    }


def test_powertrain_filter_lists_slugs(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    insert_powertrain(db, "EV", order=2, name=text("Electric", ru="Электро"))
    insert_powertrain(db, "ICE", order=1, name=text("Petrol", ru="Бензин"))
    response = api.get("/api/v1/filters/powertrains", headers={"accept-language": "ru"})
    assert response.status_code == 200
    assert [(item["slug"], item["name"]) for item in response.json()["data"]["items"]] == [
        ("ICE", "Бензин"),
        ("EV", "Электро"),
    ]


def test_all_filters_in_one_response(api: ApiClient, db: Database[dict[str, Any]], catalog: Catalog) -> None:
    insert_powertrain(db, "ICE")
    data = api.get("/api/v1/filters/all").json()["data"]
    assert [brand["name"] for brand in data["brands"]["items"]] == ["Chevrolet", "BYD"]
    assert data["bodyTypes"]["total"] == 2
    assert [item["slug"] for item in data["powertrains"]["items"]] == ["ICE"]
    assert data["price"] == {"min": 150_000_000, "max": 548_000_000}


def test_filters_of_an_empty_catalog(api: ApiClient) -> None:
    data = api.get("/api/v1/filters/all").json()["data"]
    assert data["brands"] == {"items": [], "total": 0}
    assert data["price"] == {"min": 0, "max": 0}


@pytest.mark.parametrize("path", ["/api/v1/cars", "/api/v1/brands"])
def test_a_search_with_control_characters_is_400_naming_the_field(api: ApiClient, path: str) -> None:
    # MongoDB refuses a $regex holding a NUL byte; the API says so as a client error, not a 500
    response = api.get(path, params={"search": "cobalt\x00"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "query.search"
