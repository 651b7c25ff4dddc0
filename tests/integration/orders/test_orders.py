"""Orders through HTTP: placing an order from a catalog car, the checks against the catalog, the
caller's orders only, the timeline after each transition, and the contract counter under races."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from data import outbox
from domain.orders import lifecycle
from domain.orders.states import OrderStatus
from local.context import LocalLambdaContext
from orders import service
from orders.expiry import lambda_handler as expiry_handler
from orders.models import CreateOrderBody
from tests.data import (
    CatalogCar,
    insert_branch,
    insert_brand,
    insert_car,
    insert_promo_code,
    insert_region,
    order_body,
    purchasable_car,
)
from tests.factories import ApiClient
from tests.financing_data import insert_credit_product, insert_organization, well_formed_choices

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
STEPS = "/api/v1/order-logs/steps"
CONTRACT = re.compile(r"^CR-\d{4}-\d{6}$")


def place(api: ApiClient, car: CatalogCar, **overrides: Any) -> dict[str, Any]:
    response = api.post(ORDERS, json=order_body(car, **overrides))
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def current_step(api: ApiClient, order_id: str) -> str:
    response = api.get(STEPS, params={"orderId": order_id})
    assert response.status_code == 200, response.text
    [step] = [step for step in response.json()["data"]["items"] if step["isCurrent"]]
    return str(step["slug"])


def test_an_order_of_a_catalog_car_is_placed_at_the_server_price_and_logged(api: ApiClient, db: Db) -> None:
    # Given a car of the catalog and a signed-in buyer
    car = purchasable_car(db)
    api.login()
    # When the buyer orders it at its current price
    response = api.post(ORDERS, json=order_body(car))
    # Then it is 201 with {_id, price, brandId} and a contract number, in state NEW
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["statusCode"] == 201
    data = body["data"]
    assert data["price"] == car.price
    assert data["brandId"] == str(car.brand_id)
    assert ObjectId.is_valid(data["_id"])
    assert CONTRACT.match(data["contractNumber"])
    assert data["statusSlug"] == "NEW"
    assert (data["discount"], data["amountDue"], data["paidAmount"]) == (0, car.price, 0)
    # And the stored order belongs to the buyer, with its first log entry
    stored = db.orders.find_one({"_id": ObjectId(data["_id"])}) or {}
    assert stored["userId"] == (db.users.find_one({}) or {})["_id"]
    assert stored["regionId"] == car.region_id
    [log] = db.order_logs.find({"orderId": stored["_id"]})
    assert (log["from"], log["to"], log["cause"]) == (None, "NEW", "created")
    # And the buyer reads it back in the list, in detail and on the timeline
    listed = api.get(ORDERS).json()["data"]
    assert listed["total"] == 1
    assert listed["items"][0]["contractNumber"] == data["contractNumber"]
    detail = api.get(f"{ORDERS}/{data['_id']}").json()["data"]
    design_fields = {"_id", "contractNumber", "statusSlug", "price", "paidAmount", "brandId", "carId"}
    design_fields |= {"modificationId", "colorId", "branchId", "regionId", "paymentTypeId", "createdAt"}
    assert set(detail) >= design_fields
    assert detail["carName"] == "Cobalt"
    assert detail["modificationId"] == str(car.modification_id)
    assert current_step(api, data["_id"]) == "NEW"


def test_names_in_the_order_follow_the_request_locale(api: ApiClient, db: Db) -> None:
    car = purchasable_car(db)
    api.login()
    order = place(api, car)
    detail = api.get(f"{ORDERS}/{order['_id']}", headers={"accept-language": "ru"}).json()["data"]
    assert (detail["carName"], detail["colorName"]) == ("Cobalt (ru)", "White (ru)")
    steps = api.get(STEPS, params={"orderId": order["_id"]}, headers={"accept-language": "ru"}).json()["data"]
    assert steps["items"][0]["name"] == "Заказ оформлен"


def test_the_timeline_shows_the_right_current_step_after_each_transition(api: ApiClient, db: Db) -> None:
    # Given a placed order
    car = purchasable_car(db)
    api.login()
    order_id = ObjectId(place(api, car)["_id"])
    # When it is paid in two parts, made ready and handed over, the current step follows each change
    lifecycle.record_payment(order_id, 1000, payment_id="t1", cause="card")
    assert current_step(api, str(order_id)) == "PARTIALLY_PAID"
    lifecycle.record_payment(order_id, car.price - 1000, payment_id="t2", cause="card")
    assert current_step(api, str(order_id)) == "PAID"
    lifecycle.transition(order_id, OrderStatus.READY, cause="arrived")
    assert current_step(api, str(order_id)) == "READY"
    lifecycle.transition(order_id, OrderStatus.IMPLEMENTED, cause="handed over")
    # Then the whole path is listed, each step dated
    steps = api.get(STEPS, params={"orderId": str(order_id)}).json()["data"]
    assert [step["slug"] for step in steps["items"]] == ["NEW", "PARTIALLY_PAID", "PAID", "READY", "IMPLEMENTED"]
    assert steps["total"] == 5
    assert [step["isCurrent"] for step in steps["items"]] == [False, False, False, False, True]
    assert all(step["at"] for step in steps["items"])
    assert api.get(f"{ORDERS}/{order_id}").json()["data"]["statusSlug"] == "IMPLEMENTED"


def test_a_cancelled_order_ends_its_timeline_with_cancelled(api: ApiClient, db: Db) -> None:
    car = purchasable_car(db)
    api.login()
    order_id = place(api, car)["_id"]
    lifecycle.transition(ObjectId(order_id), OrderStatus.CANCELLED, cause="customer request")
    steps = api.get(STEPS, params={"orderId": order_id}).json()["data"]["items"]
    assert [(step["slug"], step["isCurrent"]) for step in steps] == [("NEW", False), ("CANCELLED", True)]


def _deactivate_branch(db: Db, car: CatalogCar) -> dict[str, Any]:
    db.branches.update_one({"_id": car.branch_id}, {"$set": {"active": False}})
    return {}


def _modification_of_another_car(db: Db, car: CatalogCar) -> dict[str, Any]:
    return {"modificationId": str(insert_car(db, car.brand_id, name="Spark")["modifications"][0]["_id"])}


def _color_of_another_car(db: Db, car: CatalogCar) -> dict[str, Any]:
    return {"colorId": str(insert_car(db, car.brand_id, name="Spark")["colors"][0]["_id"])}


def _branch_of_another_brand(db: Db, car: CatalogCar) -> dict[str, Any]:
    return {"branchId": str(insert_branch(db, car.region_id, [insert_brand(db, "BYD")], name="Sergeli"))}


# Each case: what to change in a valid request (or in the catalog), and the 404 message expected.
MISMATCHES: dict[str, tuple[Callable[[Db, CatalogCar], dict[str, Any]], str]] = {
    "unknown car": (lambda db, car: {"carId": str(ObjectId())}, "Car not found"),
    "modification of another car": (_modification_of_another_car, "Modification not found"),
    "color of another car": (_color_of_another_car, "Color not found for this car"),
    "unknown region": (lambda db, car: {"regionId": str(ObjectId())}, "Region not found"),
    "unknown branch": (lambda db, car: {"branchId": str(ObjectId())}, "Branch not found or not active"),
    "inactive branch": (_deactivate_branch, "Branch not found or not active"),
    "branch of another region": (
        lambda db, car: {"regionId": str(insert_region(db, "Samarkand"))},
        "Branch not found in this region",
    ),
    "branch not selling the brand": (_branch_of_another_brand, "This branch does not sell this car's brand"),
}


@pytest.mark.parametrize("mismatch", sorted(MISMATCHES))
def test_references_that_do_not_exist_or_do_not_belong_together_are_404(api: ApiClient, db: Db, mismatch: str) -> None:
    # Given a car and a request with one reference that does not fit
    car = purchasable_car(db)
    api.login()
    change, message = MISMATCHES[mismatch]
    overrides = change(db, car)
    # When it is ordered
    response = api.post(ORDERS, json=order_body(car, **overrides))
    # Then it is 404 naming what does not fit, and nothing is stored
    assert response.status_code == 404, response.text
    assert response.json()["message"] == message
    assert db.orders.count_documents({}) == 0


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"carId": "not-an-id"}, "body.carId"),
        ({"modificationId": "123"}, "body.modificationId"),
        ({"colorId": ""}, "body.colorId"),
        ({"regionId": None}, "body.regionId"),
        ({"branchId": "zz" * 12}, "body.branchId"),
        ({"paymentTypeId": "BARTER"}, "body.paymentTypeId"),
        ({"price": "cheap"}, "body.price"),
        ({"price": 0}, "body.price"),
        ({"price": 1.5}, "body.price"),
        ({"price": True}, "body.price"),
        ({"organizationId": "bank-1"}, "body.organizationId"),
    ],
)
def test_malformed_input_is_400_naming_the_field(api: ApiClient, db: Db, overrides: dict[str, Any], field: str) -> None:
    car = purchasable_car(db)
    api.login()
    response = api.post(ORDERS, json=order_body(car, **overrides))
    assert response.status_code == 400, response.text
    assert field in [error["field"] for error in response.json()["errors"]]


def test_every_listed_field_is_required(api: ApiClient, db: Db) -> None:
    car = purchasable_car(db)
    api.login()
    body = order_body(car)
    for name in body:
        response = api.post(ORDERS, json={key: value for key, value in body.items() if key != name})
        assert response.status_code == 400, name
        assert f"body.{name}" in [error["field"] for error in response.json()["errors"]]


def test_a_stale_price_is_409_with_the_current_price(api: ApiClient, db: Db) -> None:
    # Given a car whose price went up after the client loaded it
    car = purchasable_car(db)
    db.cars.update_one(
        {"_id": car.car_id, "modifications._id": car.modification_id},
        {"$set": {"modifications.$.price": car.price + 5_000_000}},
    )
    api.login()
    # When the client orders at the old price
    response = api.post(ORDERS, json=order_body(car))
    # Then it is 409 with the current price, and ordering at that price succeeds
    assert response.status_code == 409
    assert response.json()["details"] == {"currentPrice": car.price + 5_000_000}
    assert place(api, car, price=car.price + 5_000_000)["price"] == car.price + 5_000_000


def test_a_payment_type_the_car_is_not_sold_with_is_409(api: ApiClient, db: Db) -> None:
    # Given a car sold for cash and on credit, with a bank serving its brand
    car = purchasable_car(db, payment_types=("CASH", "CREDIT"))
    insert_credit_product(db, car.brand_id, insert_organization(db))
    api.login()
    # When it is ordered on leasing
    response = api.post(ORDERS, json=order_body(car, paymentTypeId="LEASING", **well_formed_choices("LEASING")))
    # Then it is refused with what the car can be bought with
    assert response.status_code == 409
    assert response.json()["details"] == {"paymentTypes": ["CASH", "CREDIT"]}


def test_credit_on_a_car_that_no_bank_serves_is_409_like_the_payment_types_say(api: ApiClient, db: Db) -> None:
    # Given a car listed with CREDIT whose brand no active bank serves
    car = purchasable_car(db, payment_types=("CASH", "CREDIT"))
    api.login()
    shown = api.get(
        "/api/v2/payments/types", params={"modificationId": str(car.modification_id), "brandId": str(car.brand_id)}
    ).json()["data"]["items"]
    # When it is ordered on credit
    response = api.post(ORDERS, json=order_body(car, paymentTypeId="CREDIT", **well_formed_choices("CREDIT")))
    # Then orders accept exactly what the payment types route offers: cash only
    assert [item["slug"] for item in shown] == ["CASH"]
    assert response.status_code == 409
    assert response.json()["details"] == {"paymentTypes": ["CASH"]}


@pytest.mark.parametrize("quantity", [0, None])
def test_a_car_out_of_stock_at_the_branch_is_409(api: ApiClient, db: Db, quantity: int | None) -> None:
    car = purchasable_car(db)
    where = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    if quantity is None:
        db.stock.delete_one(where)
    else:
        db.stock.update_one(where, {"$set": {"quantity": quantity}})
    api.login()
    response = api.post(ORDERS, json=order_body(car))
    assert response.status_code == 409
    assert "in stock" in response.json()["message"]


def test_other_users_orders_are_invisible(api: ApiClient, db: Db) -> None:
    # Given an order of one buyer
    car = purchasable_car(db)
    api.login("+998901110001")
    order_id = place(api, car)["_id"]
    # When another buyer looks for it
    api.login("+998901110002")
    listed = api.get(ORDERS).json()["data"]
    by_id = api.get(f"{ORDERS}/{order_id}")
    steps = api.get(STEPS, params={"orderId": order_id})
    # Then their list is empty and the order is 404 exactly like an unknown id
    assert listed == {"items": [], "total": 0, "exact": True}
    unknown = api.get(f"{ORDERS}/{ObjectId()}")
    assert by_id.status_code == steps.status_code == unknown.status_code == 404
    assert by_id.json() == unknown.json()


def test_malformed_order_ids_are_400_and_unknown_ones_404(api: ApiClient, db: Db) -> None:
    api.login()
    assert api.get(f"{ORDERS}/not-an-id").json()["errors"][0]["field"] == "path.id"
    assert api.get(STEPS, params={"orderId": "42"}).json()["errors"][0]["field"] == "query.orderId"
    assert api.get(STEPS).status_code == 400
    assert api.get(STEPS, params={"orderId": str(ObjectId())}).status_code == 404


def test_orders_need_a_token(api: ApiClient, db: Db) -> None:
    assert api.get(ORDERS, auth=False).status_code == 401
    assert api.post(ORDERS, json={}, auth=False).status_code == 401


def test_the_list_is_newest_first_and_paged(
    api: ApiClient, db: Db, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given three orders placed a minute apart (in an environment that lets a buyer hold three)
    monkeypatch.setenv("ORDER_UNPAID_CARS_PER_PERSON", "3")
    reset_settings()
    car = purchasable_car(db)
    api.login()
    api.verify()
    numbers = []
    for _ in range(3):
        numbers.append(place(api, car)["contractNumber"])
        frozen_clock.advance(60)
    # When the buyer pages through them two at a time
    first = api.get(ORDERS, params={"limit": 2}).json()["data"]
    second = api.get(ORDERS, params={"limit": 2, "offset": 2}).json()["data"]
    # Then the newest come first and total counts all of them
    assert [item["contractNumber"] for item in first["items"]] == numbers[:0:-1]
    assert [item["contractNumber"] for item in second["items"]] == numbers[:1]
    assert first["total"] == second["total"] == 3
    assert len(api.get(ORDERS).json()["data"]["items"]) == 3
    assert api.get(ORDERS, params={"limit": 101}).status_code == 400
    assert api.get(ORDERS, params={"offset": -1}).status_code == 400


def test_concurrent_orders_get_distinct_contract_numbers(db: Db) -> None:
    # Given one car (twelve in stock) and twelve buyers ordering it at the same moment
    car = purchasable_car(db, quantity=12)
    body = CreateOrderBody.model_validate(order_body(car))

    def order(_: int) -> str:
        return service.create_order(body, user_id=str(ObjectId()), partner="Demo partner", locale="en").contractNumber

    with ThreadPoolExecutor(max_workers=12) as pool:
        numbers = list(pool.map(order, range(12)))
    # Then every order has its own contract number, numbered 1 to 12
    assert len(set(numbers)) == 12
    assert sorted(int(number[-6:]) for number in numbers) == list(range(1, 13))
    assert db.orders.count_documents({}) == 12


def test_placing_an_order_publishes_it_on_eventbridge(db: Db, eventbridge: Any) -> None:
    car = purchasable_car(db)
    order = service.create_order(
        CreateOrderBody.model_validate(order_body(car)), user_id=str(ObjectId()), partner="Demo partner", locale="en"
    )
    outbox.flush()  # what a request's end does
    [event] = eventbridge()
    assert event["detail-type"] == "OrderStatusChanged"
    assert event["detail"]["contractNumber"] == order.contractNumber
    assert (event["detail"]["from"], event["detail"]["to"]) == (None, "NEW")


def test_an_offset_past_any_database_limit_is_just_past_the_end(api: ApiClient, db: Db) -> None:
    # Given a caller with one order
    car = purchasable_car(db)
    api.login()
    assert api.post("/api/v1/orders", json=order_body(car)).status_code == 201
    # When they ask for a page far beyond anything the database could skip
    response = api.get("/api/v1/orders", params={"offset": str(10**30)})
    # Then it is an empty page with the real total, not an error
    assert response.status_code == 200
    assert response.json()["data"] == {"items": [], "total": 1, "exact": True}


def test_an_order_a_promo_pays_in_full_holds_its_car_until_the_back_office_confirms_it(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a promo worth more than the car
    car = purchasable_car(db, prices=(1_000_000,), quantity=2)
    insert_promo_code(db, "GIFT", discount_type="FIXED", value=5_000_000)
    api.login()
    # When the car is ordered with it
    order = place(api, car, promoCode="GIFT")
    # Then nothing is left to pay by card, yet the order is a hold like any other: NEW, with a deadline
    assert (order["amountDueNow"], order["deposit"], order["statusSlug"]) == (0, 0, "NEW")
    assert order["payBy"] is not None
    assert order["depositBy"] == order["payBy"]
    # And it counts against the buyer's unpaid cars
    assert api.post(ORDERS, json=order_body(car)).json()["code"] == "OPEN_ORDERS_LIMIT_REACHED"
    # When the back office confirms it
    lifecycle.transition(ObjectId(order["_id"]), OrderStatus.PAID, cause="gift confirmed by the dealer")
    # Then it is PAID, and no longer a hold
    shown = api.get(f"{ORDERS}/{order['_id']}").json()["data"]
    assert (shown["statusSlug"], shown["payBy"]) == ("PAID", None)


def test_an_order_with_nothing_to_pay_that_nobody_confirms_expires_at_pay_by(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order a promo pays in full, and the promo's uses
    car = purchasable_car(db, prices=(1_000_000,))
    insert_promo_code(db, "GIFT", discount_type="FIXED", value=5_000_000)
    api.login()
    order = place(api, car, promoCode="GIFT")
    # When nobody confirms it by its payBy and the expiry runs
    frozen_clock.current = datetime.fromisoformat(order["payBy"])
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {
        "expired": [order["contractNumber"]]
    }
    # Then it is cancelled, its car back on sale and its promo use given back
    assert (db.orders.find_one({"_id": ObjectId(order["_id"])}) or {})["statusSlug"] == "CANCELLED"
    assert (db.promo_codes.find_one({"_id": "GIFT"}) or {})["used"] == 0
    outbox.flush()
