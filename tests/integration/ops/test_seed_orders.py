"""The orders seed: promo codes always, demo orders of the demo user once the catalog has a car."""

from __future__ import annotations

from typing import Any

from pymongo.database import Database

from local.seed.core import DEMO_USER_PHONE
from local.seed.orders import DEMO_PAID_ORDER_ID
from tests.factories import ApiClient

Db = Database[dict[str, Any]]


def test_the_seed_has_the_documented_promo_codes(seeded: Db) -> None:
    assert {promo["_id"] for promo in seeded.promo_codes.find()} >= {"WELCOME10", "MINUS1M", "LASTONE"}


def test_the_demo_user_has_a_new_and_a_paid_order(seeded_api: ApiClient, seeded: Db) -> None:
    # When the demo user signs in
    api = seeded_api
    api.login(DEMO_USER_PHONE)
    # Then they see their two demo orders of a seeded car, and the paid one's timeline
    listed = api.get("/api/v1/orders").json()["data"]
    demo = {item["contractNumber"]: item for item in listed["items"] if item["contractNumber"].startswith("CR-DEMO")}
    assert sorted(demo) == ["CR-DEMO-000001", "CR-DEMO-000002"]
    assert {item["statusSlug"] for item in demo.values()} == {"NEW", "PAID"}
    steps = api.get("/api/v1/order-logs/steps", params={"orderId": str(DEMO_PAID_ORDER_ID)}).json()["data"]
    assert [step["slug"] for step in steps["items"] if step["isCurrent"]] == ["PAID"]
    # And a promo of the seed applies
    assert api.post("/api/v1/orders/apply-promo-code", json={"code": "welcome10"}).status_code == 200
