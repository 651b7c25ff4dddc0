"""Every sample event in events/ goes through its function's real handler, like `sam local invoke`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.invoke import invoke, load_event
from local.seed import core
from local.template import ROOT, api_routes
from tests.databases import seeded_database, use_database

EVENTS = sorted((ROOT / "events").rglob("*.json"))
ROUTE_OF = {(route.method, route.path): route for route in api_routes()}

# The status each sample answers with the demo data, a group's samples invoked in name order (as the packaging
# test does). apply and resend-code name a transaction that only exists once create ran with a fresh code, so
# they answer 404 here: they are checked only for not crashing.
EXPECTED_STATUS = {
    "sales/enter.json": 201,
    "sales/my-entry.json": 200,  # the entry sales/enter.json made
    "auth/login.json": 201,
    "auth/refresh-token.json": 201,
    "auth/me.json": 200,
    "auth/users-limit.json": 200,
    "auth/myid-session.json": 200,
    "orders/list.json": 200,
    "orders/apply-promo-code.json": 200,
    "transactions/check-card.json": 200,
    "payments/banks-calculate.json": 200,
    "payments/banks-income-types.json": 200,
    "payments/banks-initial-payment.json": 200,
    "payments/banks-loan-terms.json": 200,
    "payments/banks-refund-types.json": 200,
    "payments/banks.json": 200,
    "payments/installment.json": 200,
    "payments/leasing-calculate.json": 200,
    "payments/leasing.json": 200,
    "payments/organizations.json": 200,
    "payments/special-offers-graph.json": 200,
    "payments/special-offers-leasing.json": 200,
    "payments/special-offers.json": 200,
    "payments/types.json": 200,
    "orders/create.json": 201,
    "orders/get.json": 200,
    "orders/steps.json": 200,
    "transactions/create.json": 200,
    "transactions/history.json": 200,
    "catalog/cars.json": 200,
    "catalog/car.json": 200,
    "catalog/car-info.json": 200,
    "catalog/car-modifications.json": 200,
    "catalog/brands.json": 200,
    "catalog/brand.json": 200,
    "catalog/filters-bodies.json": 200,
    "catalog/filters-powertrains.json": 200,
    "catalog/filters-all.json": 200,
    "saved_cars/list.json": 200,
    "saved_cars/toggle.json": 201,
    "dictionaries/branch-regions.json": 200,
    "dictionaries/branch.json": 200,
    "dictionaries/contacts.json": 200,
    "dictionaries/checkout-document.json": 200,
    "dictionaries/documents.json": 200,
    "dictionaries/offer.json": 200,
    "dictionaries/term-conditions.json": 200,
}


@pytest.fixture(scope="module")
def demo_database(mongo_uri: str) -> Iterator[str]:
    """The samples change what they touch (orders, saved cars): this module seeds a database of its own."""
    with seeded_database(mongo_uri) as name:
        yield name


def sample_name(path: Path) -> str:
    return str(path.relative_to(ROOT / "events"))


# What a sample's answer rests on: the samples invoked before it, on fresh demo data. The demo user verifies
# first: an account nobody verified holds one unpaid order (the demo data has one), and the demo Onix sells
# to verified buyers only; the caller's entry is the one the registration made.
PREREQUISITES = {
    "orders/create.json": ["auth/users-limit.json"],
    "sales/enter.json": ["auth/users-limit.json"],
    "sales/my-entry.json": ["auth/users-limit.json", "sales/enter.json"],
}

# The GET samples that answer 200 on the demo data alone: what the cost tests measure.
GETS_ANSWERED_ON_DEMO_DATA = [
    path
    for path in EVENTS
    if json.loads(path.read_text())["httpMethod"] == "GET"
    and EXPECTED_STATUS.get(sample_name(path), 200) == 200
    and sample_name(path) not in PREREQUISITES
]


def invoke_sample(name: str) -> dict[str, Any]:
    """The sample invoked by its function's handler, as the demo user."""
    event = load_event(ROOT / "events" / name, user_id=str(core.DEMO_USER_ID))
    route = ROUTE_OF.get((event["httpMethod"], event["resource"]))
    assert route is not None, f"{name} names no route of template.yaml"
    return invoke(route.function, event)


@pytest.fixture
def prepared(
    event_file: Path, seeded: Database[dict[str, Any]], mongo_uri: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """The module's demo data, or for a sample with prerequisites demo data of its own where they were invoked."""
    before = PREREQUISITES.get(sample_name(event_file))
    if before is None:
        yield
        return
    with seeded_database(mongo_uri) as name:
        use_database(mongo_uri, name, monkeypatch)
        for earlier in before:
            invoke_sample(earlier)
        yield


@pytest.mark.parametrize("event_file", EVENTS, ids=sample_name)
@pytest.mark.usefixtures("prepared")
def test_sample_event_is_served_by_its_function(event_file: Path) -> None:
    # Given a sample event, on the demo data and what it rests on
    # When its function's handler runs it
    result = invoke_sample(sample_name(event_file))
    # Then the answer is the expected status, never a crash
    assert result["statusCode"] == EXPECTED_STATUS.get(sample_name(event_file), result["statusCode"])
    assert result["statusCode"] != 500, result["body"]
    if result.get("headers", {}).get("Content-Type", "").startswith("application/json"):
        body = json.loads(result["body"])
        assert body["statusCode"] == result["statusCode"]
        assert set(body) >= {"success", "statusCode", "message", "data"}


def test_every_route_of_the_template_has_a_sample_event() -> None:
    covered = {(event["httpMethod"], event["resource"]) for event in (json.loads(path.read_text()) for path in EVENTS)}
    assert {(route.method, route.path) for route in api_routes()} <= covered
