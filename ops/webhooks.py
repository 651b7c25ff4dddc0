"""`python -m ops webhooks ...`: partners' webhook endpoints (docs/INTERFACE.md, "Webhooks").

    python -m ops webhooks set "Partner name" https://partner.example.uz/car-retail/webhooks
    python -m ops webhooks list
    python -m ops webhooks rotate-secret "Partner name"
    python -m ops webhooks remove "Partner name"

A partner is named as in `python -m ops partners`. `set` on a partner without an endpoint prints its new
signing secret alone on the last line (shown once: give it to the partner; it is never stored, only
what it is derived from); `set` on one with an endpoint moves it and keeps the secret. `rotate-secret`
prints a new secret; the old one keeps signing (a second `v1` in `X-Signature`) for 24 hours. Outside
the local stage the command needs the stage's signing key: WEBHOOK_SIGNING_KEY_ARN (the stack output
WebhookSigningKeySecretArn).
"""

from __future__ import annotations

import argparse
from typing import Any

from domain.partners import store, webhooks
from domain.partners.settings import webhook_signing_key
from ops.output import print_result, print_rows

LIST_COLUMNS = ("partner", "url", "createdAt", "updatedAt", "previousSecretSignsUntil")


def add_commands(commands: Any) -> None:
    hooks = commands.add_parser("webhooks", help="register, list, rotate or remove partners' webhook endpoints")
    actions = hooks.add_subparsers(dest="action", required=True)
    set_cmd = actions.add_parser("set", help="register or move a partner's endpoint (a new one prints its secret)")
    set_cmd.add_argument("partner", help="the partner's name")
    set_cmd.add_argument("url", help="https URL the partner's order events are POSTed to")
    actions.add_parser("list", help="every endpoint: partner, URL, when the secret last changed")
    rotate = actions.add_parser("rotate-secret", help="a new signing secret; the old one signs too for 24 hours")
    rotate.add_argument("partner", help="the partner's name")
    remove = actions.add_parser("remove", help="stop sending the partner webhooks")
    remove.add_argument("partner", help="the partner's name")


def run(args: argparse.Namespace) -> int:
    if args.action in ("set", "rotate-secret"):
        # Before anything is written: an endpoint saved without its secret shown could never be verified.
        webhook_signing_key()
    if args.action == "set":
        registration = webhooks.set_endpoint(args.partner, args.url)
        url, secret = registration.endpoint["url"], registration.secret
        lines = [f"{args.partner}: webhooks go to {url}"]
        if secret is None:
            lines.append("signing secret unchanged (rotate-secret issues a new one)")
        else:
            lines += ["signing secret (shown once, give it to the partner):", secret]
        print_result({"partner": args.partner, "url": url, "secret": secret}, lines, as_json=args.json)
    elif args.action == "list":
        rows = [
            {
                "partner": endpoint["_id"],
                "url": endpoint["url"],
                "createdAt": endpoint["createdAt"],
                "updatedAt": endpoint["updatedAt"],
                "previousSecretSignsUntil": endpoint.get("previousUntil"),
            }
            for endpoint in store.webhooks()
        ]
        print_rows(rows, LIST_COLUMNS, as_json=args.json)
    elif args.action == "rotate-secret":
        secret = webhooks.rotate_secret(args.partner)
        said = f"{args.partner}: new signing secret; the previous one also signs for 24 hours:"
        print_result({"partner": args.partner, "secret": secret}, [said, secret], as_json=args.json)
    else:
        webhooks.remove_endpoint(args.partner)
        said = f"{args.partner}: webhook endpoint removed"
        print_result({"partner": args.partner, "removed": True}, [said], as_json=args.json)
    return 0
