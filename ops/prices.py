"""`python -m ops prices set MODIFICATION PRICE --cause "…"`: the daily price change.

PRICE is in whole sums; the car's "from" price follows. Orders placed before keep their price. Logged
(`price_changes`) with who (--by, default the OS user) and why (--cause).
"""

from __future__ import annotations

import argparse
from typing import Any

from domain.catalog.prices import set_price
from ops.output import print_result
from ops.stock import add_who_and_why, object_id, who


def sums(value: str) -> int:
    if not value.isdigit() or int(value) <= 0:
        raise argparse.ArgumentTypeError(f"a price is a positive whole number of sums: {value}")
    return int(value)


def add_commands(commands: Any) -> None:
    prices = commands.add_parser("prices", help="set a modification's price")
    actions = prices.add_subparsers(dest="action", required=True)
    set_cmd = actions.add_parser("set", help="set a modification's price in sums; logged with --cause and --by")
    set_cmd.add_argument("modification", type=object_id, help="modification id")
    set_cmd.add_argument("price", type=sums, help="whole sums, e.g. 189000000")
    add_who_and_why(set_cmd)


def run(args: argparse.Namespace) -> int:
    change = set_price(args.modification, args.price, by=who(args), cause=args.cause)
    said = f"price {change['before']} -> {change['after']} sums (modification {args.modification})"
    print_result(change, [said], as_json=args.json)
    return 0
