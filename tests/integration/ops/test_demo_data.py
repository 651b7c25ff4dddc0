"""The demo dataset (docs/DEMO_DATA.md): its size and shape, its assets, and a client's first walk
through it: brands, a brand's cars, a car, where to buy it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pymongo.database import Database

from core.locale import LOCALES
from local.seed import catalog, seed_all
from local.static import ASSETS_DIR
from tests.factories import ApiClient

LOCALIZED_KEYS = {"name", "title", "description", "value", "country", "address", "hours", "markdown"}
ASSET_KEYS = {"logo", "image", "gallery", "file"}


def walk(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    yield key, value
    if isinstance(value, dict):
        for child_key, child in value.items():
            yield from walk(child, child_key)
    elif isinstance(value, list):
        for child in value:
            yield from walk(child, key)


def test_the_demo_dataset_is_big_and_complete(seeded: Database[dict[str, Any]]) -> None:
    db = seeded
    # Given the seeded demo data, then it has the size a client developer needs
    assert db.brands.count_documents({}) >= 8
    cars = list(db.cars.find())
    assert len(cars) >= 25
    assert all(2 <= len(car["modifications"]) <= 4 for car in cars)
    assert all(car["priceFrom"] == min(mod["price"] for mod in car["modifications"]) for car in cars)
    assert all(car["colors"] and car["info"] and car["modifications"][0]["specs"] for car in cars)
    assert db.regions.count_documents({}) == 14
    assert db.branches.count_documents({}) >= 20
    assert db.stock.count_documents({"quantity": {"$gt": 0}}) >= len(cars)
    assert {doc["slug"] for doc in db.documents.find()} >= {"offer", "checkout", "privacy-policy"}
    assert db.settings.find_one({"_id": "contacts"})
    # And every localized text has all three locales, every asset key a file in local/assets
    collections = ("brands", "body_types", "powertrains", "cars", "regions", "branches", "documents", "organizations")
    for collection in collections:
        for doc in db[collection].find():
            for key, value in walk(doc):
                if key in LOCALIZED_KEYS and isinstance(value, dict):
                    assert all(value.get(locale) for locale in LOCALES), (collection, key, value)
                if key in ASSET_KEYS and not isinstance(value, list):
                    for asset in value.values() if isinstance(value, dict) else [value]:
                        assert asset is None or (ASSETS_DIR / asset).is_file(), asset
    # And seeding again inserts nothing
    assert set(seed_all().values()) == {0}


def test_a_client_walks_from_brands_to_where_a_car_is_in_stock(seeded_api: ApiClient) -> None:
    api = seeded_api
    api.login("+998901234567")
    # Brands, in the curated order
    brands = api.get("/api/v1/brands").json()["data"]["items"]
    assert brands[0]["name"] == "Chevrolet"
    # The brand's cars, cheapest first
    cars = api.get("/api/v1/cars", params={"brands": brands[0]["_id"], "sort": "price"}).json()["data"]
    assert cars["items"][1]["_id"] == str(catalog.car_id("chevrolet-cobalt"))
    # One car, in Uzbek by default
    car = api.get(f"/api/v1/cars/{cars['items'][1]['_id']}", headers={"accept-language": None}).json()["data"]
    assert car["description"].startswith("O'zbekistonda")
    # Where its first modification in its first color is in stock
    regions = api.get(
        "/api/v1/dictionaries/branch/regions",
        params={
            "brandId": car["brand"]["_id"],
            "carId": car["_id"],
            "modificationId": car["modifications"][0]["_id"],
            "colorId": car["colors"][0]["_id"],
        },
    ).json()["data"]
    available = [branch["_id"] for region in regions["items"] for branch in region["branches"] if branch["available"]]
    assert str(catalog.branch_id("chevrolet-chilonzor")) in available


def test_make_run_loads_the_demo_data_file_through_the_import_into_an_empty_database_only(
    db: Database[dict[str, Any]],
) -> None:
    from local.runtime import prepare_database

    # Given an empty database / When `make run` prepares it
    loaded = prepare_database(seed=True, only_if_empty=True)
    # Then the demo data file was imported, with the demo partner, user and orders
    assert (loaded["brands"], loaded["cars"], loaded["users"], loaded["orders"]) == (9, 31, 1, 2)
    assert db.bank_offers.count_documents({}) == loaded["bank_offers"] > 0
    # When a developer changes a price and `make run` starts again
    db.cars.update_one({}, {"$set": {"modifications.0.price": 1}})
    again = prepare_database(seed=True, only_if_empty=True)
    # Then the database keeps its catalog as it is
    assert "brands" not in again
    assert db.cars.count_documents({"modifications.0.price": 1}) == 1


def test_make_run_adds_no_demo_partner_to_a_database_with_a_catalog_of_its_own(
    db: Database[dict[str, Any]],
) -> None:
    from bson import ObjectId

    from local.runtime import prepare_database

    # Given another environment's database (MONGODB_URI set): a catalog of its own, no demo partner
    db.partners.delete_many({})
    db.brands.insert_one({"_id": ObjectId(), "slug": "own-brand", "name": "Own brand", "order": 1})
    # When `make run` prepares it
    loaded = prepare_database(seed=True, only_if_empty=True)
    # Then nothing of the demo data is added: no catalog, no partner key, no user, no orders
    assert loaded == {}
    assert db.partners.count_documents({}) == 0
    assert db.users.count_documents({}) == db.orders.count_documents({}) == 0
    assert db.brands.count_documents({}) == 1


def test_make_run_adds_nothing_to_a_database_imported_from_the_demo_data_file(
    db: Database[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from local.runtime import prepare_database
    from local.seed import DEMO_DATA_FILE
    from ops.__main__ import main as ops_main

    # Given a database an operator loaded from the demo data file (no demo partner: `make run` did not seed it)
    db.partners.delete_many({})
    assert ops_main(["catalog", "import", str(DEMO_DATA_FILE), "--with-stock"]) == 0
    capsys.readouterr()
    stock = {row["_id"]: row["quantity"] for row in db.stock.find()}
    # When `make run` prepares it
    loaded = prepare_database(seed=True, only_if_empty=True)
    # Then it adds nothing: no partner key, no user, no orders, and every unit of stock is still there
    assert loaded == {}
    assert db.partners.count_documents({}) == db.users.count_documents({}) == db.orders.count_documents({}) == 0
    assert {row["_id"]: row["quantity"] for row in db.stock.find()} == stock


def test_make_run_puts_back_a_missing_demo_record_in_a_database_it_seeded(db: Database[dict[str, Any]]) -> None:
    from local.runtime import prepare_database

    # Given a database `make run` seeded, whose demo user a developer deleted
    db.partners.delete_many({})
    assert prepare_database(seed=True, only_if_empty=True)["orders"] == 2
    db.users.delete_many({})
    # When `make run` starts again / Then it adds the demo user again, and nothing else
    again = prepare_database(seed=True, only_if_empty=True)
    assert again == {"users": 1, "orders": 0}
    assert db.orders.count_documents({}) == 2


def test_the_demo_partners_sign_in_one_by_its_key_the_other_by_the_sandbox_sms_code(
    api: ApiClient, db: Database[dict[str, Any]]
) -> None:
    from local.runtime import prepare_database
    from local.seed.core import DEMO_OTP_PARTNER_KEY, DEMO_PARTNER_KEY, DEMO_USER_PHONE

    # Given the database `make run` seeds
    db.partners.delete_many({})
    prepare_database(seed=True, only_if_empty=True)
    login = "/api/v1/auth/login"
    # When the demo user signs in through the trusted demo partner / Then the key alone signs them in
    trusted = api.post(login, json={"phone": DEMO_USER_PHONE}, headers={"client": DEMO_PARTNER_KEY}, auth=False)
    assert trusted.status_code == 201
    # When they sign in through the otp demo partner / Then a code is sent first, no token yet
    otp = {"client": DEMO_OTP_PARTNER_KEY}
    sent = api.post(login, json={"phone": DEMO_USER_PHONE}, headers=otp, auth=False)
    assert (sent.status_code, sent.json()["data"]["codeSent"]) == (202, True)
    # And the sandbox's code signs them in, as the demo user
    signed_in = api.post(login, json={"phone": DEMO_USER_PHONE, "otp": "666666"}, headers=otp, auth=False)
    assert signed_in.status_code == 201
    token = signed_in.json()["data"]["accessToken"]
    me = api.get("/api/v1/auth/me", headers={**otp, "Authorization": f"Bearer {token}"}).json()["data"]
    assert (me["phone"], me["firstName"]) == (DEMO_USER_PHONE, "Aziz")
