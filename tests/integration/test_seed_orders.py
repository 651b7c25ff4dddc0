"""The orders seed: promo codes always, demo orders of the demo user once the catalog has a car."""

from __future__ import annotations

from typing import Any

from pymongo.database import Database

from local.seed import seed_all
from local.seed.core import DEMO_USER_PHONE
from local.seed.orders import DEMO_PAID_ORDER_ID
from tests.data import purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]


def test_without_a_catalog_only_the_promo_codes_are_seeded(db: Db) -> None:
    seed_all(db)
    assert {promo["_id"] for promo in db.promo_codes.find()} >= {"WELCOME10", "MINUS1M", "LASTONE"}
    assert db.orders.count_documents({}) == 0


def test_with_a_catalog_the_demo_user_has_two_orders_seeded_once(api: ApiClient, db: Db) -> None:
    # Given a catalog car, seeded twice
    car = purchasable_car(db)
    seed_all(db)
    assert seed_all(db)["orders"] == 0
    # When the demo user signs in
    api.login(DEMO_USER_PHONE)
    # Then they see their two demo orders of that car, and the paid one's timeline
    listed = api.get("/api/v1/orders").json()["data"]
    assert sorted(item["contractNumber"] for item in listed["items"]) == ["CR-DEMO-000001", "CR-DEMO-000002"]
    assert {item["price"] for item in listed["items"]} == {car.price}
    steps = api.get("/api/v1/order-logs/steps", params={"orderId": str(DEMO_PAID_ORDER_ID)}).json()["data"]
    assert [step["slug"] for step in steps["items"] if step["isCurrent"]] == ["PAID"]
    # And a promo of the seed applies
    assert api.post("/api/v1/orders/apply-promo-code", json={"code": "welcome10"}).status_code == 200
