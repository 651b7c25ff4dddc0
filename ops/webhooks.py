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
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from core import clock
from core.errors import AppError
from core.serialization import to_json
from data import outbox
from domain.partners import delivery, store, webhooks
from edge.error_codes import message

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
    try:
        if args.action == "set":
            registration = webhooks.set_endpoint(args.partner, args.url)
            print(f"{args.partner}: webhooks go to {registration.endpoint['url']}")
            if registration.secret is None:
                print("signing secret unchanged (rotate-secret issues a new one)")
            else:
                print("signing secret (shown once, give it to the partner):")
                print(registration.secret)
        elif args.action == "list":
            for endpoint in store.webhooks():
                rotated = endpoint.get("previousUntil")
                print(
                    to_json(
                        {
                            "partner": endpoint["_id"],
                            "url": endpoint["url"],
                            "createdAt": endpoint["createdAt"],
                            "updatedAt": endpoint["updatedAt"],
                            "previousSecretSignsUntil": rotated,
                            "disabledAt": endpoint.get("disabledAt"),
                            "disabledReason": endpoint.get("disabledReason"),
                        }
                    )
                )
        elif args.action == "rotate-secret":
            secret = webhooks.rotate_secret(args.partner)
            print(f"{args.partner}: new signing secret; the previous one also signs for 24 hours:")
            print(secret)
        elif args.action == "remove":
            webhooks.remove_endpoint(args.partner)
            print(f"{args.partner}: webhook endpoint removed")
        elif args.action == "enable":
            endpoint = webhooks.enable(args.partner)
            print(f"{args.partner}: deliveries to {endpoint['url']} resumed")
        elif args.action == "test":
            return _test(args.partner)
        else:
            return _replay(args.partner, args.since)
    except AppError as refused:
        print(f"refused: {refused.code}: {message(refused.code, 'en', refused.params)}", file=sys.stderr)
        return 1
    return 0


def _test(partner: str) -> int:
    event_id, attempt = delivery.send_test(partner)
    answer = f"HTTP {attempt.status}" if attempt.status is not None else attempt.reason
    if attempt.status is not None and 200 <= attempt.status < 300:
        print(f"{partner}: test event {event_id} delivered ({answer})")
        return 0
    print(f"refused: WEBHOOK_TEST_NOT_DELIVERED: test event {event_id} not delivered: {answer}", file=sys.stderr)
    return 1


def _replay(partner: str, since: datetime) -> int:
    from local import webhooks as local_webhooks

    local_webhooks.install()  # on a laptop (STAGE=local, no queue): delivered from here at once
    aggregates = webhooks.replay(partner, since)
    sent = outbox.publish_pending(aggregates=set(aggregates)).delivered if aggregates else 0
    print(
        f"{partner}: {len(aggregates)} events since {since.isoformat()} sent again "
        f"({sent} handed over now; the outbox publisher hands over the rest)"
    )
    return 0
