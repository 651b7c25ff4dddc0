"""Stock holds: an order takes one unit of its branch's stock when it is placed (no unit, no order),
gives it back when it is cancelled, and keeps it when the car is handed over. Through HTTP and the
back-office command, on the real MongoDB."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from domain.orders import lifecycle
from domain.orders.states import OrderStatus
from ops.__main__ import main as ops_main
from tests.data import insert_order, order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient, branch_offered, race

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"


def test_the_last_unit_is_ordered_once_and_a_cancel_gives_it_back(
    api: ApiClient, api_server: str, db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a branch with one car left and a buyer who orders it
    car = purchasable_car(db, quantity=1)
    api.login("+998901110001")
    assert branch_offered(api, car)
    placed = api.post(ORDERS, json=order_body(car))
    assert placed.status_code == 201, placed.text
    order = placed.json()["data"]
    # When a second buyer orders the same car there
    with ApiClient(api_server) as second:
        second.login("+998901110002")
        refused = second.post(ORDERS, json=order_body(car))
    # Then the second is refused with the quantity left, the unit is held, and the branch is not offered
    assert refused.status_code == 409
    assert refused.json()["details"] == {"quantity": 0}
    assert stock_quantity(db, car) == 0
    assert (db.orders.find_one({"_id": ObjectId(order["_id"])}) or {})["stockHold"] == "HELD"
    assert not branch_offered(api, car)
    # When the back office cancels the first order
    cause = "customer chose another color"
    assert ops_main(["order", "transition", order["contractNumber"], "CANCELLED", "--cause", cause]) == 0
    capsys.readouterr()
    # Then the unit is back and the branch is offered again, at once
    assert stock_quantity(db, car) == 1
    assert (db.orders.find_one({"_id": ObjectId(order["_id"])}) or {})["stockHold"] == "RETURNED"
    assert branch_offered(api, car)


def test_parallel_cancels_give_the_unit_back_once(api: ApiClient, db: Db) -> None:
    # Given an order holding the last unit of its branch
    car = purchasable_car(db, quantity=1)
    api.login()
    order_id = ObjectId(api.post(ORDERS, json=order_body(car)).json()["data"]["_id"])
    # When eight back-office cancels race
    outcomes = race(lambda: lifecycle.transition(order_id, OrderStatus.CANCELLED, cause="race"), 8)
    # Then one cancelled it, the others were refused, and one unit went back
    assert outcomes.count("ok") == 1, outcomes
    assert stock_quantity(db, car) == 1
    assert db.order_logs.count_documents({"orderId": order_id, "to": "CANCELLED"}) == 1


def test_a_car_handed_over_is_sold_and_its_unit_stays_gone(api: ApiClient, db: Db) -> None:
    # Given an order of one of three cars, paid
    car = purchasable_car(db, quantity=3, prices=(1_000,))
    api.login()
    order_id = ObjectId(api.post(ORDERS, json=order_body(car)).json()["data"]["_id"])
    lifecycle.record_payment(order_id, 1_000, payment_id="bank-transfer-1", cause="paid at the desk")
    # When the car arrives and is handed over
    lifecycle.transition(order_id, OrderStatus.READY, cause="arrived")
    lifecycle.transition(order_id, OrderStatus.IMPLEMENTED, cause="handed over")
    # Then the branch has two left, and the order's unit is sold
    assert stock_quantity(db, car) == 2
    assert (db.orders.find_one({"_id": order_id}) or {})["stockHold"] == "SOLD"


def test_an_order_placed_before_holds_gives_nothing_back(db: Db) -> None:
    # Given an order stored before orders held stock (no stockHold), at a branch with three cars
    car = purchasable_car(db, quantity=3)
    order = insert_order(db, ObjectId(), car)
    # When it is cancelled
    lifecycle.transition(order["_id"], OrderStatus.CANCELLED, cause="customer request")
    # Then the stock is as it was: that order never took a unit
    assert stock_quantity(db, car) == 3
    assert "stockHold" not in (db.orders.find_one({"_id": order["_id"]}) or {})
