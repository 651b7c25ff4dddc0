"""Unpaid orders expire: a NEW order with nothing paid holds a unit of its branch's stock until its `payBy`,
set when it was placed: its car's sale rule `holdMinutes` after, else ORDER_HOLD_HOURS (default 72);
orders placed before `payBy` was stored hold ORDER_HOLD_HOURS after `createdAt`. Past it, the order is
cancelled ("not paid in time" in its log, the event published) and the unit goes back to the branch.
Run every minute by the UnpaidOrderExpiry function (so a unit is back on sale within a minute of its
hold's end), by hand with `python -m ops orders expire`, and where a late order is met: a card payment
of it is refused and expires it on the spot (`expire_if_late`).

An order that paid its deposit (PARTIALLY_PAID) is not expired here: the back office decides; one with
less paid is (`expire_underpaid`). Neither is expired while a card payment of it is being charged; the
next run looks at it again.
"""

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from bson import ObjectId

from core import clock
from core.errors import Conflict
from core.observability import logger
from core.settings import get_settings
from domain.orders import lifecycle, store
from domain.orders.lifecycle import Status
from domain.orders.records import OrderRecord

BATCH = 200


class Expired(NamedTuple):
    """An order that was cancelled for not being paid in time."""

    order_id: ObjectId
    contract_number: str | None
    placed_at: datetime


def hold() -> timedelta:
    return timedelta(hours=get_settings().order_hold_hours)


def hold_of(hold_minutes: int | None) -> timedelta:
    """How long a new order holds its unit: its car's `holdMinutes`, else ORDER_HOLD_HOURS."""
    return timedelta(minutes=hold_minutes) if hold_minutes else hold()


def hold_end(order: Mapping[str, Any]) -> datetime:
    """When the order's hold ends: its `payBy`, or ORDER_HOLD_HOURS after it was placed (stored before)."""
    stored: datetime | None = order.get("payBy")
    if stored is not None:
        return stored
    placed_at: datetime = order["createdAt"]
    return placed_at + hold()


def pay_by(order: Mapping[str, Any]) -> datetime | None:
    """When the order is cancelled unless it is paid (its deposit, else anything): a NEW or PARTIALLY_PAID
    order that did not pay that yet, its hold's end; None for any other."""
    if order["statusSlug"] not in (Status.NEW.value, Status.PARTIALLY_PAID.value) or lifecycle.kept(order):
        return None
    return hold_end(order)


def late(now: datetime) -> dict[str, Any]:
    """The condition of an order whose hold has ended by `now` (its `payBy`, else its `createdAt`)."""
    return {
        "$or": [
            {"payBy": {"$lte": now}},
            {"payBy": None, "createdAt": {"$lte": now - hold()}},
        ]
    }


def expire_if_late(order: OrderRecord) -> None:
    """Refuse to take a payment for an order past its `payBy` with nothing paid (409 ORDER_HOLD_EXPIRED,
    with the moment), expiring it on the spot: its unit is back on sale at once."""
    end = pay_by(order)
    now = clock.now()
    if end is None or now < end:
        return
    if lifecycle.expire(order, late=late(now)) is not None:
        logger.info("unpaid order expired", extra={"order_id": str(order["_id"]), "met": "payment"})
    raise Conflict("ORDER_HOLD_EXPIRED", details={"payBy": end})


def expire_underpaid(along_with: lifecycle.AlongWith) -> list[Expired]:
    """Cancel every PARTIALLY_PAID order with less than its deposit paid whose hold has ended, oldest
    first; `along_with` (in each cancellation's transaction) marks its card payments to be refunded."""
    condition = late(clock.now())
    return _in_batches(
        lambda: store.underpaid_orders(Status.PARTIALLY_PAID.value, late=condition, limit=BATCH),
        lambda order: lifecycle.expire_underpaid(order, late=condition, along_with=along_with),
        "underpaid order expired",
    )


def expire_unpaid() -> list[Expired]:
    """Cancel every NEW order with nothing paid whose hold has ended, oldest first."""
    condition = late(clock.now())
    return _in_batches(
        lambda: store.unpaid_orders(Status.NEW.value, late=condition, limit=BATCH),
        lambda order: lifecycle.expire(order, late=condition),
        "unpaid order expired",
    )


def _in_batches(
    candidates: Callable[[], list[OrderRecord]], expire: Callable[[OrderRecord], object], said: str
) -> list[Expired]:
    """Expire the candidates, a batch at a time, until none is left; each one expired is logged."""
    expired: list[Expired] = []
    while True:
        found = candidates()
        batch = [
            Expired(order["_id"], order.get("contractNumber"), order["createdAt"])
            for order in found
            if expire(order) is not None
        ]
        for order in batch:
            logger.info(said, extra={"order_id": str(order.order_id), "contract_number": order.contract_number})
        expired += batch
        # A candidate that changed meanwhile (paid, cancelled) is not a candidate any more; stop when a
        # batch was not full, so one that stays (its charge is in progress) is not looked at forever.
        if len(found) < BATCH or not batch:
            return expired
