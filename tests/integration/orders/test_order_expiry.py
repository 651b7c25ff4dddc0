"""Late orders expire (domain.orders.holds): an order whose deposit is not paid by `depositBy`
(ORDER_DEPOSIT_MINUTES, or the sale's `holdMinutes`), or whose `amountDueNow` is not paid by `payBy`
(ORDER_HOLD_HOURS), is cancelled by the scheduled function, by `python -m ops orders expire` and where a
payment of it is met, and its unit goes back to the branch. The clock is frozen and moved, never slept on."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from data import outbox
from domain.orders import lifecycle
from domain.orders.settings import get_order_settings
from domain.payments import reconciliation
from local.context import LocalLambdaContext
from local.scheduler import Scheduler, local_schedule
from ops.__main__ import main as ops_main
from orders.expiry import lambda_handler as expiry_handler
from tests.data import CatalogCar, order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
HOUR = 3600
MINUTE = 60
CARD = {"cardNumber": "8600495473316478", "expiry": "12/39", "cardType": "UZCARD"}  # the sandbox's paying card


def stored(db: Db, order: dict[str, Any]) -> dict[str, Any]:
    return db.orders.find_one({"_id": ObjectId(order["_id"])}) or {}


def three_cars(db: Db) -> CatalogCar:
    """A car of 1,000 sums with three units at its branch."""
    return purchasable_car(db, quantity=3, prices=(1_000,))


def place(api: ApiClient, car: CatalogCar) -> dict[str, Any]:
    placed = api.post(ORDERS, json=order_body(car))
    assert placed.status_code == 201, placed.text
    order: dict[str, Any] = placed.json()["data"]
    return order


def test_an_order_without_its_deposit_is_cancelled_past_deposit_by_and_its_unit_returned_a_kept_one_is_not(
    api: ApiClient, db: Db, frozen_clock: FrozenClock, eventbridge: Any
) -> None:
    # Given a verified buyer's order that paid its deposit, and an unpaid one, placed at the same time
    car = three_cars(db)
    api.login()
    api.verify()
    kept = place(api, car)
    lifecycle.record_payment(ObjectId(kept["_id"]), 400, payment_id="desk-1", cause="paid at the desk")
    unpaid = place(api, car)
    assert stock_quantity(db, car) == 1
    # And the buyer is told until when each deadline runs: the deposit in minutes, the rest in hours
    placed_at = datetime.fromisoformat(unpaid["createdAt"])
    settings = get_order_settings()
    assert datetime.fromisoformat(unpaid["depositBy"]) == placed_at + timedelta(minutes=settings.order_deposit_minutes)
    assert datetime.fromisoformat(unpaid["payBy"]) == placed_at + timedelta(hours=settings.order_hold_hours)
    shown = api.get(f"{ORDERS}/{kept['_id']}").json()["data"]
    assert (shown["depositBy"], shown["payBy"]) == (None, unpaid["payBy"])
    eventbridge()  # the placements and payments
    # When the deposit's deadline has passed and the scheduled job runs
    frozen_clock.advance(settings.order_deposit_minutes * MINUTE + 1)
    result = expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry"))
    # Then only the unpaid order is cancelled, "not paid in time", and its unit is back at the branch
    assert result == {"expired": [unpaid["contractNumber"]]}
    assert [stored(db, order)["statusSlug"] for order in (unpaid, kept)] == ["CANCELLED", "PARTIALLY_PAID"]
    assert stock_quantity(db, car) == 2
    [log] = db.order_logs.find({"orderId": ObjectId(unpaid["_id"]), "to": "CANCELLED"})
    assert (log["from"], log["cause"], log["refundAmount"]) == ("NEW", "not paid in time", 0)
    # And dealer systems heard of it
    [event] = eventbridge()
    assert event["detail"]["contractNumber"] == unpaid["contractNumber"]
    assert (event["detail"]["from"], event["detail"]["to"], event["detail"]["cause"]) == (
        "NEW",
        "CANCELLED",
        "not paid in time",
    )


def test_an_order_that_paid_its_deposit_but_not_the_rest_by_pay_by_is_cancelled_and_refunded(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order of 1,000 sums whose deposit of 100 was paid by card
    car = three_cars(db)
    api.login()
    order = place(api, car)
    payment = {"brandId": order["brandId"], "orderId": order["_id"], "amount": 100}
    created = api.post("/api/v1/transactions/create", json={**payment, **CARD})
    transaction_id = created.json()["data"]["transactionId"]
    applied = api.post("/api/v1/transactions/apply", json={**payment, "transactionId": transaction_id, "otp": 666666})
    assert applied.status_code == 200, applied.text
    # When the deposit's deadline passes, the order is kept
    frozen_clock.advance(HOUR)
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {"expired": []}
    # When `payBy` passes with the rest unpaid
    frozen_clock.advance(get_order_settings().order_hold_hours * HOUR)
    result = expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry"))
    # Then the order is cancelled, its unit back, and its deposit refunded by card
    assert result == {"expired": [order["contractNumber"]]}
    assert (stored(db, order)["statusSlug"], stock_quantity(db, car)) == ("CANCELLED", 3)
    assert (db.transactions.find_one({"_id": transaction_id}) or {})["refund"] == "PENDING"
    outbox.flush()


def test_an_order_within_its_hold_is_kept_and_the_hold_is_configurable(
    api: ApiClient,
    db: Db,
    frozen_clock: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given an unpaid order, in an environment that asks the deposit within 10 minutes
    monkeypatch.setenv("ORDER_DEPOSIT_MINUTES", "10")
    reset_settings()
    car = three_cars(db)
    api.login()
    order = place(api, car)
    # When the operator runs the expiry by hand just before and just after the deadline
    frozen_clock.advance(10 * MINUTE - 1)
    capsys.readouterr()  # the API's own log and metric lines
    before = ops_main(["orders", "expire"])
    first = json.loads(capsys.readouterr().out)
    frozen_clock.advance(2)
    after = ops_main(["orders", "expire"])
    second = json.loads(capsys.readouterr().out)
    again = ops_main(["orders", "expire"])
    third = json.loads(capsys.readouterr().out)
    # Then nothing expires before it, the order after it, and only once
    assert (before, after, again) == (0, 0, 0)
    assert (first, second, third) == ({"expired": []}, {"expired": [order["contractNumber"]]}, {"expired": []})
    assert stored(db, order)["statusSlug"] == "CANCELLED"
    assert stock_quantity(db, car) == 3


def test_an_order_whose_card_payment_is_being_charged_is_left_for_the_next_run(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an unpaid order past its deposit's deadline whose card payment, started a second before it, is
    # being charged right now
    car = three_cars(db)
    api.login()
    order = place(api, car)
    frozen_clock.advance(get_order_settings().order_deposit_minutes * MINUTE - 1)
    lifecycle.take_charge(ObjectId(order["_id"]), "7", 1_000, now=frozen_clock(), claim_seconds=60)
    frozen_clock.advance(2)
    # When the job runs
    result = expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry"))
    # Then the order is left alone: the payment decides
    assert result == {"expired": []}
    assert stored(db, order)["statusSlug"] == "NEW"
    # And once the charge is given up, the next run expires it
    lifecycle.release_charge(ObjectId(order["_id"]), "7")
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {
        "expired": [order["contractNumber"]]
    }
    outbox.flush()


def test_a_sale_holds_an_order_for_its_hold_minutes_then_a_payment_is_refused_and_the_unit_is_back_at_once(
    api: ApiClient, api_server: str, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car whose sale holds an unpaid order 30 minutes, its last unit ordered by a buyer
    car = purchasable_car(db, brand="Short Hold", quantity=1, prices=(1_000,), sale={"holdMinutes": 30})
    api.login()
    order = place(api, car)
    # Then the order says until when its deposit holds the car
    assert datetime.fromisoformat(order["depositBy"]) == datetime.fromisoformat(order["createdAt"]) + timedelta(
        minutes=30
    )
    # When the buyer starts paying 30 minutes later, to the second
    frozen_clock.advance(30 * MINUTE)
    api.login()
    payment = {"amount": 1_000, "brandId": order["brandId"], "orderId": order["_id"]}
    refused = api.post("/api/v1/transactions/create", json={**payment, **CARD})
    # Then the payment is refused with the moment the hold ended, the order is cancelled and the unit is back
    assert (refused.status_code, refused.json()["code"]) == (409, "ORDER_HOLD_EXPIRED"), refused.text
    assert refused.json()["details"] == {"depositBy": order["depositBy"], "payBy": order["payBy"]}
    assert (stored(db, order)["statusSlug"], stored(db, order)["stockHold"]) == ("CANCELLED", "RETURNED")
    assert stock_quantity(db, car) == 1
    # And another buyer can order the car at once
    with ApiClient(api_server) as other:
        other.login("+998901110077")
        assert other.post(ORDERS, json=order_body(car)).status_code == 201


def test_a_code_confirmed_past_the_deposit_deadline_charges_nothing_and_expires_the_order_at_once(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order held 30 minutes, and a card payment started 30 seconds before the end of its hold
    car = purchasable_car(db, brand="Late Code", quantity=1, prices=(1_000,), sale={"holdMinutes": 30})
    api.login()
    order = place(api, car)
    frozen_clock.advance(29 * MINUTE + 30)
    api.login()
    payment = {"amount": 1_000, "brandId": order["brandId"], "orderId": order["_id"]}
    created = api.post("/api/v1/transactions/create", json={**payment, **CARD})
    assert created.status_code == 200, created.text
    # When the code is confirmed 40 seconds later, past the hold
    frozen_clock.advance(40)
    transaction_id = created.json()["data"]["transactionId"]
    applied = api.post("/api/v1/transactions/apply", json={**payment, "transactionId": transaction_id, "otp": 666666})
    # Then nothing is charged: the order is late, cancelled on the spot, and its unit is back at once
    assert (applied.status_code, applied.json()["code"]) == (409, "ORDER_HOLD_EXPIRED"), applied.text
    assert (stored(db, order)["paidAmount"], stored(db, order)["statusSlug"]) == (0, "CANCELLED")
    assert (db.transactions.find_one({"_id": transaction_id}) or {})["status"] == "FAILED"
    assert stock_quantity(db, car) == 1
    outbox.flush()


def test_under_make_run_an_order_past_its_hold_is_cancelled_by_the_next_expiry_tick_with_nobody_running_a_command(
    api: ApiClient, db: Db, frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given make run's scheduler, as it reads template.yaml, and the last unit of a car held 2 minutes
    # ordered by a buyer who does not pay
    scheduler = Scheduler(local_schedule())
    car = purchasable_car(db, brand="Two Minutes", quantity=1, prices=(1_000,), sale={"holdMinutes": 2})
    api.login()
    order = place(api, car)
    assert stock_quantity(db, car) == 0
    # When the expiry's first tick comes, a minute later, within the hold
    frozen_clock.advance(MINUTE)
    assert "UnpaidOrderExpiry" in scheduler.tick()
    # Then the order keeps its unit
    assert stored(db, order)["statusSlug"] == "NEW"
    # When its payBy has passed at the next tick
    frozen_clock.advance(MINUTE)
    capsys.readouterr()
    ran = scheduler.tick()
    # Then it is cancelled, not paid in time, and its unit is back at the branch
    assert "UnpaidOrderExpiry" in ran
    assert (stored(db, order)["statusSlug"], stock_quantity(db, car)) == ("CANCELLED", 1)
    log = db.order_logs.find_one({"orderId": ObjectId(order["_id"]), "to": "CANCELLED"}) or {}
    assert log["cause"] == "not paid in time"
    # And make run's console says which order expired
    expected = f'UnpaidOrderExpiry: {{"expired": ["{order["contractNumber"]}"]}}'
    assert expected in capsys.readouterr().out.splitlines()


def test_the_expiry_follows_each_orders_own_hold(api: ApiClient, db: Db, frozen_clock: FrozenClock) -> None:
    # Given an order of a car held 10 minutes and one of a car held the default ORDER_DEPOSIT_MINUTES
    short = purchasable_car(db, brand="Ten Minutes", quantity=1, prices=(1_000,), sale={"holdMinutes": 10})
    usual = three_cars(db)
    api.login()
    api.verify()
    quick, slow = place(api, short), place(api, usual)
    # When the expiry runs a second before ten minutes, then at ten minutes
    frozen_clock.advance(10 * MINUTE - 1)
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {"expired": []}
    frozen_clock.advance(1)
    # Then only the order held ten minutes is cancelled, at its end
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {
        "expired": [quick["contractNumber"]]
    }
    assert stored(db, slow)["statusSlug"] == "NEW"


def test_a_deposit_is_the_least_first_card_payment_and_paying_it_keeps_the_car_past_the_hold(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order of a car of 1,000 sums whose sale asks a deposit of 500 within 30 minutes
    car = purchasable_car(
        db, brand="Deposit", quantity=1, prices=(1_000,), sale={"holdMinutes": 30, "depositAmount": 500}
    )
    api.login()
    order = place(api, car)
    payment = {"brandId": order["brandId"], "orderId": order["_id"]}
    # When the buyer tries to pay 1 sum first
    refused = api.post("/api/v1/transactions/create", json={**payment, "amount": 1, **CARD})
    # Then it is refused with the deposit
    assert (refused.status_code, refused.json()["code"]) == (409, "PAYMENT_BELOW_DEPOSIT"), refused.text
    assert refused.json()["details"] == {"deposit": 500, "amount": 1}
    # When they pay the deposit
    created = api.post("/api/v1/transactions/create", json={**payment, "amount": 500, **CARD})
    transaction = {**payment, "amount": 500, "transactionId": created.json()["data"]["transactionId"], "otp": 666666}
    assert api.post("/api/v1/transactions/apply", json=transaction).status_code == 200
    # Then the order keeps the car past its deposit's deadline
    assert api.get(f"{ORDERS}/{order['_id']}").json()["data"]["depositBy"] is None
    frozen_clock.advance(31 * MINUTE)
    assert expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry")) == {"expired": []}
    assert stored(db, order)["statusSlug"] == "PARTIALLY_PAID"


def test_a_car_without_sale_rules_asks_a_tenth_as_its_deposit_so_a_token_payment_keeps_nothing(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order of a car of 1,001 sums with no sale rules (the default ORDER_DEPOSIT_PERCENT, 10)
    car = purchasable_car(db, brand="Default Deposit", quantity=1, prices=(1_001,))
    api.login()
    order = place(api, car)
    # Then the order says its deposit: a tenth, rounded up to a sum
    assert order["deposit"] == 101
    # When the buyer tries to pay 1 sum by card
    payment = {"brandId": order["brandId"], "orderId": order["_id"], "amount": 1, **CARD}
    refused = api.post("/api/v1/transactions/create", json=payment)
    # Then it is refused with the deposit
    assert (refused.status_code, refused.json()["code"]) == (409, "PAYMENT_BELOW_DEPOSIT"), refused.text
    # When 1 sum is paid another way and the deposit's deadline passes
    lifecycle.record_payment(ObjectId(order["_id"]), 1, payment_id="desk-1", cause="paid at the desk")
    frozen_clock.advance(get_order_settings().order_deposit_minutes * MINUTE)
    result = expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry"))
    # Then the order expires like an unpaid one, and its unit is back on sale
    assert result == {"expired": [order["contractNumber"]]}
    assert (stored(db, order)["statusSlug"], stock_quantity(db, car)) == ("CANCELLED", 1)


def test_an_order_with_less_than_its_deposit_paid_expires_and_its_card_payments_are_refunded(
    api: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an order asking a deposit of 500 within 30 minutes, with 100 paid at the desk and 50 by card
    car = purchasable_car(
        db, brand="Underpaid", quantity=1, prices=(1_000,), sale={"holdMinutes": 30, "depositAmount": 500}
    )
    api.login()
    order = place(api, car)
    lifecycle.record_payment(ObjectId(order["_id"]), 100, payment_id="desk-1", cause="paid at the desk")
    payment = {"brandId": order["brandId"], "orderId": order["_id"], "amount": 50}
    created = api.post("/api/v1/transactions/create", json={**payment, **CARD})
    transaction_id = created.json()["data"]["transactionId"]
    applied = api.post("/api/v1/transactions/apply", json={**payment, "transactionId": transaction_id, "otp": 666666})
    assert applied.status_code == 200, applied.text
    assert api.get(f"{ORDERS}/{order['_id']}").json()["data"]["depositBy"] == order["depositBy"]
    # When the hold has passed and the scheduled job runs
    frozen_clock.advance(30 * MINUTE)
    result = expiry_handler({}, LocalLambdaContext(function_name="UnpaidOrderExpiry"))
    # Then the order is cancelled like an unpaid one, its unit back, and its card payment to be refunded
    assert result == {"expired": [order["contractNumber"]]}
    assert (stored(db, order)["statusSlug"], stock_quantity(db, car)) == ("CANCELLED", 1)
    assert (db.transactions.find_one({"_id": transaction_id}) or {})["refund"] == "PENDING"
    log = db.order_logs.find_one({"orderId": ObjectId(order["_id"]), "to": "CANCELLED"}) or {}
    assert (log["cause"], log["refundAmount"]) == ("not paid in time", 50)
    # And the next payment reconciliation gives the money back through the card processor
    frozen_clock.advance(MINUTE)
    assert reconciliation.reconcile().outcomes == {"Refunded": 1}
    assert (db.transactions.find_one({"_id": transaction_id}) or {})["refund"] == "DONE"
    outbox.flush()
