"""`python -m ops order ...`: the back office's side of the order lifecycle.

    python -m ops order show CR-2026-000042
    python -m ops order transition CR-2026-000042 READY --cause "arrived at the Chilonzor branch"

An order is named by its id or its contract number. Transitions go through `domain.orders.lifecycle`: only
legal ones happen (READY after PAID, IMPLEMENTED after READY, CANCELLED before READY), each is logged
with its cause and published as an `OrderStatusChanged` event. Payments are not set here: they come
from confirmed card transactions.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bson import ObjectId

from core.errors import AppError, NotFound
from core.serialization import to_json
from data import outbox
from domain.orders import lifecycle, store
from domain.orders.lifecycle import BACK_OFFICE_TARGETS, Status
from domain.orders.records import OrderRecord
from edge.error_codes import message

# What `show` leaves out of each log entry: the order says them once.
LOG_FIELDS_LEFT_OUT = ("_id", "orderId", "userId")


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
    order = find_order(reference)
    log = [
        {name: value for name, value in entry.items() if name not in LOG_FIELDS_LEFT_OUT}
        for entry in store.order_log(order["_id"])
    ]
    return {"order": order, "log": log}


def transition(reference: str, target: Status, cause: str) -> OrderRecord:
    order = lifecycle.transition(find_order(reference)["_id"], target, cause=cause)
    outbox.flush()  # publish now; the scheduled outbox publisher would otherwise within a minute
    return order


def add_commands(commands: Any) -> None:
    order = commands.add_parser("order", help="show an order or move it through the back-office states")
    actions = order.add_subparsers(dest="action", required=True)
    show_cmd = actions.add_parser("show", help="print an order and its log")
    show_cmd.add_argument("order", help="order id or contract number")
    move = actions.add_parser("transition", help="move an order to READY, IMPLEMENTED or CANCELLED")
    move.add_argument("order", help="order id or contract number")
    move.add_argument("status", choices=[status.value for status in BACK_OFFICE_TARGETS])
    move.add_argument("--cause", required=True, help="why, for the order log (e.g. who and what happened)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "show":
            result: Any = show(args.order)
        else:
            result = transition(args.order, Status(args.status), args.cause.strip() or "back office")
    except AppError as refused:
        print(f"refused: {refused.code}: {message(refused.code, 'en', refused.params)}", file=sys.stderr)
        if refused.details:
            print(to_json(refused.details), file=sys.stderr)
        return 1
    print(json.dumps(json.loads(to_json(result)), indent=2, ensure_ascii=False))
    return 0
