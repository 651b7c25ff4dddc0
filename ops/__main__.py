"""`python -m ops indexes`: create the declared MongoDB indexes in the configured database.
`python -m ops openapi`: regenerate openapi.json from the resolvers (make openapi)."""

from __future__ import annotations

import argparse
import sys

from common.db import create_indexes, get_db
from ops.indexes import all_indexes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops", description="Car Retail API operator commands")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("indexes", help="create every index declared in code (idempotent)")
    commands.add_parser("openapi", help="write openapi.json, the OpenAPI document generated from the resolvers")
    args = parser.parse_args(argv)
    if args.command == "indexes":
        for name in create_indexes(get_db(), all_indexes()):
            print(f"index ok: {name}")
    elif args.command == "openapi":
        from ops.openapi import write

        print(f"wrote {write()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
