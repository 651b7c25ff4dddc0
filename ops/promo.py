"""`python -m ops promo add|list|disable`: promo codes, with the rules the service applies
(`domain.orders.promo_codes`): an amount in sums or a percent (with an optional cap), a number of uses
in all (each user once), valid from a start (inclusive) to an end (exclusive).

    python -m ops promo add SPRING15 --percent 15 --cap 5000000 --uses 500 --from 2026-03-01 --to 2026-04-01
    python -m ops promo add MINUS2M --amount 2000000 --uses 100
    python -m ops promo list
    python -m ops promo disable SPRING15        ends it now: it answers "expired" from then on
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from domain.dataset.models import PromoCodeEntry
from domain.dataset.reading import location
from domain.orders import promo_codes
from domain.orders.records import PromoCodeRecord
from ops.output import CommandRefused, print_rows


def moment(value: str) -> datetime:
    """An ISO date or time; UTC unless it names its zone."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date or time: {value}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def add_commands(commands: Any) -> None:
    promo = commands.add_parser("promo", help="add, list or disable promo codes")
    actions = promo.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="a new promo code (codes are case-insensitive, stored uppercase)")
    add.add_argument("code")
    discount = add.add_mutually_exclusive_group(required=True)
    discount.add_argument("--amount", type=int, help="sums off the price")
    discount.add_argument("--percent", type=int, help="percent off the price (1-100), rounded down to whole sums")
    add.add_argument("--cap", type=int, help="at most this many sums off (with --percent)")
    add.add_argument("--uses", type=int, help="uses in all (default: any); each user may use a code once")
    add.add_argument("--from", dest="valid_from", type=moment, help="valid from (ISO; UTC unless zoned)")
    add.add_argument("--to", dest="valid_to", type=moment, help="valid until, exclusive (ISO; UTC unless zoned)")
    actions.add_parser("list", help="every code, its rules and how often it was used")
    actions.add_parser("disable", help="end a code now").add_argument("code")


def record(args: argparse.Namespace) -> PromoCodeRecord:
    if args.cap is not None and args.percent is None:
        raise CommandRefused("--cap goes with --percent", code="PROMO_CODE_INVALID")
    try:
        promo = PromoCodeEntry(
            code=args.code.strip().upper(),
            discountType="PERCENT" if args.percent is not None else "FIXED",
            value=args.percent if args.percent is not None else args.amount,
            maxDiscount=args.cap,
            validFrom=args.valid_from,
            validTo=args.valid_to,
            usageLimit=args.uses,
        )
    except ValidationError as error:
        problems = "; ".join(f"{location(e['loc'])}: {e['msg']}" if e["loc"] else e["msg"] for e in error.errors())
        raise CommandRefused(f"Not a valid promo code: {problems}", code="PROMO_CODE_INVALID") from None
    fields = promo.model_dump()
    return PromoCodeRecord({"_id": fields.pop("code"), **fields})  # type: ignore[typeddict-item]


LIST_COLUMNS = ("code", "discount", "used", "validFrom", "validTo")


def row(promo: PromoCodeRecord) -> dict[str, Any]:
    """A promo code as --json prints it: its rules, named as the data set file names them, and its uses
    (never who used it)."""
    rules = ("discountType", "value", "maxDiscount", "usageLimit", "validFrom", "validTo")
    return {"code": promo["_id"], **{name: promo.get(name) for name in rules}, "used": promo.get("used", 0)}


def cells(promo: Mapping[str, Any]) -> dict[str, Any]:
    """A promo code as a table shows it: its discount and uses in words."""
    value = promo["value"]
    off = f"{value} %" if promo["discountType"] == "PERCENT" else f"{value} sums"
    if promo.get("maxDiscount") is not None:
        off += f" (at most {promo['maxDiscount']} sums)"
    limit = promo.get("usageLimit")
    used = f"{promo.get('used', 0)}/{limit if limit is not None else 'any'}"
    return {**promo, "discount": off, "used": used}


def run(args: argparse.Namespace) -> int:
    if args.action == "add":
        promos = [promo_codes.add(record(args))]
    elif args.action == "list":
        promos = promo_codes.all_codes()
    else:
        promos = [promo_codes.disable(args.code)]
    print_rows([row(promo) for promo in promos], LIST_COLUMNS, as_json=args.json, cells=cells)
    return 0
