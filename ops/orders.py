"""`python -m ops order ...`: the back office's side of the order lifecycle.

    python -m ops order show CR-2026-000042
    python -m ops order transition CR-2026-000042 READY --cause "arrived at the Chilonzor branch"
    python -m ops orders expire

An order is named by its id or its contract number. Transitions go through `domain.orders.lifecycle`: only
legal ones happen (PAID when nothing is left to pay by card: a financing confirmed; READY after PAID,
IMPLEMENTED after READY, CANCELLED before READY), each is logged with its cause and published as an
`OrderStatusChanged` event. CANCELLED gives the order's unit of stock back and refunds its card payments
(`domain.payments.refunds`). Payments are not set here: they come from confirmed card transactions.
`orders expire` cancels the late orders (`domain.orders.holds`), as the scheduled UnpaidOrderExpiry
function does (`domain.orders.expiry`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bson import ObjectId

from core.errors import NotFound
from core.serialization import to_json
from data import outbox
from domain.orders import expiry, lifecycle, store
from domain.orders.lifecycle import BACK_OFFICE_TARGETS
from domain.orders.records import OrderRecord
from domain.orders.states import OrderStatus
from domain.payments import cancellations, refunds
from domain.payments import store as payments

# What `show` leaves out of each log entry: the order says them once.
LOG_FIELDS_LEFT_OUT = ("_id", "orderId", "userId")
PAYMENTS_SHOWN = 100  # newest first; an order has a handful
# What `show` says of each card payment of the order (never the card's hash or the processor's token).
PAYMENT_FIELDS = (
    "_id",
    "amount",
    "status",
    "cardMask",
    "cardType",
    "confirmedAt",
    "refund",
    "refundRequestedAt",
    "refundedAt",
)


def find_order(reference: str) -> OrderRecord:
    reference = reference.strip()
    if ObjectId.is_valid(reference):
        order = store.find_order(ObjectId(reference))
    else:
        order = store.find_order_by_contract_number([reference, reference.upper()])
    if order is None:
        raise NotFound("ORDER_NOT_FOUND")
    return order


def show(reference: str) -> dict[str, Any]:
    """The order, its log and its card payments with their refunds."""
    order = find_order(reference)
    log = [
        {name: value for name, value in entry.items() if name not in LOG_FIELDS_LEFT_OUT}
        for entry in store.order_log(order["_id"])
    ]
    page = payments.of_order(order["_id"], str(order["userId"]), offset=0, limit=PAYMENTS_SHOWN)
    shown = [{name: transaction.get(name) for name in PAYMENT_FIELDS} for transaction in page.items]
    return {"order": order, "log": log, "payments": shown, "paymentsTotal": page.total}


def transition(reference: str, target: OrderStatus, cause: str) -> OrderRecord:
    order_id = find_order(reference)["_id"]
    if target is OrderStatus.CANCELLED:
        cancelled = refunds.cancel_order(order_id, cause=cause)
        order = cancelled.order
        if cancelled.refunds_pending:
            print(
                f"{cancelled.refunds_pending} card refund(s) could not be done yet; the payment reconciliation "
                "retries them (python -m ops order show)",
                file=sys.stderr,
            )
    else:
        order = lifecycle.transition(order_id, target, cause=cause)
    publish_now()
    return order


def publish_now() -> None:
    """Publish the change's event now; the scheduled outbox publisher would otherwise within a minute.
    From a laptop without the stage's AWS access that is what happens: said in one line, not a failure."""
    if not outbox.flush():
        print(
            "note: the OrderStatusChanged event waits in the outbox (EventBridge did not take it from here); "
            "the OutboxPublisher publishes it within a minute",
            file=sys.stderr,
        )


def expire() -> dict[str, Any]:
    expired = expiry.expire_late(cancellations.card_refunds)
    if expired:
        publish_now()
    return {"expired": [order.contract_number or str(order.order_id) for order in expired]}


def add_commands(commands: Any) -> None:
    order = commands.add_parser("order", help="show an order or move it through the back-office states")
    actions = order.add_subparsers(dest="action", required=True)
    show_cmd = actions.add_parser("show", help="print an order and its log")
    show_cmd.add_argument("order", help="order id or contract number")
    move = actions.add_parser(
        "transition",
        help="move an order to PAID (its financing confirmed: nothing left to pay by card), READY, IMPLEMENTED "
        "or CANCELLED",
    )
    move.add_argument("order", help="order id or contract number")
    move.add_argument("status", choices=[status.value for status in BACK_OFFICE_TARGETS])
    move.add_argument("--cause", required=True, help="why, for the order log (e.g. who and what happened)")
    many = commands.add_parser("orders", help="jobs over many orders")
    jobs = many.add_subparsers(dest="action", required=True)
    jobs.add_parser(
        "expire", help="cancel the orders that missed their deposit's or payment's deadline, giving their stock back"
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "show":
        result: Any = show(args.order)
    elif args.action == "expire":
        result = expire()
    else:
        result = transition(args.order, OrderStatus(args.status), args.cause.strip() or "back office")
    # A nested document: indented JSON for people, one line for machines (--json).
    print(json.dumps(json.loads(to_json(result)), indent=None if args.json else 2, ensure_ascii=False))
    return 0
