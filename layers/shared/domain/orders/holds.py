"""What keeps a car: the one owner of an order's hold (docs/DECISIONS.md, "What keeps a car").

An order takes a unit of its branch's stock when it is placed and holds it while it has not paid what is
due now (NEW or PARTIALLY_PAID: `states.UNPAID`), within two deadlines set when it is placed (`terms`):

- its `deposit` by `depositBy`: the car's sale `holdMinutes` after it was placed, else
  ORDER_DEPOSIT_MINUTES (30). The deposit is the sale's `depositAmount`, else ORDER_DEPOSIT_PERCENT of
  `amountDueNow` rounded up to a sum, never more than that; the first card payment must be at least it
  (`check_first_payment`), so a token payment keeps nothing;
- all of `amountDueNow` by `payBy`: ORDER_HOLD_HOURS after it was placed. An order with nothing to pay by
  card (0 % down, a promo covering the price) waits by then for the back office to confirm its financing
  (PAID); its `depositBy` is its `payBy`.

An order that missed either is late (`is_late`, and `late` for the database): it takes no payment, and
is cancelled "not paid in time", its unit back on sale, its card payments refunded and its promo use
given back (`domain.orders.expiry`), wherever it is met: `HoldExpired` (409 ORDER_HOLD_EXPIRED) is the
one refusal of a late order. Orders placed before `depositBy` existed keep the rule they were placed
under: their deposit by `payBy`, and no deadline once it is paid.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from core.errors import Conflict
from data.mongo import Document
from domain.orders.records import OrderRecord
from domain.orders.settings import get_order_settings
from domain.orders.states import UNPAID, UNPAID_VALUES, StockHold

# What keeps a car past `depositBy`, as `kept` reads it and as the database compares it.
KEPT_PAID = {"$ifNull": ["$paidAmount", 0]}
KEPT_AT = {"$max": [{"$ifNull": ["$deposit", 0]}, 1]}
_UNKEPT = {"$expr": {"$lt": [KEPT_PAID, KEPT_AT]}}


class Terms(NamedTuple):
    """What a new order must pay by when to keep its car."""

    deposit: int
    deposit_by: datetime
    pay_by: datetime


def deposit_of(sale_deposit: int | None, due_now: int) -> int:
    """The sale's deposit, else ORDER_DEPOSIT_PERCENT of what card payments may take (rounded up to a
    sum), never more than that."""
    share = -(-due_now * get_order_settings().order_deposit_percent // 100)
    return min(share if sale_deposit is None else sale_deposit, due_now)


def terms(placed_at: datetime, due_now: int, *, hold_minutes: int | None, sale_deposit: int | None) -> Terms:
    """The deposit and the two deadlines of an order placed at `placed_at` that must pay `due_now` by card,
    under its car's sale rules `holdMinutes` and `depositAmount` (None where the sale sets none)."""
    settings = get_order_settings()
    deposit_by = placed_at + timedelta(minutes=hold_minutes or settings.order_deposit_minutes)
    pay_by = max(placed_at + timedelta(hours=settings.order_hold_hours), deposit_by)
    return Terms(deposit_of(sale_deposit, due_now), deposit_by if due_now else pay_by, pay_by)


def kept(order: Mapping[str, Any]) -> bool:
    """Whether what was paid keeps the car past `depositBy`: its `deposit`, else any payment."""
    return int(order.get("paidAmount", 0)) >= max(int(order.get("deposit", 0)), 1)


def unpaid(order: Mapping[str, Any]) -> bool:
    """Whether the order holds its car without having paid what is due now."""
    return order["statusSlug"] in UNPAID


def deposit_by(order: Mapping[str, Any]) -> datetime | None:
    """When the deposit is due, while it is; None once it is paid, or for an order that is not unpaid."""
    if not unpaid(order) or kept(order):
        return None
    due: datetime | None = order.get("depositBy") or order.get("payBy")
    return due


def pay_by(order: Mapping[str, Any]) -> datetime | None:
    """When all that is due now is due, while the order is unpaid (an order placed before `depositBy`
    existed: its hold's end, until its deposit is paid)."""
    if not unpaid(order) or (order.get("depositBy") is None and kept(order)):
        return None
    due: datetime | None = order.get("payBy")
    return due


def is_late(order: Mapping[str, Any], now: datetime) -> bool:
    """Whether the order missed its deposit's or its payment's deadline: it is cancelled where met."""
    return any(deadline is not None and now >= deadline for deadline in (deposit_by(order), _rest_due(order)))


def _rest_due(order: Mapping[str, Any]) -> datetime | None:
    return pay_by(order) if order.get("depositBy") is not None else None


def late(now: datetime) -> Document:
    """The condition of an order that is late by `now`, for the database (`is_late`): the deposit not paid
    by `depositBy`, or anything due not paid by `payBy` (an order placed before `depositBy`: the deposit
    by `payBy`). With the status UNPAID, the expiry's query."""
    return {
        "$or": [
            {"depositBy": {"$lte": now}, **_UNKEPT},
            {"depositBy": {"$ne": None}, "payBy": {"$lte": now}},
            {"depositBy": None, "payBy": {"$lte": now}, **_UNKEPT},
        ]
    }


def not_late(now: datetime) -> Document:
    """The condition of an order that is not late by `now` (the charging claim is given only then)."""
    return {"$nor": late(now)["$or"]}


def may_come_back() -> Document:
    """The condition of an order whose unit may still come back to its branch, for the database: it holds
    it unpaid (paid, the car is sold; late, it is cancelled and its unit returned). A fair opening is sold
    out only when none is left (`domain.orders.pacing`)."""
    return {"statusSlug": {"$in": UNPAID_VALUES}, "stockHold": StockHold.HELD.value}


class HoldExpired(Conflict):
    """A late order was met (a payment of it, an apply): it takes nothing, and is cancelled at once."""

    default_code = "ORDER_HOLD_EXPIRED"

    def __init__(self, *, order: OrderRecord) -> None:
        super().__init__(details={"depositBy": deposit_by(order), "payBy": pay_by(order)})
        self.order = order


def refuse_if_late(order: OrderRecord, now: datetime) -> None:
    """409 `HoldExpired` when the order is late by `now`."""
    if is_late(order, now):
        raise HoldExpired(order=order)


def check_first_payment(order: Mapping[str, Any], amount: int, remaining: int) -> None:
    """409 PAYMENT_BELOW_DEPOSIT when nothing is paid yet and `amount` is less than the order's deposit (or
    than what is left to pay, when that is less)."""
    deposit = min(int(order.get("deposit", 0)), remaining)
    if not order.get("paidAmount") and amount < deposit:
        raise Conflict("PAYMENT_BELOW_DEPOSIT", deposit=deposit, details={"deposit": deposit, "amount": amount})
