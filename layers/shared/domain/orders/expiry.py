"""Late orders expire (the rule of what is late is `domain.orders.holds`'): an order that missed its
deposit's or its payment's deadline is cancelled ("not paid in time", `expiredAt` set, the event
published), its unit goes back to the branch, its promo use is given back, and its card payments are
marked to be refunded in the same transaction (the `along_with` the caller gives:
`domain.payments.cancellations`, which this area may not import; the payment reconciliation asks the
processor for them).

Run every minute by the UnpaidOrderExpiry function (so a unit is back on sale within a minute of its
deadline), by hand with `python -m ops orders expire`, under `make run` by its scheduler, and wherever a
late order is met: a card payment or an apply of it is refused and expires it on the spot
(`expire_if_late`, `expire_met`). An order is not expired while a card payment of it is being charged; the next run
looks at it again.
"""

from datetime import datetime
from typing import NamedTuple

from bson import ObjectId

from core import clock
from core.observability import logger
from domain.orders import holds, lifecycle, store
from domain.orders.records import OrderRecord
from domain.orders.states import UNPAID_VALUES

BATCH = 200


class Expired(NamedTuple):
    """An order that was cancelled for not being paid in time."""

    order_id: ObjectId
    contract_number: str | None
    placed_at: datetime


def expire_late(along_with: lifecycle.AlongWith) -> list[Expired]:
    """Cancel every late order, oldest first, a batch at a time, until none is left; each is logged."""
    now = clock.now()
    expired: list[Expired] = []
    while True:
        found = store.late_orders(UNPAID_VALUES, late=holds.late(now), limit=BATCH)
        batch = [
            Expired(order["_id"], order.get("contractNumber"), order["createdAt"])
            for order in found
            if lifecycle.expire(order, now=now, along_with=along_with) is not None
        ]
        for order in batch:
            logger.info(
                "late order expired", extra={"order_id": str(order.order_id), "contract_number": order.contract_number}
            )
        expired += batch
        # A candidate that changed meanwhile (paid, cancelled) is not a candidate any more; stop when a
        # batch was not full, so one that stays (its charge is in progress) is not looked at forever.
        if len(found) < BATCH or not batch:
            return expired


def expire_if_late(order: OrderRecord, along_with: lifecycle.AlongWith) -> None:
    """Refuse a payment of an order that is late (409 `holds.HoldExpired`, with its deadlines), expiring
    it on the spot: its unit is back on sale at once."""
    now = clock.now()
    try:
        holds.refuse_if_late(order, now)
    except holds.HoldExpired:
        expire_met(order, now, along_with)
        raise


def expire_met(order: OrderRecord, now: datetime, along_with: lifecycle.AlongWith) -> None:
    """Expire a late order a payment met (refused with `holds.HoldExpired`): its unit is back on sale at
    once, not at the next run."""
    if lifecycle.expire(order, now=now, along_with=along_with) is not None:
        logger.info("late order expired", extra={"order_id": str(order["_id"]), "met": "payment"})
