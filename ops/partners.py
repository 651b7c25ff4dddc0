"""`python -m ops partners ...`: the partner apps' `client` keys.

    python -m ops partners add "Avto Market" --login otp|assertion|trusted
                                                      a new partner; its key, shown once, on the last line
                                                      (--login required outside STAGE=local, where it is trusted)
    python -m ops partners set-login "Avto Market" assertion --public-key partner.pem | --hs256
                                                      how its users sign in; --hs256 prints a new secret, once,
                                                      on the last line
    python -m ops partners list                       names, state, creation time and login policy (never keys)
    python -m ops partners disable "Avto Market"      its key is refused (403) within PARTNER_CACHE_SECONDS
    python -m ops partners enable "Avto Market"
    python -m ops partners rotate "Avto Market" --grace-hours 72   a new key; the old one works 72 h more

Only a key's SHA-256 hash is stored: a lost key cannot be shown again, only rotated.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from core.settings import get_settings
from domain.partners import keys, login
from domain.partners.store import LoginPolicy, all_partners
from ops.output import BadArgument, print_result, print_rows

DEFAULT_GRACE_HOURS = 72
LIST_COLUMNS = ("name", "state", "createdAt", "previousKeyUntil", "login")


def add_commands(commands: Any) -> None:
    partners = commands.add_parser("partners", help="add, list, enable, disable partners; rotate their keys")
    actions = partners.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="create a partner; prints its key once, alone on the last line")
    add.add_argument("name")
    add.add_argument(
        "--login",
        choices=login.POLICIES,
        help="how its users sign in: otp or assertion for an app that calls us, trusted only for a partner whose "
        "own backend calls us with the key kept secret; required outside the local stage (locally: trusted)",
    )
    set_login = actions.add_parser("set-login", help="how a partner's users sign in: trusted, assertion or otp")
    set_login.add_argument("name")
    set_login.add_argument("policy", choices=login.POLICIES)
    key = set_login.add_mutually_exclusive_group()
    key.add_argument("--public-key", type=Path, help="PEM file of the partner's Ed25519, P-256 or RSA public key")
    key.add_argument(
        "--hs256", action="store_true", help="generate a shared HS256 secret; printed once, alone on the last line"
    )
    actions.add_parser("list", help="names, state, creation time and login policy of every partner (never keys)")
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
        policy = args.login or default_policy()
        partner, key = keys.add_partner(args.name.strip(), login_policy=policy)
        lines = [f"partner {partner['name']!r} added; its key (shown this once, store it safely):", key]
        if policy == "assertion":
            lines.insert(0, f"its logins are refused until its key is registered: partners set-login {args.name!r} ...")
        print_result({"partner": partner["name"], "login": policy, "key": key}, lines, as_json=args.json)
    elif args.action == "set-login":
        set_policy(args)
    elif args.action == "list":
        rows = [
            {
                "name": partner.get("name", ""),
                "state": "enabled" if partner.get("active") else "disabled",
                "createdAt": partner["createdAt"],
                "previousKeyUntil": partner.get("previousKeyExpiresAt"),
                "login": describe_login(partner),
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


def default_policy() -> LoginPolicy:
    """A new partner's policy when the operator named none: `trusted` on a laptop only. Outside `local` a
    key ships inside the partner's app, and `trusted` would let anyone holding it sign in as any phone:
    the operator must say which policy (docs/OPERATIONS.md, Login policies)."""
    settings = get_settings()
    if settings.is_local:
        return login.DEFAULT_POLICY
    raise BadArgument(
        f"partners add: --login is required outside the local stage (STAGE={settings.stage}): otp or assertion "
        "for a partner whose app calls us, trusted only for one whose own backend calls us and keeps the key "
        "secret (docs/OPERATIONS.md, Login policies)"
    )


def set_policy(args: argparse.Namespace) -> None:
    pem = None if args.public_key is None else args.public_key.read_text()  # unreadable: FILE_UNREADABLE
    _, secret = login.set_login(args.name, args.policy, public_key_pem=pem, hs256=args.hs256)
    said = [f"partner {args.name!r}: users sign in by {args.policy} from the next login"]
    if secret is not None:
        said += ["its HS256 assertion secret (shown this once; give it to the partner's backend only):", secret]
    result = {"partner": args.name, "login": args.policy} | ({} if secret is None else {"secret": secret})
    print_result(result, said, as_json=args.json)


def describe_login(partner: Mapping[str, Any]) -> str:
    """The policy, and for `assertion` the algorithm of the registered key (or that none is)."""
    found = partner.get("login") or {}
    policy = found.get("policy", login.DEFAULT_POLICY)
    if policy != "assertion":
        return str(policy)
    key = found.get("assertionKey")
    return f"assertion ({key['alg']})" if key else "assertion (no key: logins refused)"
