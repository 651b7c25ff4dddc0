"""`python -m ops stock set BRANCH MODIFICATION COLOR QUANTITY --cause "…"`: the daily stock change.

QUANTITY is how many units of that modification and color the branch can still sell: placing an order
takes one of them. Logged (`stock_changes`) with who (--by, default the OS user) and why (--cause).
`--buckets K` splits them into K documents, so racing orders of a popular car spread over them (default:
as the row is, 16 for a car sold through a queue; never more than the units).
"""

from __future__ import annotations

import argparse
import getpass
from typing import Any

from bson import ObjectId

from domain.dealers.stock import MAX_BUCKETS, set_quantity
from ops.output import print_result


def object_id(value: str) -> ObjectId:
    if not ObjectId.is_valid(value):
        raise argparse.ArgumentTypeError(f"not an id (24 hex digits): {value}")
    return ObjectId(value)


def bucket_count(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= MAX_BUCKETS:
        raise argparse.ArgumentTypeError(f"buckets are 1 to {MAX_BUCKETS}: {value}")
    return int(value)


def add_who_and_why(parser: Any) -> None:
    parser.add_argument("--cause", required=True, help="why, for the change log (e.g. 'delivery from Asaka')")
    parser.add_argument("--by", default=None, help="who, for the change log (default: the OS user)")


def who(args: argparse.Namespace) -> str:
    return (args.by or getpass.getuser()).strip()


def add_commands(commands: Any) -> None:
    stock = commands.add_parser("stock", help="set what a branch can still sell")
    actions = stock.add_subparsers(dest="action", required=True)
    set_cmd = actions.add_parser(
        "set",
        help="set QUANTITY, the units of a modification and color the branch can still sell "
        "(orders take units from it); logged with --cause and --by",
    )
    set_cmd.add_argument("branch", type=object_id, help="branch id")
    set_cmd.add_argument("modification", type=object_id, help="modification id")
    set_cmd.add_argument("color", type=object_id, help="color id (of the modification's car)")
    set_cmd.add_argument("quantity", type=int, help="units the branch can still sell (0: sold out)")
    set_cmd.add_argument(
        "--buckets",
        type=bucket_count,
        default=None,
        help=f"split the units into K documents (1-{MAX_BUCKETS}) so racing orders spread over them "
        "(default: as the row is, 16 for a car sold through a queue; never more than the units)",
    )
    add_who_and_why(set_cmd)


def run(args: argparse.Namespace) -> int:
    change = set_quantity(
        args.branch, args.modification, args.color, args.quantity, by=who(args), cause=args.cause, buckets=args.buckets
    )
    split = f", {change['buckets']} buckets" if change["buckets"] > 1 else ""
    said = (
        f"stock {change['before']} -> {change['after']} (branch {args.branch}, modification {args.modification}{split})"
    )
    print_result(change, [said], as_json=args.json)
    return 0
