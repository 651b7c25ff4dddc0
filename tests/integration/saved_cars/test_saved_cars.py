"""Saved cars through HTTP: the toggle both ways, per device fingerprint, and the list."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from tests.data import insert_brand, insert_car
from tests.factories import ApiClient

SAVED = "/api/v1/saved-cars"


@pytest.fixture
def cars(db: Database[dict[str, Any]]) -> list[str]:
    brand = insert_brand(db)
    return [
        str(insert_car(db, brand, name=name, prices=(price,))["_id"]) for name, price in (("Cobalt", 1), ("Onix", 2))
    ]


def toggle(api: ApiClient, car_id: str, fingerprint: str = "device-test-0001") -> Any:
    return api.patch(f"{SAVED}/{car_id}", json={}, headers={"fingerprint": fingerprint})


def saved_ids(api: ApiClient, fingerprint: str = "device-test-0001", **params: str) -> list[str]:
    response = api.get(SAVED, headers={"fingerprint": fingerprint}, params=params)
    assert response.status_code == 200, response.text
    return [item["_id"] for item in response.json()["data"]["items"]]


def test_toggle_saves_then_removes_with_201_each_time(api: ApiClient, cars: list[str]) -> None:
    # When a device saves a car
    saved = toggle(api, cars[0])
    # Then it is 201 with status saved and a message saying so
    assert saved.status_code == 201
    assert saved.json() == {
        "success": True,
        "statusCode": 201,
        "message": "Car saved",
        "data": {"status": "saved", "carId": cars[0]},
    }
    assert saved_ids(api) == [cars[0]]
    # When it toggles the same car again
    removed = toggle(api, cars[0])
    # Then the car is removed
    assert removed.status_code == 201
    assert removed.json()["data"]["status"] == "removed"
    assert removed.json()["message"] == "Car removed from saved cars"
    assert saved_ids(api) == []
    # And a third toggle saves it again
    assert toggle(api, cars[0]).json()["data"]["status"] == "saved"


def test_the_same_car_from_two_fingerprints_stays_separate(api: ApiClient, cars: list[str]) -> None:
    toggle(api, cars[0], "phone-a")
    toggle(api, cars[0], "phone-b")
    assert toggle(api, cars[0], "phone-a").json()["data"]["status"] == "removed"
    assert saved_ids(api, "phone-a") == []
    assert saved_ids(api, "phone-b") == [cars[0]]


def test_the_list_has_car_list_items_most_recently_saved_first(
    api: ApiClient, cars: list[str], frozen_clock: FrozenClock
) -> None:
    toggle(api, cars[0])
    frozen_clock.advance(5)
    toggle(api, cars[1])
    response = api.get(SAVED, headers={"accept-language": "ru"})
    data = response.json()["data"]
    assert data["total"] == 2
    assert [item["_id"] for item in data["items"]] == [cars[1], cars[0]]
    item = data["items"][1]
    assert item["name"] == "Cobalt (ru)"
    assert item["priceFrom"] == 1
    assert item["saved"] is True
    assert item["brand"]["name"] == "Chevrolet"


def test_the_list_pages_like_every_list(api: ApiClient, cars: list[str], frozen_clock: FrozenClock) -> None:
    for car in cars:
        toggle(api, car)
        frozen_clock.advance(1)
    assert saved_ids(api, limit="1") == [cars[1]]
    assert saved_ids(api, limit="1", offset="1") == [cars[0]]
    assert saved_ids(api, offset="2") == []
    response = api.get(SAVED, params={"limit": "0"})
    assert response.json()["data"] == {"items": [], "total": 2, "exact": True}
    assert api.get(SAVED, params={"limit": "101"}).status_code == 400


def test_the_car_list_flags_the_cars_this_device_saved(api: ApiClient, cars: list[str]) -> None:
    toggle(api, cars[1])
    mine = api.get("/api/v1/cars", params={"sort": "price"}).json()["data"]["items"]
    theirs = api.get("/api/v1/cars", params={"sort": "price"}, headers={"fingerprint": "other"}).json()["data"]["items"]
    assert [item["saved"] for item in mine] == [False, True]
    assert [item["saved"] for item in theirs] == [False, False]
    assert api.get(f"/api/v1/cars/{cars[1]}").json()["data"]["saved"] is True


def test_a_car_removed_from_the_catalog_drops_out_of_the_list(
    api: ApiClient, db: Database[dict[str, Any]], cars: list[str]
) -> None:
    # Given two saved cars, one of which then leaves the catalog
    toggle(api, cars[0])
    toggle(api, cars[1])
    db.cars.delete_one({"_id": ObjectId(cars[0])})
    # Then the list shows the other one, and the total counts only what the list can show
    assert saved_ids(api) == [cars[1]]
    assert api.get("/api/v1/saved-cars").json()["data"]["total"] == 1
    past_the_end = api.get("/api/v1/saved-cars", params={"offset": 1}).json()["data"]
    assert past_the_end == {"items": [], "total": 1, "exact": True}


def test_saving_an_unknown_car_is_404_and_a_malformed_id_400(api: ApiClient, cars: list[str]) -> None:
    missing = toggle(api, str(ObjectId()))
    assert missing.status_code == 404
    assert missing.json()["message"] == "Car not found"
    malformed = toggle(api, "not-an-id")
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["field"] == "path.id"
    assert saved_ids(api) == []


def test_the_fingerprint_header_is_required(api: ApiClient, cars: list[str]) -> None:
    assert api.patch(f"{SAVED}/{cars[0]}", json={}, headers={"fingerprint": None}).status_code == 400
    assert api.get(SAVED, headers={"fingerprint": ""}).status_code == 400


def test_a_body_is_ignored(api: ApiClient, cars: list[str]) -> None:
    response = api.patch(f"{SAVED}/{cars[0]}", json={"status": "removed", "carId": "x"})
    assert response.json()["data"]["status"] == "saved"


def test_concurrent_toggles_of_one_car_each_make_a_real_transition(
    db: Database[dict[str, Any]], cars: list[str]
) -> None:
    # Given eight requests from one device racing to toggle the same car
    from domain.saved_cars import store

    # When they run at once
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: store.toggle("racer", ObjectId(cars[0])), range(8)))
    # Then each made a real transition: as many saves as removals, one record, and the car is not saved
    assert sorted(results) == ["removed"] * 4 + ["saved"] * 4
    assert db.saved_cars.count_documents({"fingerprint": "racer"}) == 1
    assert store.saved_car_ids("racer", [ObjectId(cars[0])]) == set()
