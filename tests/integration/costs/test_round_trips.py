"""Reads cost few round trips: every GET sample event of events/, served warm by its function's real handler
against the demo data, sends at most 3 MongoDB commands and writes nothing (counted with pymongo command
monitoring, the listener `make bench` uses); reference data is cached per instance for a short lifetime."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from data.mongo import get_db, reset_client
from local.invoke import invoke, load_event
from local.seed import core
from local.template import api_routes
from tests.data import insert_body_type, insert_brand, insert_car
from tests.factories import api_event
from tests.integration.platform.test_events import GETS_ANSWERED_ON_DEMO_DATA, sample_name
from tools.command_counter import CommandCounter

MAX_COMMANDS = 3
FUNCTION_OF = {(route.method, route.path): route.function for route in api_routes()}
Db = Database[dict[str, Any]]


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[CommandCounter]:
    """The process's client reports every command to a counter; caches as deployed (60 s lifetimes)."""
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    monkeypatch.setenv("PARTNER_CACHE_SECONDS", "60")
    reset_settings()
    counting = CommandCounter()
    reset_client(event_listeners=[counting])
    yield counting
    reset_client()


@pytest.fixture
def fresh_db(db: Db, counter: CommandCounter) -> Db:
    """The test's empty database, through the client that reports to the counter."""
    return get_db()


@pytest.mark.parametrize("event_file", GETS_ANSWERED_ON_DEMO_DATA, ids=sample_name)
def test_a_warm_get_sends_at_most_three_commands_and_writes_nothing(
    event_file: Path, seeded: Db, counter: CommandCounter
) -> None:
    # Given a GET sample event of the demo data, served once by its function (a warm instance)
    event = load_event(event_file, user_id=str(core.DEMO_USER_ID))
    function = FUNCTION_OF[(event["httpMethod"], event["resource"])]
    with counter.counting() as first:
        assert invoke(function, event)["statusCode"] == 200
    # When the instance serves it again
    with counter.counting() as warm:
        result = invoke(function, event)
    # Then it answers with at most 3 commands, and neither call wrote anything
    assert result["statusCode"] == 200
    assert warm.total <= MAX_COMMANDS, warm.names
    assert (first.writes, warm.writes) == (0, 0), (first.names, warm.names)


def test_reference_data_is_read_again_once_its_lifetime_is_over(
    fresh_db: Db, counter: CommandCounter, frozen_clock: FrozenClock
) -> None:
    # Given body types listed once by an instance keeping reference data 60 s
    body_type_id = insert_body_type(fresh_db, "sedan")
    event = api_event("GET", "/api/v1/filters/bodies")
    assert _names(invoke("Catalog", event)) == ["Sedan"]
    # When an operator renames it, then the instance is asked within the lifetime and after it
    fresh_db.body_types.update_one({"_id": body_type_id}, {"$set": {"name.en": "Saloon"}})
    frozen_clock.advance(59)
    with counter.counting() as cached:
        within = _names(invoke("Catalog", event))
    frozen_clock.advance(2)
    after = _names(invoke("Catalog", event))
    # Then it answers the cached list without a round trip, and the new name once the lifetime is over
    assert (within, cached.total) == (["Sedan"], 0)
    assert after == ["Saloon"]


def test_a_brand_created_after_the_list_was_cached_is_found_at_once(fresh_db: Db) -> None:
    # Given an instance that has cached the brands
    insert_brand(fresh_db, "Chevrolet")
    assert invoke("Catalog", api_event("GET", "/api/v1/brands"))["statusCode"] == 200
    # When an operator adds a brand and a car of it, and a client opens that car
    brand_id = insert_brand(fresh_db, "Kia")
    car = insert_car(fresh_db, brand_id, name="K5")
    car_id = str(car["_id"])
    detail = invoke(
        "Catalog",
        api_event("GET", "/api/v1/cars/{id}", path=f"/api/v1/cars/{car_id}", path_parameters={"id": car_id}),
    )
    # Then the car shows its brand
    assert json.loads(detail["body"])["data"]["brand"]["name"] == "Kia"


