"""The order lifecycle: one state machine over the states of `domain.orders.states`, every change a
conditional update on the expected state.

What card payments may take is `amountDueNow` (`due_now`): the price after discount for CASH, the
initial payment of a financed order, whose rest the bank, lessor or installments pay. PAID means that
is paid: the buyer owes the dealer nothing more now, and the back office can prepare the car.

Payments move an order from NEW or PARTIALLY_PAID to PARTIALLY_PAID or PAID (`record_payment`); the
back office moves it to READY, IMPLEMENTED or CANCELLED (`transition`). Two racing changes cannot both
win: each update matches the state (and paid amount) it was computed from. Every change is logged in
`order_logs` with time and cause, and published as an `OrderStatusChanged` event: the order update,
its log entry and the event (in the outbox, `data.outbox`) are one MongoDB transaction. The order's
`eventSeq`, incremented by each update, orders its events. An order placed through a partner's app
(`partner`) also sends that partner's webhook (`domain.partners.webhooks`) with every change. The
documents are read and written by `domain.orders.store`.

Stock holds: an order holds one unit of its branch's stock from the moment it is placed (the order's
transaction takes it: `domain.orders.placement`), so the last car is sold once. The order's `stockHold`
says where that unit is: HELD; RETURNED to the branch when the order is cancelled (by the back office,
or by `expire` when it was not paid in time: `domain.orders.holds`); SOLD when the car is handed over
(IMPLEMENTED). It changes in the same conditional update as the status, and the stock in the same
transaction, so a unit goes back exactly once. A cancellation of an order not paid in full gives its
promo use back in that transaction too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict, NotFound, Unavailable
from core.ids import new_id
from data import outbox
from data.mongo import in_transaction
from domain.dealers import store as dealers
from domain.orders import holds, store
from domain.orders.records import ChangeFacts, OrderRecord
from domain.orders.states import UNPAID, UNPAID_VALUES, OrderStatus, StockHold
from domain.partners import webhooks

MAX_CAS_ATTEMPTS = 10


class OrderBusy(Unavailable):
    """`record_payment` lost every compare-and-set to other changes of the order: nothing was refused,
    the same call later will very likely succeed (503, not a refusal)."""

    default_code = "ORDER_BUSY"


class ChargeInProgress(Conflict):
    """Another payment of the order holds the charging claim (`take_charge`)."""

    default_code = "CHARGE_IN_PROGRESS"


# The cause logged when `expire` cancels an order.
NOT_PAID_IN_TIME = "not paid in time"


# What becomes of a held unit when the order reaches these states.
HOLD_ENDS = {OrderStatus.CANCELLED: StockHold.RETURNED, OrderStatus.IMPLEMENTED: StockHold.SOLD}
# A recorded payment moves an order to PARTIALLY_PAID or PAID (`record_payment`); the back office moves it
# to PAID only when nothing is left to pay by card (its financing confirmed: `transition`).
PAID_BY_PAYMENT = frozenset({OrderStatus.PARTIALLY_PAID, OrderStatus.PAID})
BACK_OFFICE_TARGETS = (OrderStatus.PAID, OrderStatus.READY, OrderStatus.IMPLEMENTED, OrderStatus.CANCELLED)
TRANSITIONS: dict[OrderStatus, frozenset[OrderStatus]] = {
    OrderStatus.NEW: frozenset({OrderStatus.PARTIALLY_PAID, OrderStatus.PAID, OrderStatus.CANCELLED}),
    OrderStatus.PARTIALLY_PAID: frozenset({OrderStatus.PAID, OrderStatus.CANCELLED}),
    OrderStatus.PAID: frozenset({OrderStatus.READY, OrderStatus.CANCELLED}),
    OrderStatus.READY: frozenset({OrderStatus.IMPLEMENTED}),
    OrderStatus.IMPLEMENTED: frozenset(),
    OrderStatus.CANCELLED: frozenset(),
}


def can_transition(current: OrderStatus, target: OrderStatus) -> bool:
    return target in TRANSITIONS[current]


def log_change(
    order: OrderRecord,
    previous: OrderStatus | None,
    cause: str,
    *,
    session: ClientSession,
    facts: ChangeFacts | None = None,
) -> None:
    """Append one entry to the order's log and put its `OrderStatusChanged` event in the outbox, in the
    transaction (`session`) that changed the order. `facts` (a cancellation's `refundAmount`) go into both."""
    now = clock.now()
    facts = facts or {}
    store.insert_order_log(
        {
            "_id": new_id(),
            "orderId": order["_id"],
            "userId": order["userId"],
            "from": previous.value if previous else None,
            "to": order["statusSlug"],
            "cause": cause,
            "at": now,
            **facts,
        },
        session=session,
    )
    outbox.add(
        session,
        aggregate=f"order:{order['_id']}",
        sequence=int(order.get("eventSeq", 0)),
        detail_type="OrderStatusChanged",
        detail={
            "orderId": order["_id"],
            "contractNumber": order.get("contractNumber"),
            "brandId": order.get("brandId"),
            "branchId": order.get("branchId"),
            "from": previous.value if previous else None,
            "to": order["statusSlug"],
            "paidAmount": order.get("paidAmount", 0),
            "amountDue": order.get("amountDue"),
            "amountDueNow": due_now(order),
            "cause": cause,
            "at": now,
            **facts,
        },
        webhook=webhooks.order_status_changed(order, previous.value if previous else None, at=now),
    )


def _load(order_id: ObjectId) -> OrderRecord:
    order = store.find_order(order_id)
    if order is None:
        raise NotFound("ORDER_NOT_FOUND")
    return order


# Work a change does inside its transaction, after the order was updated: it returns the facts the log
# entry and the event carry (a cancellation's refunds mark the order's card payments to be refunded).
AlongWith = Callable[[OrderRecord, ClientSession], ChangeFacts]


def transition(
    order_id: ObjectId, target: OrderStatus, *, cause: str, along_with: AlongWith | None = None
) -> OrderRecord:
    """Move an order to `target` (PAID, READY, IMPLEMENTED or CANCELLED) if that is legal from its current
    state; 409 otherwise. PAID only when nothing is left to pay by card (a financed order with no initial
    payment, a promo covering the price: the back office confirms its financing), so nothing marks an
    order paid without the money. CANCELLED gives the order's unit of stock back, IMPLEMENTED sells it.

    `along_with` runs in the same transaction. Cancelling an order with card payments goes through
    `domain.payments.refunds`, which refunds them this way."""
    if target is OrderStatus.PARTIALLY_PAID:
        raise Conflict("ORDER_STATUS_NEEDS_PAYMENT", target=target.value, details={"target": target.value})
    for _ in range(MAX_CAS_ATTEMPTS):
        order = _load(order_id)
        current = OrderStatus(order["statusSlug"])
        if not can_transition(current, target):
            allowed = sorted(TRANSITIONS[current] - PAID_BY_PAYMENT)
            raise Conflict(
                "ORDER_TRANSITION_NOT_ALLOWED",
                current=current.value,
                target=target.value,
                details={"statusSlug": current.value, "allowed": allowed},
            )
        if target is OrderStatus.PAID and remaining(order) > 0:
            raise Conflict("ORDER_STATUS_NEEDS_PAYMENT", target=target.value, details={"target": target.value})
        # A PAID order without its payments is confirmed with nothing left to pay: `paidAmount` as read.
        also = {"paidAmount": order.get("paidAmount", 0)} if target is OrderStatus.PAID else None
        updated = _change_status(order, target, cause=cause, along_with=along_with, also=also)
        if updated is not None:
            return updated
    raise Conflict("ORDER_CHANGED_CONCURRENTLY")


def expire(order: OrderRecord, *, now: datetime, along_with: AlongWith) -> OrderRecord | None:
    """Cancel an order that is late by `now` (`domain.orders.holds`) and has no card payment being
    charged (it holds no charging claim), with what it paid as read (a payment recorded meanwhile wins),
    logged "not paid in time" with `expiredAt`, its unit given back; `along_with` marks its card payments
    to be refunded (`domain.payments.cancellations`). None (and nothing changed) when it no longer is late."""
    if not holds.is_late(order, now):
        return None
    late = {"paidAmount": order.get("paidAmount", 0), "chargingPaymentId": None, **holds.late(now)}
    return _change_status(
        order, OrderStatus.CANCELLED, cause=NOT_PAID_IN_TIME, along_with=along_with, also=late, stamp={"expiredAt": now}
    )


def _change_status(
    order: OrderRecord,
    target: OrderStatus,
    *,
    cause: str,
    along_with: AlongWith | None,
    also: Mapping[str, Any] | None = None,
    stamp: Mapping[str, Any] | None = None,
) -> OrderRecord | None:
    """One compare-and-set of the order's status, from what `order` says (and the conditions `also`),
    setting `stamp` too, with its stock hold: a held unit goes back to the branch on CANCELLED (in the
    same transaction), and is sold on IMPLEMENTED; an order cancelled before it was paid in full gives
    its promo use back. None when the order changed meanwhile."""
    hold = order.get("stockHold")
    query: dict[str, Any] = {"_id": order["_id"], "statusSlug": order["statusSlug"], "stockHold": hold, **(also or {})}
    changes: dict[str, Any] = {"statusSlug": target.value, "updatedAt": clock.now(), **(stamp or {})}
    ends_hold = hold == StockHold.HELD and target in HOLD_ENDS
    if ends_hold:
        changes["stockHold"] = HOLD_ENDS[target].value
    promo_back = target is OrderStatus.CANCELLED and holds.unpaid(order) and order.get("promoCode")

    def along(updated: OrderRecord, session: ClientSession) -> ChangeFacts:
        if ends_hold and HOLD_ENDS[target] is StockHold.RETURNED:
            dealers.give_back_unit(
                updated["branchId"],
                updated["carId"],
                updated["modificationId"],
                updated["colorId"],
                bucket=updated.get("stockBucket", 0),
                session=session,
            )
        if promo_back:
            store.give_back_promo_use(str(updated["promoCode"]), updated["userId"], session=session)
        return along_with(updated, session) if along_with else {}

    return _change(query, {"$set": changes}, previous=OrderStatus(order["statusSlug"]), cause=cause, along_with=along)


# `amountDueNow` of an order stored before orders carried it: `amountDue` (they were all paid in full).
DUE_NOW = {"$ifNull": ["$amountDueNow", "$amountDue"]}


def due_now(order: Mapping[str, Any]) -> int:
    """What card payments may take in all: `amountDueNow` (`amountDue` for an order stored before it)."""
    stored = order.get("amountDueNow")
    return int(order["amountDue"] if stored is None else stored)


def remaining(order: Mapping[str, Any]) -> int:
    """What the order can still take: 0 unless it is unpaid."""
    if not holds.unpaid(order):
        return 0
    return due_now(order) - int(order.get("paidAmount", 0))


def ensure_can_take(order: Mapping[str, Any], amount: int) -> int:
    """What the order can still take; 409 if it takes no payments or less than `amount`. The one rule
    for card transactions (create, resend, apply) and `record_payment`."""
    current = OrderStatus(order["statusSlug"])
    if current not in UNPAID:
        raise Conflict("ORDER_NOT_PAYABLE", status=current.value, details={"statusSlug": current.value})
    left = remaining(order)
    if amount > left:
        raise Conflict("PAYMENT_ABOVE_DUE", details={"remaining": left, "amount": amount})
    return left


def take_charge(order_id: ObjectId, payment_id: str, amount: int, *, now: datetime, claim_seconds: int) -> OrderRecord:
    """Take the order's charging claim for `payment_id`, with one conditional update: free, already this
    payment's, or older than `claim_seconds` (its holder died), and only while the order is unpaid, can
    take `amount`, and is not late (`domain.orders.holds`: 409 `HoldExpired`). At most
    one payment of an order is being charged at a time, so two charges can never both land on an order
    that can take only one. Released by `record_payment` of the same payment id, or `release_charge`.

    409 `ChargeInProgress` when another payment holds it; 409 (`ensure_can_take`) when the order cannot
    take the amount; 404 when it is gone."""
    claimed = store.take_charge(
        order_id,
        payment_id,
        amount,
        payable=UNPAID_VALUES,
        due_now=DUE_NOW,
        not_late=holds.not_late(now),
        now=now,
        claim_seconds=claim_seconds,
    )
    if claimed is not None:
        return claimed
    order = _load(order_id)
    ensure_can_take(order, amount)
    holds.refuse_if_late(order, now)
    # When to try again: what is left of the holder's claim (a retry then may take it over).
    held_since = order.get("chargingSince") or now
    wait = max(1, math.ceil(claim_seconds - (now - held_since).total_seconds()))
    raise ChargeInProgress(retry_after=wait)


def release_charge(order_id: ObjectId, payment_id: str) -> None:
    """Give the charging claim back, if `payment_id` still holds it."""
    store.release_charge(order_id, payment_id)


def record_payment(order_id: ObjectId, amount: int, *, payment_id: str, cause: str) -> OrderRecord:
    """Add a confirmed payment to the order, once per `payment_id`, moving it to PARTIALLY_PAID or PAID.

    Idempotent: applying the same payment_id again returns the order unchanged. Refuses (409) an order
    that is not payable and an amount above what is still due; 503 `OrderBusy` when every
    compare-and-set lost to another change. Releases the charging claim this payment holds
    (`take_charge`) in the same update.
    """
    if amount <= 0:
        raise Conflict("PAYMENT_NOT_POSITIVE")
    for _ in range(MAX_CAS_ATTEMPTS):
        order = _load(order_id)
        if payment_id in order.get("paymentIds", []):
            return order
        current = OrderStatus(order["statusSlug"])
        ensure_can_take(order, amount)
        paid = int(order.get("paidAmount", 0))
        target = OrderStatus.PAID if paid + amount == due_now(order) else OrderStatus.PARTIALLY_PAID
        query: dict[str, Any] = {
            "_id": order_id,
            "statusSlug": current.value,
            "paidAmount": paid,
            "paymentIds": {"$ne": payment_id},
        }
        changes: dict[str, Any] = {"statusSlug": target.value, "paidAmount": paid + amount, "updatedAt": clock.now()}
        if order.get("chargingPaymentId") == payment_id:
            query["chargingPaymentId"] = payment_id
            changes |= {"chargingPaymentId": None, "chargingSince": None}
        updated = _change(
            query,
            {"$set": changes, "$push": {"paymentIds": payment_id}},
            previous=current if target != current else None,
            cause=cause,
        )
        if updated is not None:
            return updated
    raise OrderBusy(retry_after=1)


def _change(
    query: dict[str, Any],
    update: dict[str, Any],
    *,
    previous: OrderStatus | None,
    cause: str,
    along_with: AlongWith | None = None,
) -> OrderRecord | None:
    """One compare-and-set of an order and, when its status changed (`previous` given), what goes
    `along_with` it, its log entry and event, in one transaction; None when the order no longer matches
    `query` (nothing is written)."""

    def apply(session: ClientSession) -> OrderRecord | None:
        updated = store.update_order(query, {**update, "$inc": {"eventSeq": 1}}, session=session)
        if updated is not None and previous is not None:
            facts = along_with(updated, session) if along_with else {}
            log_change(updated, previous, cause, session=session, facts=facts)
        return updated

    return in_transaction(apply)
