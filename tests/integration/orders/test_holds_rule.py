"""The rule of what keeps a car is stated twice in `domain.orders.holds`, once for an order in hand
(`is_late`) and once for the database (`late`, `not_late`): over every kind of order, the two must agree,
or the expiry would cancel an order a payment is still allowed on (or leave one that refuses payments)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo.database import Database

from domain.orders import holds
from tests.data import insert_order

Db = Database[dict[str, Any]]
NOW = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
BEFORE, AFTER = NOW - timedelta(minutes=1), NOW + timedelta(minutes=1)


def test_the_late_query_finds_exactly_the_orders_the_rule_calls_late(db: Db) -> None:
    # Given orders of every status, payment and deadline: deposit paid or not, each deadline passed, not
    # yet, or absent (an order stored before `depositBy` existed)
    kinds = itertools.product(
        ("NEW", "PARTIALLY_PAID", "PAID", "CANCELLED"),
        (0, 50, 100),  # paid, of a deposit of 100
        (BEFORE, AFTER, None),  # depositBy
        (BEFORE, AFTER),  # payBy
    )
    orders = [
        insert_order(
            db, ObjectId(), status=status, amount_due=1_000, paid=paid, deposit=100, depositBy=deposit_by, payBy=pay_by
        )
        for status, paid, deposit_by, pay_by in kinds
        if not (deposit_by is not None and pay_by < deposit_by)  # `payBy` is never before `depositBy`
    ]
    # When the database is asked for the late ones, and for those not late
    late = {
        order["_id"] for order in db.orders.find({"statusSlug": {"$in": ["NEW", "PARTIALLY_PAID"]}, **holds.late(NOW)})
    }
    not_late = {order["_id"] for order in db.orders.find(holds.not_late(NOW))}
    # Then they are exactly those the rule calls late, and the others
    called_late = {order["_id"] for order in orders if holds.is_late(order, NOW)}
    assert late == called_late
    assert not_late == {order["_id"] for order in orders} - late_of_any_status(orders)
    assert called_late  # the matrix has late orders, and orders that are not
    assert len(called_late) < len(orders)


def late_of_any_status(orders: list[Any]) -> set[ObjectId]:
    """The orders whose deadlines have passed unpaid, whatever their status (`not_late` reads no status:
    the charging claim asks for a payable status itself)."""
    return {order["_id"] for order in orders if holds.is_late({**order, "statusSlug": "NEW"}, NOW)}
