"""Unpaid orders expire: a NEW order with nothing paid holds a unit of its branch's stock for
ORDER_HOLD_HOURS (default 72), then it is cancelled ("not paid in time" in its log, the event
published) and the unit goes back to the branch. Run every 15 minutes by the UnpaidOrderExpiry
function and by hand with `python -m ops orders expire`.

An order that took a payment (PARTIALLY_PAID) is not expired: the back office decides. Neither is one
whose card payment is being charged at that moment; the next run looks at it again.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from bson import ObjectId

from core import clock
from core.observability import logger
from core.settings import get_settings
from domain.orders import lifecycle, store
from domain.orders.lifecycle import Status

BATCH = 200


class Expired(NamedTuple):
    """An order that was cancelled for not being paid in time."""

    order_id: ObjectId
    contract_number: str | None
    placed_at: datetime


def hold() -> timedelta:
    return timedelta(hours=get_settings().order_hold_hours)


def pay_by(order: Mapping[str, Any]) -> datetime | None:
    """When the order is cancelled unless something is paid: a NEW order with nothing paid, its hold
    after it was placed; None for any other."""
    if order["statusSlug"] != Status.NEW.value or order.get("paidAmount", 0):
        return None
    placed_at: datetime = order["createdAt"]
    return placed_at + hold()


def expire_unpaid() -> list[Expired]:
    """Cancel every NEW order with nothing paid placed more than ORDER_HOLD_HOURS ago, oldest first."""
    placed_before = clock.now() - hold()
    expired: list[Expired] = []
    while True:
        candidates = store.unpaid_orders(Status.NEW.value, placed_before=placed_before, limit=BATCH)
        batch = [
            Expired(order["_id"], order.get("contractNumber"), order["createdAt"])
            for order in candidates
            if lifecycle.expire(order, placed_before=placed_before) is not None
        ]
        for order in batch:
            logger.info(
                "unpaid order expired",
                extra={"order_id": str(order.order_id), "contract_number": order.contract_number},
            )
        expired += batch
        # A candidate that changed meanwhile (paid, cancelled) is not a candidate any more; stop when a
        # batch was not full, so one that stays (its charge is in progress) is not looked at forever.
        if len(candidates) < BATCH or not batch:
            return expired
