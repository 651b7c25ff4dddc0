"""`python -m ops webhooks ...`: partners' webhook endpoints (docs/INTERFACE.md, "Webhooks").

    python -m ops webhooks set "Partner name" https://partner.example.uz/car-retail/webhooks
    python -m ops webhooks list
    python -m ops webhooks rotate-secret "Partner name"
    python -m ops webhooks remove "Partner name"
    python -m ops webhooks test "Partner name"
    python -m ops webhooks enable "Partner name"
    python -m ops webhooks replay "Partner name" --since 2026-11-27T08:00Z   (or --since 6h, --since 2d)

A partner is named as in `python -m ops partners`. `set` on a partner without an endpoint prints its new
signing secret alone on the last line (shown once: give it to the partner; it is never stored, only
what it is derived from); `set` on one with an endpoint moves it and keeps the secret. `rotate-secret`
prints a new secret; the old one keeps signing (a second `v1,` in `webhook-signature`) for 24 hours.
`test` sends a `webhook.test` event from this machine now and says what the endpoint answered (also
to a disabled endpoint, to see it works before `enable`). An endpoint that answered 410 Gone is
disabled (`list` shows `disabledAt`); `enable` resumes deliveries. `replay` sends the partner again
every event since a time (the outbox keeps them 7 days), through the outbox and the webhook queue, as
any delivery. Outside the local stage the commands need the stage's signing key:
WEBHOOK_SIGNING_KEY_ARN (the stack output WebhookSigningKeySecretArn).
"""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from core import clock
from data import outbox
from domain.partners import delivery, store, webhooks
from domain.partners.settings import webhook_signing_key
from ops.output import CommandRefused, print_result, print_rows

LIST_COLUMNS = ("partner", "url", "createdAt", "updatedAt", "previousSecretSignsUntil", "disabledAt")
RELATIVE = re.compile(r"(\d+)([hd])")


def since_time(text: str) -> datetime:
    """`--since`: an ISO 8601 time (UTC when it names no offset) or a span back from now (`6h`, `2d`)."""
    relative = RELATIVE.fullmatch(text.strip())
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        return clock.now() - timedelta(hours=amount if unit == "h" else 24 * amount)
    try:
        parsed = datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (give 2026-11-27T08:00Z, 6h or 2d)") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def add_commands(commands: Any) -> None:
    hooks = commands.add_parser(
        "webhooks", help="register, list, test, replay, enable, rotate or remove partners' webhook endpoints"
    )
    actions = hooks.add_subparsers(dest="action", required=True)
    set_cmd = actions.add_parser("set", help="register or move a partner's endpoint (a new one prints its secret)")
    set_cmd.add_argument("partner", help="the partner's name")
    set_cmd.add_argument("url", help="https URL the partner's order events are POSTed to")
    actions.add_parser("list", help="every endpoint: partner, URL, when the secret last changed, if disabled")
    rotate = actions.add_parser("rotate-secret", help="a new signing secret; the old one signs too for 24 hours")
    rotate.add_argument("partner", help="the partner's name")
    remove = actions.add_parser("remove", help="stop sending the partner webhooks")
    remove.add_argument("partner", help="the partner's name")
    test = actions.add_parser("test", help="send the partner's endpoint a webhook.test event now; say its answer")
    test.add_argument("partner", help="the partner's name")
    enable = actions.add_parser("enable", help="resume deliveries to an endpoint disabled by a 410 answer")
    enable.add_argument("partner", help="the partner's name")
    replay = actions.add_parser("replay", help="send the partner again every event since a time (up to 7 days)")
    replay.add_argument("partner", help="the partner's name")
    replay.add_argument(
        "--since", required=True, type=since_time, help="2026-11-27T08:00Z (UTC unless an offset is given), 6h or 2d"
    )


def run(args: argparse.Namespace) -> int:
    if args.action in ("set", "rotate-secret", "test"):
        # Before anything is written or sent: an endpoint saved without its secret shown could never be verified.
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
                "disabledAt": endpoint.get("disabledAt"),
                "disabledReason": endpoint.get("disabledReason"),
            }
            for endpoint in store.webhooks()
        ]
        print_rows(rows, LIST_COLUMNS, as_json=args.json)
    elif args.action == "rotate-secret":
        secret = webhooks.rotate_secret(args.partner)
        said = f"{args.partner}: new signing secret; the previous one also signs for 24 hours:"
        print_result({"partner": args.partner, "secret": secret}, [said, secret], as_json=args.json)
    elif args.action == "remove":
        webhooks.remove_endpoint(args.partner)
        said = f"{args.partner}: webhook endpoint removed"
        print_result({"partner": args.partner, "removed": True}, [said], as_json=args.json)
    elif args.action == "enable":
        endpoint = webhooks.enable(args.partner)
        said = f"{args.partner}: deliveries to {endpoint['url']} resumed"
        print_result({"partner": args.partner, "url": endpoint["url"], "enabled": True}, [said], as_json=args.json)
    elif args.action == "test":
        _test(args.partner, as_json=args.json)
    else:
        _replay(args.partner, args.since, as_json=args.json)
    return 0


def _test(partner: str, *, as_json: bool) -> None:
    event_id, attempt = delivery.send_test(partner)
    answer = f"HTTP {attempt.status}" if attempt.status is not None else attempt.reason
    if attempt.status is None or not 200 <= attempt.status < 300:
        raise CommandRefused(
            f"test event {event_id} not delivered: {answer}; the endpoint must answer 2xx "
            "(docs/INTERFACE.md, Webhooks)",
            code="WEBHOOK_TEST_NOT_DELIVERED",
        )
    said = f"{partner}: test event {event_id} delivered ({answer})"
    print_result({"partner": partner, "eventId": event_id, "status": attempt.status}, [said], as_json=as_json)


def _replay(partner: str, since: datetime, *, as_json: bool) -> None:
    from local import webhooks as local_webhooks

    local_webhooks.install()  # on a laptop (STAGE=local, no queue): delivered from here at once
    aggregates = webhooks.replay(partner, since)
    handed = outbox.publish_pending(aggregates=set(aggregates)).delivered if aggregates else 0
    said = (
        f"{partner}: {len(aggregates)} events since {since.isoformat()} sent again "
        f"({handed} handed over now; the outbox publisher hands over the rest)"
    )
    result = {"partner": partner, "since": since, "events": len(aggregates), "handedOver": handed}
    print_result(result, [said], as_json=as_json)
