"""A car's sale rules and a person's limits when placing an order, through HTTP on the real MongoDB: the
sale's start (to the second, by the server's clock), verified buyers only, orders per person per car,
and the open holds of a person, who is the verified PINFL when there is one (domain.orders.buyers).
Their races (twenty parallel attempts through worker processes) are in test_races.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from data import outbox
from domain.orders import lifecycle
from domain.orders.expiry import expire_late
from domain.orders.states import OrderStatus
from domain.payments.cancellations import card_refunds
from tests.data import insert_promo_code, order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
VERIFY = "/api/v1/users/limit"
DAY = 24 * 3600


def test_before_its_start_a_car_is_listed_with_it_and_refused_and_at_it_an_order_is_placed(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car whose sale opens in an hour, and a signed-in buyer
    opens = (frozen_clock() + timedelta(hours=1)).replace(microsecond=0)
    car = purchasable_car(db, brand="Opening", sale={"startsAt": opens}, saleStartsAt=opens)
    api.login()
    # Then the catalog lists it with its start, and the car's page says the same
    listed = api.get("/api/v1/cars", params={"brands": str(car.brand_id)}).json()["data"]["items"]
    assert [item["saleStartsAt"] for item in listed] == [opens.strftime("%Y-%m-%dT%H:%M:%SZ")]
    assert api.get(f"/api/v1/cars/{car.car_id}").json()["data"]["saleStartsAt"] == listed[0]["saleStartsAt"]
    # When the buyer orders it a second before the start
    frozen_clock.current = opens - timedelta(seconds=1)
    api.login()  # a new token: the last one has expired meanwhile
    early = api.post(ORDERS, json=order_body(car))
    # Then the order is refused with the moment it opens, and nothing is held
    assert (early.status_code, early.json()["code"]) == (409, "SALE_NOT_STARTED"), early.text
    assert early.json()["details"] == {"startsAt": listed[0]["saleStartsAt"]}
    assert db.orders.count_documents({"carId": car.car_id}) == 0
    # When they order it at the start, to the second
    frozen_clock.current = opens
    placed = api.post(ORDERS, json=order_body(car))
    # Then it is placed
    assert placed.status_code == 201, placed.text


def test_a_cars_page_answers_every_sale_rule_a_buyer_must_know_before_ordering(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car sold through a fair opening with every rule set, whose second modification opens later
    now = frozen_clock().replace(microsecond=0)
    starts = now + timedelta(days=1)
    rules = {
        "startsAt": starts,
        "holdMinutes": 60,
        "depositAmount": 5_000_000,
        "perPersonLimit": {"count": 1, "days": 365},
        "verifiedBuyersOnly": True,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": 50, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand="Rules", sale=rules)
    later = now + timedelta(days=2)
    db.cars.update_one({"_id": car.car_id}, {"$set": {"modifications.1.sale": {"startsAt": later}}})
    # And a car sold without rules
    plain = purchasable_car(db, brand="No Rules")
    # When a buyer's app opens both cars' pages
    page = api.get(f"/api/v1/cars/{car.car_id}").json()["data"]
    plain_page = api.get(f"/api/v1/cars/{plain.car_id}").json()["data"]
    # Then the car's rules are all there, with where its opening's status and draw are polled from the edge
    at = "%Y-%m-%dT%H:%M:%SZ"
    edge = f"http://127.0.0.1:3000/sales/{car.car_id}"
    assert page["sale"] == {
        "startsAt": starts.strftime(at),
        "holdMinutes": 60,
        "depositAmount": 5_000_000,
        "perPersonLimit": {"count": 1, "days": 365},
        "verifiedBuyersOnly": True,
        "queue": {
            "registrationOpensAt": now.strftime(at),
            "admissionPerSecond": 50,
            "admissionMinutes": 15,
            "statusUrl": f"{edge}/status.json",
            "drawUrl": f"{edge}/draw.json",
        },
    }
    # And each modification answers the rules an order of it follows: the car's, with its own over them
    first, second = page["modifications"]
    assert first["sale"] == page["sale"]
    assert second["sale"] == page["sale"] | {"startsAt": later.strftime(at)}
    # And a car without rules says so
    assert plain_page["sale"] is None
    assert [modification["sale"] for modification in plain_page["modifications"]] == [None, None]


def test_a_modification_overrides_the_cars_start(api: ApiClient, db: Db, frozen_clock: FrozenClock) -> None:
    # Given a car on sale whose second modification opens tomorrow
    car = purchasable_car(db, brand="Override")
    tomorrow = frozen_clock() + timedelta(days=1)
    db.cars.update_one({"_id": car.car_id}, {"$set": {"modifications.1.sale": {"startsAt": tomorrow}}})
    api.login()
    # When the buyer orders each modification
    second = order_body(car, modificationId=str(car.modification_ids[1]), price=car.prices[1])
    refused, placed = api.post(ORDERS, json=second), api.post(ORDERS, json=order_body(car))
    # Then the second is refused until tomorrow, the first is placed
    assert (refused.status_code, refused.json()["code"]) == (409, "SALE_NOT_STARTED")
    assert placed.status_code == 201, placed.text


def test_a_verified_buyers_only_car_asks_an_unverified_buyer_to_verify_first(api: ApiClient, db: Db) -> None:
    # Given a car sold to verified buyers only, and a buyer who has not verified their identity
    car = purchasable_car(db, brand="Verified Only", sale={"verifiedBuyersOnly": True})
    api.login()
    # When they order it
    refused = api.post(ORDERS, json=order_body(car), headers={"accept-language": "ru"})
    # Then they are told to verify first, in their language
    assert (refused.status_code, refused.json()["code"]) == (403, "IDENTITY_VERIFICATION_REQUIRED")
    assert refused.json()["message"] == "Этот автомобиль могут заказать только покупатели, подтвердившие личность"
    # When they verify their identity and order again
    assert api.post(VERIFY, json={"code": "sandbox-verified-301"}).status_code == 200
    # Then the order is placed
    assert api.post(ORDERS, json=order_body(car)).status_code == 201


def test_a_person_holds_at_most_two_unpaid_orders_and_a_paid_one_frees_a_place(api: ApiClient, db: Db) -> None:
    # Given a verified buyer holding two unpaid orders (the default limit)
    car = purchasable_car(db, brand="Open Holds", quantity=5)
    api.login()
    api.verify()
    first, _second = (api.post(ORDERS, json=order_body(car)).json()["data"] for _ in range(2))
    # When they place a third
    refused = api.post(ORDERS, json=order_body(car), headers={"accept-language": "uz"})
    # Then it is refused with the limit, in their language, and no unit is taken
    assert (refused.status_code, refused.json()["code"]) == (409, "OPEN_ORDERS_LIMIT_REACHED")
    assert refused.json()["details"] == {"limit": 2}
    assert refused.json()["message"].startswith("Siz toʻliq toʻlanmagan avtomobillarning ruxsat etilgan sonini")
    assert db.orders.count_documents({"carId": car.car_id}) == 2
    # When one of their orders is paid
    lifecycle.record_payment(ObjectId(first["_id"]), first["amountDueNow"], payment_id="desk-1", cause="desk")
    # Then they may place another
    assert api.post(ORDERS, json=order_body(car)).status_code == 201


def test_accounts_of_one_verified_pinfl_share_the_open_holds_limit(api: ApiClient, api_server: str, db: Db) -> None:
    # Given a verified person who holds two unpaid orders on one account
    car = purchasable_car(db, brand="One Person", quantity=5)
    api.login("+998901230001")
    assert api.post(VERIFY, json={"code": "sandbox-verified-302"}).status_code == 200
    for _ in range(2):
        assert api.post(ORDERS, json=order_body(car)).status_code == 201
    # And the PINFL is later moved to another account (support frees it from the first, the person verifies
    # the second)
    db.users.update_one({"phone": "+998901230001"}, {"$set": {"pin": None, "verified": False}})
    with ApiClient(api_server) as other:
        other.login("+998901230002")
        assert other.post(VERIFY, json={"code": "sandbox-verified-302-again"}).status_code == 200
        # When the person orders on the second account
        refused = other.post(ORDERS, json=order_body(car))
        # Then the orders of the first count: the limit follows the person, not the account
        assert (refused.status_code, refused.json()["code"]) == (409, "OPEN_ORDERS_LIMIT_REACHED")
    # And the orders name the person only by a keyed hash of the PINFL
    buyers = db.orders.distinct("buyer", {"carId": car.car_id})
    assert len(buyers) == 1
    assert buyers[0].startswith("pin:")
    assert "3010199000302" not in buyers[0]


def test_a_cars_per_person_limit_counts_its_orders_within_the_days_but_not_cancelled_ones(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car one person may order twice in 30 days, and a buyer who ordered it twice
    car = purchasable_car(db, brand="Per Person", quantity=9, sale={"perPersonLimit": {"count": 2, "days": 30}})
    api.login()
    api.verify()
    first, second = (api.post(ORDERS, json=order_body(car)).json()["data"] for _ in range(2))
    for order in (first, second):
        lifecycle.record_payment(ObjectId(order["_id"]), order["amountDueNow"], payment_id=order["_id"], cause="desk")
    # When they order a third time
    refused = api.post(ORDERS, json=order_body(car))
    # Then it is refused with the car's limit
    assert (refused.status_code, refused.json()["code"]) == (409, "PURCHASE_LIMIT_REACHED")
    assert refused.json()["details"] == {"count": 2, "days": 30}
    # When one of the two is cancelled
    lifecycle.transition(ObjectId(second["_id"]), OrderStatus.CANCELLED, cause="customer changed their mind")
    # Then they may order again; and once 30 days passed since the first, once more
    third = api.post(ORDERS, json=order_body(car)).json()["data"]
    lifecycle.record_payment(ObjectId(third["_id"]), third["amountDueNow"], payment_id=third["_id"], cause="desk")
    assert api.post(ORDERS, json=order_body(car)).json()["code"] == "PURCHASE_LIMIT_REACHED"
    frozen_clock.advance(30 * DAY + 1)
    api.login()
    assert api.post(ORDERS, json=order_body(car)).status_code == 201


def test_with_verified_buyers_only_an_unverified_buyers_order_is_refused_for_every_car(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an environment where every order needs a verified buyer (the default outside local), and a car
    # whose sale sets no rule
    monkeypatch.setenv("ORDER_VERIFIED_BUYERS_ONLY", "true")
    reset_settings()
    car = purchasable_car(db, brand="Everyone Verified")
    api.login()
    # When an unverified buyer orders it
    refused = api.post(ORDERS, json=order_body(car))
    # Then they are asked to verify first, and nothing is held
    assert (refused.status_code, refused.json()["code"]) == (403, "IDENTITY_VERIFICATION_REQUIRED")
    assert stock_quantity(db, car) == 3
    # When they verify, the order is placed
    api.verify()
    assert api.post(ORDERS, json=order_body(car)).status_code == 201


def test_holds_left_to_expire_count_against_a_cars_per_person_limit_so_they_cannot_be_renewed(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car one person may order twice a year, and a verified buyer who held two and let both expire
    car = purchasable_car(db, brand="Two A Year", quantity=9, sale={"perPersonLimit": {"count": 2, "days": 365}})
    api.login()
    api.verify()
    for _ in range(2):
        assert api.post(ORDERS, json=order_body(car)).status_code == 201
    frozen_clock.advance(DAY)
    assert len(expire_late(card_refunds)) == 2
    api.login()
    # When they order it again within the year
    refused = api.post(ORDERS, json=order_body(car))
    # Then the expired holds count: the car's limit is reached
    assert (refused.status_code, refused.json()["code"]) == (409, "PURCHASE_LIMIT_REACHED")
    # And a hold the dealer cancelled would not have counted
    frozen_clock.advance(365 * DAY)
    api.login()
    assert api.post(ORDERS, json=order_body(car)).status_code == 201
    outbox.flush()


def test_a_promo_use_of_an_order_cancelled_unpaid_is_given_back(api: ApiClient, db: Db) -> None:
    # Given a promo with one use left, taken by an order that was never paid
    car = purchasable_car(db, brand="Promo Back")
    insert_promo_code(db, "ONCE", usage_limit=1)
    api.login()
    order = api.post(ORDERS, json=order_body(car, promoCode="ONCE")).json()["data"]
    assert (db.promo_codes.find_one({"_id": "ONCE"}) or {})["used"] == 1
    # When the dealer cancels it
    lifecycle.transition(ObjectId(order["_id"]), OrderStatus.CANCELLED, cause="customer changed their mind")
    # Then the use is back, and the buyer may use the code again
    assert (db.promo_codes.find_one({"_id": "ONCE"}) or {})["used"] == 0
    assert api.post(ORDERS, json=order_body(car, promoCode="ONCE")).status_code == 201
    outbox.flush()
