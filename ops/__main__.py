"""Operator commands against the configured database (`car-retail-ops --help`, or `python -m ops --help`):

python -m ops indexes                                     create the declared indexes, refresh the catalog search keys
python -m ops bank-offers                                 store the bank offers of new cars or credit products
python -m ops order show <orderId | contractNumber>       an order and its log
python -m ops order transition <order> READY --cause ...  READY, IMPLEMENTED or CANCELLED (refunds card payments)
python -m ops orders expire                               cancel the orders late for their deposit or payment
python -m ops reconcile                                   one payment reconciliation pass (what runs every 5 min)
python -m ops partners add|list|enable|disable|rotate     partner apps' keys (ops/partners.py)
python -m ops catalog export|import|schema FILE           the reference data set as one file (ops/catalog.py)
python -m ops stock set BRANCH MODIFICATION COLOR QTY     units a branch can still sell (ops/stock.py)
python -m ops prices set MODIFICATION PRICE               a modification's price (ops/prices.py)
python -m ops sale set|clear|show CAR                     a car's sale rules (ops/sale.py)
python -m ops promo add|list|disable                      promo codes (ops/promo.py)
python -m ops webhooks set|list|test|replay|enable|...    partners' webhook endpoints (ops/webhooks.py)

Which database: the settings' (docs/OPERATIONS.md, Configuration); with none of STAGE, MONGODB_URI and
MONGODB_URI_SECRET_ID set, the running `make run`'s of this checkout (ops/local_run.py).

A failure prints one line, `error: CODE: what to do`, and exits 1 (2 for a bad argument); --debug adds
the traceback and the service's log lines.
"""

from __future__ import annotations

import argparse
import logging
import sys
import traceback
from typing import Any

DEBUG = "--debug"
JSON = "--json"  # anywhere on the line, like --debug
PROG = "car-retail-ops"
# The commands that read no database: (command, action).
NO_DATABASE = {("catalog", "schema")}


def entry() -> None:
    """The installed command `car-retail-ops` (and `python -m ops`). The service's log lines (JSON, with a
    traceback for what the service itself tolerates, like an event left for the outbox publisher) are
    for the functions' log groups, not an operator's terminal: --debug shows them."""
    sys.exit(main(sys.argv[1:], quiet=DEBUG not in sys.argv[1:]))


def main(argv: list[str] | None = None, *, quiet: bool = False) -> int:
    """Run one command; a failure is one line on stderr and a non-zero status (with --debug, the traceback).
    Everything is imported in here: a setting out of its bounds fails an import, and says so in one line."""
    argv = sys.argv[1:] if argv is None else argv
    debug = DEBUG in argv
    try:
        if quiet:
            from core.observability import logger

            logger.setLevel(logging.CRITICAL)
        return run([argument for argument in argv if argument not in (DEBUG, JSON)], as_json=JSON in argv)
    except KeyboardInterrupt:
        print("error: INTERRUPTED: stopped before the end; run it again to see what it did", file=sys.stderr)
        return 130
    except Exception as error:
        from ops.output import error_line

        if debug:
            traceback.print_exc()
        line, status = error_line(error)
        print(line, file=sys.stderr)
        return status


def command_groups() -> dict[str, Any]:
    """Command groups with their own module: each adds its parser and runs its command."""
    from ops import catalog, orders, partners, prices, promo, sale, stock, webhooks

    return {
        "order": orders,
        "orders": orders,
        "webhooks": webhooks,
        "partners": partners,
        "catalog": catalog,
        "stock": stock,
        "prices": prices,
        "sale": sale,
        "promo": promo,
    }


def build_parser() -> argparse.ArgumentParser:
    """Every command's arguments."""
    from ops.output import Parser

    parser = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(DEBUG, action="store_true", help="on a failure, print the traceback; show the log lines")
    parser.add_argument(JSON, action="store_true", help="print lists and results as JSON (for machines), not tables")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "indexes", help="create every index declared in code and refresh the catalog's search keys (idempotent)"
    )
    commands.add_parser(
        "bank-offers",
        help="store the missing bank offers (every active credit product x every modification of its brand's "
        "cars; idempotent): run after adding cars, modifications or credit products",
    )
    commands.add_parser("reconcile", help="finish or fail stuck card payments and retry pending refunds, once")
    for group in dict.fromkeys(command_groups().values()):  # `order` and `orders` are one module's
        group.add_commands(commands)
    return parser


def run(argv: list[str], *, as_json: bool = False) -> int:
    groups = command_groups()
    args = build_parser().parse_args(argv)
    args.json = as_json
    if (args.command, getattr(args, "action", None)) not in NO_DATABASE:
        from ops.local_run import point_at_make_run

        point_at_make_run()
    if args.command in ("order", "orders", "reconcile"):
        from local import webhooks as local_webhooks

        local_webhooks.install()  # on a laptop (STAGE=local, no queue): the webhooks of a change go out at once
    if args.command in groups:
        return int(groups[args.command].run(args))
    from ops.output import print_result

    if args.command == "bank-offers":
        from domain.financing.store import create_bank_offers

        created = create_bank_offers()
        print_result({"bankOffersCreated": created}, [f"bank offers created: {created}"], as_json=as_json)
        return 0
    if args.command == "reconcile":
        from ops import reconcile

        return reconcile.run()
    from data.mongo import create_indexes
    from domain.catalog.store import refresh_search_prefixes
    from domain.indexes import ALL_INDEXES

    names = list(create_indexes(ALL_INDEXES))
    # The search keys the catalog's indexes serve, for brands and cars written before they existed.
    refreshed = refresh_search_prefixes()
    lines = [*(f"index ok: {name}" for name in names), f"search keys refreshed: {refreshed} documents"]
    print_result({"indexes": names, "searchKeysRefreshed": refreshed}, lines, as_json=as_json)
    return 0


if __name__ == "__main__":
    entry()
