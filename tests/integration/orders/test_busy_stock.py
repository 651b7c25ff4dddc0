"""A buyer whose order keeps losing the race for its stock document gets a clean 503 within the
transaction's time budget (data.mongo.TRANSACTION_SECONDS), never a timeout of the function: pymongo
alone would retry a conflicting transaction for up to 120 s, past the function's 10 s."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pymongo.database import Database

from data import mongo
from tests.data import order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
BUDGET_SECONDS = 0.5


def test_an_order_that_keeps_meeting_a_write_conflict_is_a_503_within_the_budget_and_holds_nothing(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a car in stock, and another transaction that changed its stock document and has not committed
    car = purchasable_car(db, brand="Busy Stock", quantity=2)
    monkeypatch.setattr(mongo, "TRANSACTION_SECONDS", BUDGET_SECONDS)
    api.login()
    where = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    with db.client.start_session() as other:
        other.start_transaction()
        db.stock.update_one(where, {"$set": {"heldBy": "another transaction"}}, session=other)
        # When a buyer orders that configuration
        started = time.monotonic()
        busy = api.post(ORDERS, json=order_body(car))
        took = time.monotonic() - started
        other.abort_transaction()
    # Then they are told to retry shortly, within the budget (and far from the function's timeout)
    assert (busy.status_code, busy.json()["code"]) == (503, "DATA_BUSY"), busy.text
    assert busy.headers["Retry-After"] == "1"
    assert BUDGET_SECONDS <= took < 5.0
    # And nothing was held
    assert db.orders.count_documents({"carId": car.car_id}) == 0
    assert stock_quantity(db, car) == 2
    # When they retry once the other transaction is gone
    placed = api.post(ORDERS, json=order_body(car))
    # Then the order is placed
    assert placed.status_code == 201, placed.text
    assert stock_quantity(db, car) == 1
