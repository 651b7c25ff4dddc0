"""A page costs the page: every car filter with every sort is served by an index (no in-memory sort, no
collection scan, at most the page's documents read), and counting stops 1,000 past the page."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from typing import Any, get_args

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.locale import LOCALES
from data.mongo import COUNT_AHEAD, get_db, reset_client
from domain.catalog.query import CarSort, car_collation, car_filter, car_sort
from domain.catalog.search import search_prefixes
from domain.catalog.store import find_car_page
from tests.factories import ApiClient
from tools.command_counter import CommandCounter
from tools.scale import explained

Db = Database[dict[str, Any]]
CARS = 1000
PAGE = 10
BRANDS = [ObjectId() for _ in range(5)]
BODY_TYPES = [ObjectId() for _ in range(3)]
NAMES = ["Cobalt", "Tracker", "Song Plus", "Han", "Chery Tiggo"]
# Each filter alone, and with the others it is sent with: brands, body types, a price range, a search.
FILTERS: dict[str, dict[str, Any]] = {
    "none": {},
    "brands": {"brand_ids": BRANDS[:2]},
    "bodyTypes": {"body_type_ids": BODY_TYPES[:1]},
    "price": {"min_price": 200_000_000, "max_price": 400_000_000},
    "search": {"search": "co"},
    "brands+bodyTypes+price": {
        "brand_ids": BRANDS[:1],
        "body_type_ids": BODY_TYPES[:2],
        "min_price": 100_000_000,
        "max_price": 900_000_000,
    },
}


@pytest.fixture
def many_cars(db: Db) -> Db:
    start = datetime(2020, 1, 1, tzinfo=UTC)
    prices = random.Random(25)
    cars = []
    for index in range(CARS):
        name = f"{NAMES[index % len(NAMES)]} {index}"
        cars.append(
            {
                "_id": ObjectId(),
                "slug": f"car-{index}",
                "brandId": BRANDS[index % len(BRANDS)],
                "bodyTypeId": BODY_TYPES[index % len(BODY_TYPES)],
                "name": dict.fromkeys(LOCALES, name),
                "priceFrom": prices.randrange(100_000_000, 700_000_000, 100_000),
                "createdAt": start + timedelta(days=index),
                "searchPrefixes": search_prefixes([name]),
            }
        )
    db.cars.insert_many(cars)
    return db


@pytest.mark.usefixtures("many_cars")
def test_every_filter_with_every_sort_reads_only_its_page_through_an_index() -> None:
    counter = CommandCounter()
    reset_client(event_listeners=[counter])
    costs = {}
    for filter_name, sort in itertools.product(FILTERS, get_args(CarSort)):
        # Given a catalog of 1,000 cars and a car list query
        conditions: dict[str, Any] = {
            "brand_ids": [],
            "body_type_ids": [],
            "min_price": None,
            "max_price": None,
            "search": None,
        }
        query = car_filter(**(conditions | FILTERS[filter_name]))
        # When its second page is read
        with counter.counting() as sent:
            find_car_page(query, car_sort(sort, "ru"), offset=PAGE, limit=PAGE, collation=car_collation(sort))
        # Then the page's command is served by an index: no blocking sort, no scan, the pages' documents at most
        for command in sent.commands:
            cost = explained(get_db(), command)
            if cost.sorted_in_memory or cost.scanned or cost.docs > 2 * (PAGE + PAGE):
                costs[(filter_name, sort, cost.name)] = cost
    reset_client()
    assert costs == {}


def test_counting_stops_a_thousand_past_the_page_and_says_the_total_is_a_lower_bound(api: ApiClient, db: Db) -> None:
    # Given more cars of one body type than a list counts past its page
    body_type = ObjectId()
    beyond = PAGE + COUNT_AHEAD + 5
    db.cars.insert_many(
        {
            "_id": ObjectId(),
            "slug": f"car-{index}",
            "brandId": BRANDS[0],
            "bodyTypeId": body_type,
            "name": dict.fromkeys(LOCALES, f"Car {index}"),
            "priceFrom": 100_000_000,
            "createdAt": datetime(2020, 1, 1, tzinfo=UTC),
        }
        for index in range(beyond)
    )
    # When the first page of that body type is listed, and the whole catalog
    of_body_type = api.get("/api/v1/cars", params={"bodyTypes": str(body_type)}).json()["data"]
    everything = api.get("/api/v1/cars").json()["data"]
    # Then the body type's total is where counting stopped, marked inexact; the catalog's is exact
    assert len(of_body_type["items"]) == PAGE
    assert (of_body_type["total"], of_body_type["exact"]) == (PAGE + COUNT_AHEAD, False)
    assert (everything["total"], everything["exact"]) == (beyond, True)


def test_a_short_list_is_counted_exactly(api: ApiClient, db: Db) -> None:
    # Given two cars of a body type
    body_type = ObjectId()
    for index in range(2):
        db.cars.insert_one(
            {
                "_id": ObjectId(),
                "slug": f"short-{index}",
                "brandId": BRANDS[0],
                "bodyTypeId": body_type,
                "name": dict.fromkeys(LOCALES, f"Short {index}"),
                "priceFrom": 1,
                "createdAt": datetime(2020, 1, 1, tzinfo=UTC),
            }
        )
    # When they are listed; then the total is theirs, exactly
    listed = api.get("/api/v1/cars", params={"bodyTypes": str(body_type), "limit": "1"}).json()["data"]
    assert (len(listed["items"]), listed["total"], listed["exact"]) == (1, 2, True)
