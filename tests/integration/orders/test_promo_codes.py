"""Promo codes through HTTP: each rule one by one, consumption by orders, and the last slot under races."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database
from pymongo.errors import DuplicateKeyError

from core import clock
from core.clock import FrozenClock
from domain.orders import promo_codes
from domain.orders.records import PromoCodeRecord
from orders import service
from orders.models import CreateOrderBody
from tests.data import insert_order, insert_promo_code, order_body, purchasable_car
from tests.factories import ApiClient, race

Db = Database[dict[str, Any]]
APPLY = "/api/v1/orders/apply-promo-code"
ORDERS = "/api/v1/orders"


def everyone_checks_before_anyone_consumes(monkeypatch: pytest.MonkeyPatch, parties: int) -> None:
    """Force the worst interleaving of racing uses: each passes the read-only check (seeing the slot
    free) before any of them writes, so only the conditional update can keep the limit."""
    barrier = threading.Barrier(parties, timeout=10)
    check = promo_codes.check

    def check_then_wait(code: str, user_id: ObjectId) -> PromoCodeRecord:
        promo = check(code, user_id)
        barrier.wait()
        return promo

    monkeypatch.setattr(promo_codes, "check", check_then_wait)


def caller_id(db: Db) -> ObjectId:
    [user] = db.users.find({}, {"_id": 1})
    return ObjectId(user["_id"])


def test_a_percent_promo_is_described_whatever_the_case_it_is_typed_in(api: ApiClient, db: Db) -> None:
    # Given a 10 % promo capped at 5,000,000 sums
    insert_promo_code(db, "SPRING10", value=10, max_discount=5_000_000)
    api.login()
    # When the buyer types it in lower case with spaces
    response = api.post(APPLY, json={"code": "  spring10 "})
    # Then it is found, and the discount is the percent with its type and cap
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert (data["code"], data["discount"], data["discountType"], data["maxDiscount"]) == (
        "SPRING10",
        10,
        "PERCENT",
        5_000_000,
    )


def test_a_fixed_promo_gives_its_sum(api: ApiClient, db: Db) -> None:
    insert_promo_code(db, "MINUS1M", discount_type="FIXED", value=1_000_000)
    api.login()
    data = api.post(APPLY, json={"code": "MINUS1M"}).json()["data"]
    assert (data["discount"], data["discountType"]) == (1_000_000, "FIXED")


def test_an_unknown_code_is_404(api: ApiClient, db: Db) -> None:
    api.login()
    response = api.post(APPLY, json={"code": "NOSUCH"})
    assert response.status_code == 404
    assert response.json()["message"] == "Promo code not found"


def test_an_empty_code_is_400(api: ApiClient, db: Db) -> None:
    api.login()
    response = api.post(APPLY, json={"code": "  "})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "body.code"


def test_a_promo_not_yet_active_is_409_until_it_starts(api: ApiClient, db: Db, frozen_clock: FrozenClock) -> None:
    # Given a promo that starts in ten minutes (within the access token's life)
    insert_promo_code(db, "SOON", valid_from=clock.now() + timedelta(minutes=10))
    api.login()
    # When it is applied now, then ten minutes later
    early = api.post(APPLY, json={"code": "SOON"})
    frozen_clock.advance(600)
    on_time = api.post(APPLY, json={"code": "SOON"})
    # Then it is refused first and accepted once it started
    assert early.status_code == 409
    assert early.json()["message"] == "Promo code is not active yet"
    assert on_time.status_code == 200


def test_a_promo_expires_at_its_end(api: ApiClient, db: Db, frozen_clock: FrozenClock) -> None:
    insert_promo_code(db, "LASTCALL", valid_to=clock.now() + timedelta(minutes=10))
    api.login()
    assert api.post(APPLY, json={"code": "LASTCALL"}).status_code == 200
    frozen_clock.advance(600)
    response = api.post(APPLY, json={"code": "LASTCALL"})
    assert response.status_code == 409
    assert response.json()["message"] == "Promo code has expired"


def test_a_promo_used_up_by_others_is_409(api: ApiClient, db: Db) -> None:
    insert_promo_code(db, "ONLYONE", usage_limit=1, used_by=(ObjectId(),))
    api.login()
    response = api.post(APPLY, json={"code": "ONLYONE"})
    assert response.status_code == 409
    assert response.json()["message"] == "Promo code has been used up"


def test_a_promo_already_used_by_the_caller_is_409(api: ApiClient, db: Db) -> None:
    api.login()
    insert_promo_code(db, "ONCE", used_by=(caller_id(db),))
    response = api.post(APPLY, json={"code": "ONCE"})
    assert response.status_code == 409
    assert response.json()["message"] == "You have already used this promo code"


def test_applying_a_promo_only_checks_it(api: ApiClient, db: Db) -> None:
    insert_promo_code(db, "CHECKME", usage_limit=1)
    api.login()
    assert api.post(APPLY, json={"code": "CHECKME"}).status_code == 200
    assert api.post(APPLY, json={"code": "CHECKME"}).status_code == 200
    assert (db.promo_codes.find_one({"_id": "CHECKME"}) or {})["used"] == 0


def test_an_order_with_a_promo_stores_the_discount_and_uses_the_promo_once(api: ApiClient, db: Db) -> None:
    # Given a car of 180,000,000 sums and a 10 % promo capped at 5,000,000
    car = purchasable_car(db)
    insert_promo_code(db, "SPRING10", value=10, max_discount=5_000_000)
    api.login()
    # When the buyer orders with the promo
    response = api.post(ORDERS, json=order_body(car, promoCode="spring10"))
    # Then the order keeps the price, the capped discount and the amount due
    assert response.status_code == 201, response.text
    data = response.json()["data"]
    assert (data["price"], data["discount"], data["amountDue"]) == (car.price, 5_000_000, car.price - 5_000_000)
    assert data["promoCode"] == "SPRING10"
    # And the promo counts one use by this buyer, who cannot use it again
    promo = db.promo_codes.find_one({"_id": "SPRING10"}) or {}
    assert (promo["used"], promo["usedBy"]) == (1, [caller_id(db)])
    again = api.post(ORDERS, json=order_body(car, promoCode="SPRING10"))
    assert again.status_code == 409
    assert again.json()["message"] == "You have already used this promo code"
    assert db.orders.count_documents({}) == 1


def test_a_percent_promo_below_its_cap_rounds_down_to_whole_sums(api: ApiClient, db: Db) -> None:
    car = purchasable_car(db, prices=(123_456_789,))
    insert_promo_code(db, "THREE", value=3)
    api.login()
    data = api.post(ORDERS, json=order_body(car, promoCode="THREE")).json()["data"]
    assert data["discount"] == 3_703_703
    assert data["amountDue"] == 123_456_789 - 3_703_703


@pytest.mark.parametrize(
    ("promo", "status"),
    [
        ({"code": "GONE", "valid_to": clock.now() - timedelta(days=1)}, 409),
        ({"code": "FULL", "usage_limit": 0}, 409),
    ],
    ids=["expired", "used up"],
)
def test_an_order_with_an_unusable_promo_is_refused_and_not_stored(
    api: ApiClient, db: Db, promo: dict[str, Any], status: int
) -> None:
    car = purchasable_car(db)
    insert_promo_code(db, **promo)
    api.login()
    assert api.post(ORDERS, json=order_body(car, promoCode=promo["code"])).status_code == status
    assert api.post(ORDERS, json=order_body(car, promoCode="UNKNOWN")).status_code == 404
    assert db.orders.count_documents({}) == 0


def test_a_promo_is_given_back_when_the_order_cannot_be_stored(db: Db) -> None:
    # Given a promo, and a contract number already taken (the next one the counter will give)
    car = purchasable_car(db)
    insert_promo_code(db, "SAVE10")
    insert_order(db, ObjectId(), car, contractNumber=f"CR-{clock.now().year}-000001")
    body = CreateOrderBody.model_validate(order_body(car, promoCode="SAVE10"))
    # When an order with the promo fails to be inserted
    with pytest.raises(DuplicateKeyError):
        service.create_order(body, user_id=str(ObjectId()), partner="Demo partner", locale="en")
    # Then the promo use is released
    promo = db.promo_codes.find_one({"_id": "SAVE10"}) or {}
    assert (promo["used"], promo["usedBy"]) == (0, [])


def test_racing_buyers_for_the_last_use_of_a_promo_give_one_winner(db: Db, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a promo with one use left and ten buyers ordering with it at the same moment
    car = purchasable_car(db)
    insert_promo_code(db, "LAST", usage_limit=3, used_by=(ObjectId(), ObjectId()))
    everyone_checks_before_anyone_consumes(monkeypatch, 10)
    body = CreateOrderBody.model_validate(order_body(car, promoCode="LAST"))
    # When they race
    results = race(lambda: service.create_order(body, user_id=str(ObjectId()), partner="Demo partner", locale="en"), 10)
    # Then exactly one order was placed, the others were told the promo is used up
    assert sorted(results) == ["PROMO_CODE_USED_UP"] * 9 + ["ok"]
    assert db.orders.count_documents({}) == 1
    promo = db.promo_codes.find_one({"_id": "LAST"}) or {}
    assert (promo["used"], len(promo["usedBy"])) == (3, 3)


def test_one_buyer_racing_the_same_promo_in_several_orders_uses_it_once(
    db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    car = purchasable_car(db)
    insert_promo_code(db, "MINE", usage_limit=None)
    everyone_checks_before_anyone_consumes(monkeypatch, 6)
    body = CreateOrderBody.model_validate(order_body(car, promoCode="MINE"))
    buyer = str(ObjectId())
    results = race(lambda: service.create_order(body, user_id=buyer, partner="Demo partner", locale="en"), 6)
    assert sorted(results) == ["PROMO_CODE_ALREADY_USED"] * 5 + ["ok"]
    assert (db.promo_codes.find_one({"_id": "MINE"}) or {})["used"] == 1