def test_a_cars_specs_are_rendered_once_per_lifetime_and_its_modifications_read_each_time(
    fresh_db: Db, counter: CommandCounter, frozen_clock: FrozenClock
) -> None:
    # Given a car's modifications listed once by a warm instance keeping reference data 60 s
    car = insert_car(fresh_db, insert_brand(fresh_db, "Chevrolet"), prices=(180_000_000,))
    car_id = str(car["_id"])
    event = api_event(
        "GET",
        "/api/v1/cars/{id}/modifications",
        path=f"/api/v1/cars/{car_id}/modifications",
        path_parameters={"id": car_id},
    )
    assert invoke("Catalog", api_event("GET", "/api/v1/brands"))["statusCode"] == 200  # the caller's partner read
    with counter.counting() as first:
        assert _modifications(invoke("Catalog", event)) == [(180_000_000, "Engine")]
    # When an operator renames a section and changes the price, then adds a modification, within the lifetime
    fresh_db.cars.update_one(
        {"_id": car["_id"]},
        {"$set": {"modifications.0.specs.0.title.en": "Motor", "modifications.0.price": 175_000_000}},
    )
    frozen_clock.advance(30)
    with counter.counting() as cached:
        repriced = _modifications(invoke("Catalog", event))
    added = {**car["modifications"][0], "_id": ObjectId(), "price": 200_000_000}  # its section named Engine
    fresh_db.cars.update_one({"_id": car["_id"]}, {"$push": {"modifications": added}})
    with_added = _modifications(invoke("Catalog", event))
    frozen_clock.advance(31)
    after = _modifications(invoke("Catalog", event))
    # Then each request reads the car once, the price every time, the specs as rendered when cached, a new
    # modification's specs at once, and the renamed section once the lifetime is over
    assert (first.total, cached.total) == (1, 1)
    assert repriced == [(175_000_000, "Engine")]
    assert with_added == [(175_000_000, "Motor"), (200_000_000, "Engine")]
    assert after == [(175_000_000, "Motor"), (200_000_000, "Engine")]


def test_browsing_many_cars_modifications_never_pushes_the_brands_out_of_the_cache(
    fresh_db: Db, counter: CommandCounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from data import reference_cache
    from data.reference_cache import RenderingCache

    # Given an instance that has listed the brands, keeping at most four entries of reference data and two
    # cars' specs
    monkeypatch.setattr(reference_cache, "_cache", RenderingCache(max_entries=4))
    monkeypatch.setattr(importlib.import_module("catalog.service"), "CAR_SPECS", RenderingCache(max_entries=2))
    brand_id = insert_brand(fresh_db, "Chevrolet")
    cars = [str(insert_car(fresh_db, brand_id, name=f"Car {n}")["_id"]) for n in range(5)]
    brands = api_event("GET", "/api/v1/brands")
    assert invoke("Catalog", brands)["statusCode"] == 200
    # When a client opens the modifications of five cars, then the brands again
    for car_id in cars:
        path = f"/api/v1/cars/{car_id}/modifications"
        event = api_event("GET", "/api/v1/cars/{id}/modifications", path=path, path_parameters={"id": car_id})
        assert invoke("Catalog", event)["statusCode"] == 200
    with counter.counting() as listed:
        assert invoke("Catalog", brands)["statusCode"] == 200
    # Then the brands are still cached: the cars' renderings churn a cache of their own
    assert listed.total == 0


def _modifications(result: dict[str, Any]) -> list[tuple[int, str]]:
    return [(item["price"], item["specs"][0]["title"]) for item in json.loads(result["body"])["data"]["items"]]


def _names(result: dict[str, Any]) -> list[str]:
    return [item["name"] for item in json.loads(result["body"])["data"]["items"]]
