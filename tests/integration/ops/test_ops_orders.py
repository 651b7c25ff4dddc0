"""The back-office command `python -m ops order ...` against the real database and a moto EventBridge."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from ops.__main__ import main
from tests.data import insert_order

Db = Database[dict[str, Any]]


def test_the_back_office_moves_a_paid_order_to_ready_then_implemented(
    db: Db, eventbridge: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a paid order
    order = insert_order(db, ObjectId(), status="PAID", amount_due=100, paid=100, contractNumber="CR-2026-000042")
    # When the back office marks it ready by contract number, then handed over by id
    ready = main(["order", "transition", "cr-2026-000042", "READY", "--cause", "arrived at the branch"])
    done = main(["order", "transition", str(order["_id"]), "IMPLEMENTED", "--cause", "handed over"])
    # Then both succeed, are logged with their cause and published for dealer systems
    assert (ready, done) == (0, 0)
    stored = db.orders.find_one({"_id": order["_id"]}) or {}
    assert stored["statusSlug"] == "IMPLEMENTED"
    logs = list(db.order_logs.find({"orderId": order["_id"]}).sort("at", 1))
    assert [(log["to"], log["cause"]) for log in logs][1:] == [
        ("READY", "arrived at the branch"),
        ("IMPLEMENTED", "handed over"),
    ]
    published = [(event["detail"]["from"], event["detail"]["to"]) for event in eventbridge()]
    assert published == [("PAID", "READY"), ("READY", "IMPLEMENTED")]
    printed = capsys.readouterr().out
    assert '"statusSlug": "IMPLEMENTED"' in printed


def test_an_illegal_transition_is_refused_and_changes_nothing(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    order = insert_order(db, ObjectId(), status="NEW")
    assert main(["order", "transition", str(order["_id"]), "READY", "--cause", "too early"]) == 1
    assert "cannot go from NEW to READY" in capsys.readouterr().err
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "NEW"


def test_a_new_order_can_be_cancelled(db: Db) -> None:
    order = insert_order(db, ObjectId(), status="NEW")
    assert main(["order", "transition", str(order["_id"]), "CANCELLED", "--cause", "customer request"]) == 0
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "CANCELLED"


def test_an_order_with_something_left_to_pay_by_card_is_not_marked_paid_by_the_back_office(
    db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a new order with its price still to pay / When an operator asks for PAID
    order = insert_order(db, ObjectId(), status="NEW")
    # Then it is refused in one line, and the order is unchanged
    assert main(["order", "transition", str(order["_id"]), "PAID", "--cause", "cash at the desk"]) == 1
    assert capsys.readouterr().err.startswith("error: ORDER_STATUS_NEEDS_PAYMENT")
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "NEW"
    # And PARTIALLY_PAID is never a back-office target
    assert main(["order", "transition", str(order["_id"]), "PARTIALLY_PAID", "--cause", "x"]) == 2


def test_show_prints_the_order_and_its_log_and_unknown_orders_are_refused(
    db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    order = insert_order(db, ObjectId())
    assert main(["order", "show", order["contractNumber"]]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["order"]["_id"] == str(order["_id"])
    assert [entry["to"] for entry in shown["log"]] == ["NEW"]
    assert main(["order", "show", "CR-1999-000001"]) == 1
    assert "ORDER_NOT_FOUND" in capsys.readouterr().err
