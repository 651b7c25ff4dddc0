"""A buyer whose order keeps losing the race for its stock document gets a clean 503 within the
transaction's time budget (data.mongo.TRANSACTION_SECONDS), never a timeout of the function: pymongo
alone would retry a conflicting transaction for up to 120 s, past the function's 10 s. And a transaction
that runs out of its time holds nothing afterwards: the server would otherwise keep it open, with the
documents it wrote, until its transaction lifetime limit."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pymongo.client_session import ClientSession
from pymongo.database import Database
from pymongo.errors import PyMongoError

from data import mongo
from tests.data import order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
BUDGET_SECONDS = 0.5
STALL_SECONDS = 0.5


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


class RefusedAfterTheStall(Exception):
    """A refusal of the work itself (a domain error), raised once its transaction's time has run out."""


@pytest.mark.parametrize("ends_with", ["its own timeout", "a refusal after its time"])
def test_a_transaction_that_runs_out_of_time_holding_the_stock_does_not_block_the_next_order(
    api: ApiClient, db: Db, ends_with: str
) -> None:
    # Given a car in stock, and a transaction that takes one from its stock document and then stalls past
    # its time: a write outside the transaction to a document the transaction holds waits for it to end,
    # which it cannot do before its time runs out (the driver then refuses to send its abort)
    car = purchasable_car(db, brand="Stalled Stock", quantity=2)
    api.login()
    where = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    gate = {"_id": car.car_id}
    db.stall_gates.insert_one(gate)
    refuses = ends_with == "a refusal after its time"

    def takes_one_then_stalls(session: ClientSession) -> None:
        db.stock.update_one(where, {"$inc": {"quantity": -1}}, session=session)
        db.stall_gates.update_one(gate, {"$set": {"heldBy": "the transaction"}}, session=session)
        try:
            db.stall_gates.update_one(gate, {"$set": {"heldBy": "a write outside it"}})
        except PyMongoError:
            if not refuses:
                raise
        raise RefusedAfterTheStall

    with pytest.raises((RefusedAfterTheStall, PyMongoError)) as ended:
        mongo.in_transaction(takes_one_then_stalls, seconds=STALL_SECONDS)
    if refuses:
        assert isinstance(ended.value, RefusedAfterTheStall)
    else:
        assert isinstance(ended.value, PyMongoError)
        assert ended.value.timeout
    # When another buyer orders the same configuration, served by another instance of the function (a new
    # client: this one's next transaction would reuse the stalled session, which ends its transaction anyway)
    mongo.reset_client()
    placed = api.post(ORDERS, json=order_body(car))
    # Then the order is placed at once (not refused as busy until the server's transaction lifetime limit),
    # taking its car from the stock the stalled transaction left unchanged
    assert placed.status_code == 201, placed.text
    assert stock_quantity(mongo.get_db(), car) == 1
