"""`python -m ops partners ...`: the partner apps' `client` keys.

    python -m ops partners add "Avto Market"          a new partner; its key, shown once, on the last line
    python -m ops partners list                       names, state and creation time (never keys)
    python -m ops partners disable "Avto Market"      its key is refused (403) within PARTNER_CACHE_SECONDS
    python -m ops partners enable "Avto Market"
    python -m ops partners rotate "Avto Market" --grace-hours 72   a new key; the old one works 72 h more

Only a key's SHA-256 hash is stored: a lost key cannot be shown again, only rotated.
"""

from __future__ import annotations

import argparse
from datetime import timedelta
from typing import Any

from core.settings import get_settings
from domain.partners import keys
from domain.partners.store import all_partners
from ops.output import print_result, print_rows

DEFAULT_GRACE_HOURS = 72
LIST_COLUMNS = ("name", "state", "createdAt", "previousKeyUntil")


def add_commands(commands: Any) -> None:
    partners = commands.add_parser("partners", help="add, list, enable, disable partners; rotate their keys")
    actions = partners.add_subparsers(dest="action", required=True)
    actions.add_parser("add", help="create a partner; prints its key once, alone on the last line").add_argument("name")
    actions.add_parser("list", help="names, state and creation time of every partner (never keys)")
    for action, text in (("disable", "refuse the partner's key"), ("enable", "accept the partner's key again")):
        actions.add_parser(action, help=f"{text} (other processes within PARTNER_CACHE_SECONDS)").add_argument("name")
    rotate = actions.add_parser("rotate", help="a new key; the current one keeps working for the grace period")
    rotate.add_argument("name")
    rotate.add_argument(
        "--grace-hours",
        type=float,
        default=DEFAULT_GRACE_HOURS,
        help=f"how long the current key keeps working (default {DEFAULT_GRACE_HOURS})",
    )


def run(args: argparse.Namespace) -> int:
    cache = get_settings().partner_cache_seconds
    if args.action == "add":
        partner, key = keys.add_partner(args.name.strip())
        said = f"partner {partner['name']!r} added; its key (shown this once, store it safely):"
        print_result({"partner": partner["name"], "key": key}, [said, key], as_json=args.json)
    elif args.action == "list":
        rows = [
            {
                "name": partner.get("name", ""),
                "state": "enabled" if partner.get("active") else "disabled",
                "createdAt": partner["createdAt"],
                "previousKeyUntil": partner.get("previousKeyExpiresAt"),
            }
            for partner in all_partners()
        ]
        print_rows(rows, LIST_COLUMNS, as_json=args.json)
    elif args.action in ("enable", "disable"):
        keys.set_active(args.name, active=args.action == "enable")
        said = f"partner {args.name!r} {args.action}d; running instances see it within {cache} s"
        print_result({"partner": args.name, "state": f"{args.action}d"}, [said], as_json=args.json)
    else:
        partner, key = keys.rotate_key(args.name, grace=timedelta(hours=args.grace_hours))
        until = partner.get("previousKeyExpiresAt")
        said = f"partner {args.name!r}: new key below; the old key works until {until} (then 403)"
        print_result({"partner": args.name, "key": key, "previousKeyUntil": until}, [said, key], as_json=args.json)
    return 0
