"""Operator commands against the configured database (`python -m ops --help`):

python -m ops indexes                                     create the declared indexes, refresh the catalog search keys
python -m ops bank-offers                                 store the bank offers of new cars or credit products
python -m ops order show <orderId | contractNumber>       an order and its log
python -m ops order transition <order> READY --cause ...  READY, IMPLEMENTED or CANCELLED (refunds card payments)
python -m ops orders expire                               cancel the unpaid orders past ORDER_HOLD_HOURS
python -m ops openapi                                     regenerate openapi.json (and INTERFACE.md's error codes)
python -m ops reconcile                                   one payment reconciliation pass (what runs every 5 min)
python -m ops partners add|list|enable|disable|rotate     partner apps' keys (ops/partners.py)
python -m ops catalog export|import|schema FILE           the reference data set as one file (ops/catalog.py)
python -m ops stock set BRANCH MODIFICATION COLOR QTY     units a branch can still sell (ops/stock.py)
python -m ops prices set MODIFICATION PRICE               a modification's price (ops/prices.py)
python -m ops sale set|clear|show CAR                     a car's sale rules (ops/sale.py)
python -m ops promo add|list|disable                      promo codes (ops/promo.py)
python -m ops webhooks set|list|test|replay|enable|...    partners' webhook endpoints (ops/webhooks.py)
python -m ops bench [--help]                              cold init and warm requests, measured (make bench)
"""

from __future__ import annotations

import argparse
import sys

from data.mongo import create_indexes
from domain.catalog.store import refresh_search_prefixes
from domain.indexes import ALL_INDEXES
from ops import catalog, orders, partners, prices, promo, sale, stock, webhooks

# Command groups with their own module: each adds its parser and runs its command.
GROUPS = {
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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # its own options (python -m ops bench --help)
        from ops import bench

        return bench.main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="python -m ops", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "indexes", help="create every index declared in code and refresh the catalog's search keys (idempotent)"
    )
    commands.add_parser(
        "bank-offers",
        help="store the missing bank offers (every active credit product x every modification of its brand's "
        "cars; idempotent): run after adding cars, modifications or credit products",
    )
    commands.add_parser(
        "openapi", help="write openapi.json (generated from the resolvers) and docs/INTERFACE.md's error codes"
    )
    commands.add_parser("reconcile", help="finish or fail stuck card payments and retry pending refunds, once")
    commands.add_parser("bench", help="cold init per function and warm requests per sample event, measured")
    for group in dict.fromkeys(GROUPS.values()):  # `order` and `orders` are one module's
        group.add_commands(commands)
    args = parser.parse_args(argv)
    if args.command in ("order", "orders", "reconcile"):
        from local import webhooks as local_webhooks

        local_webhooks.install()  # on a laptop (STAGE=local, no queue): the webhooks of a change go out at once
    if args.command in GROUPS:
        return GROUPS[args.command].run(args)
    if args.command == "bank-offers":
        from domain.financing.store import create_bank_offers

        print(f"bank offers created: {create_bank_offers()}")
        return 0
    if args.command == "reconcile":
        from ops.reconcile import run

        return run()
    if args.command == "openapi":
        from local.runtime import apply_local_defaults
        from ops import error_docs
        from ops.openapi import write

        # Importing the functions' handlers checks the stage's settings; the document is the same for every stage.
        apply_local_defaults()

        print(f"wrote {write()}")
        print(f"wrote {error_docs.write()}")
        return 0
    for name in create_indexes(ALL_INDEXES):
        print(f"index ok: {name}")
    # The search keys the catalog's indexes serve, for brands and cars written before they existed.
    print(f"search keys refreshed: {refresh_search_prefixes()} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
