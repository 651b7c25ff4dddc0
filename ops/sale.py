"""`python -m ops sale set|clear|show CAR`: a car's sale rules (domain.catalog.sale), or one modification's.

    python -m ops sale set CAR --starts-at 2026-12-01T10:00:00+05:00 --hold-minutes 60 \\
        --deposit 5000000 --per-person 2/365 --verified-only --cause "opening of 1 December"
    python -m ops sale set CAR --starts-at 2026-12-01T10:00:00+05:00 --verified-only --queue \\
        --registration-opens-at 2026-11-24T10:00:00+05:00 --admission-per-second 50 --admission-minutes 15 \\
        --cause "fair opening"                                             a queue: registration, draw, pace
    python -m ops sale set CAR --modification MOD --starts-at … --cause …   that modification's override
    python -m ops sale clear CAR [--modification MOD] --cause …            no rules: sold as usual
    python -m ops sale show CAR                                             the car's and its modifications'
    python -m ops sale verify-draw draw.json [--commitment HEX]           check a published draw

`set` makes the rules exactly those given (a member left out is not a rule any more). Logged
(`sale_changes`) with who (--by, default the OS user) and why (--cause), like prices and stock.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.serialization import to_json
from domain.catalog import store
from domain.catalog.records import SaleRecord
from domain.catalog.sale_changes import set_rules
from domain.dataset.models import SaleEntry
from domain.dataset.reading import location
from domain.orders import draw, openings
from ops.output import CommandRefused, print_result
from ops.stock import add_who_and_why, object_id, who


def moment(value: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise argparse.ArgumentTypeError(f"a moment with its zone, e.g. 2026-12-01T10:00:00+05:00: {value}")
    return parsed


def per_person(value: str) -> dict[str, int]:
    count, _, days = value.partition("/")
    if not (count.isdigit() and days.isdigit()):
        raise argparse.ArgumentTypeError(f"COUNT/DAYS, e.g. 2/365: {value}")
    return {"count": int(count), "days": int(days)}


def add_commands(commands: Any) -> None:
    sale = commands.add_parser("sale", help="a car's sale rules: start, hold, deposit, per-person limit, verified only")
    actions = sale.add_subparsers(dest="action", required=True)
    set_cmd = actions.add_parser("set", help="make the car's (or a modification's) sale rules exactly these")
    set_cmd.add_argument("car", type=object_id, help="car id")
    set_cmd.add_argument("--modification", type=object_id, help="set this modification's override instead")
    set_cmd.add_argument("--starts-at", type=moment, help="before it the car is not sold (ISO 8601 with its zone)")
    set_cmd.add_argument("--hold-minutes", type=int, help="how long an unpaid order holds its unit")
    set_cmd.add_argument("--deposit", type=int, help="sums to pay within the hold to keep the car (at least 1)")
    set_cmd.add_argument("--per-person", type=per_person, help="COUNT/DAYS: orders of the car per person")
    set_cmd.add_argument("--verified-only", action="store_true", help="only buyers who verified their identity")
    set_cmd.add_argument(
        "--queue", action="store_true", help="a fair opening: registration, a draw at --starts-at, paced admission"
    )
    set_cmd.add_argument("--registration-opens-at", type=moment, help="with --queue: from when people may register")
    set_cmd.add_argument("--admission-per-second", type=int, help="with --queue: people admitted to order a second")
    set_cmd.add_argument("--admission-minutes", type=int, help="with --queue: how long an admitted person may order")
    add_who_and_why(set_cmd)
    clear = actions.add_parser("clear", help="remove the car's (or a modification's) sale rules")
    clear.add_argument("car", type=object_id, help="car id")
    clear.add_argument("--modification", type=object_id, help="remove this modification's override only")
    add_who_and_why(clear)
    show = actions.add_parser("show", help="the car's sale rules and its modifications' overrides")
    show.add_argument("car", type=object_id, help="car id")
    verify = actions.add_parser("verify-draw", help="check a published draw.json against its seed's commitment")
    verify.add_argument("file", type=Path, help="the draw.json of a car's opening")
    verify.add_argument("--commitment", help="the seedCommitment published before the draw (default: the file's)")


# Each member of the rules and the option that gives it, to name a refused one as the operator typed it.
OPTIONS = {
    "startsAt": "--starts-at",
    "holdMinutes": "--hold-minutes",
    "depositAmount": "--deposit",
    "perPersonLimit": "--per-person",
    "verifiedBuyersOnly": "--verified-only",
    "queue": "--queue",
}
QUEUE_OPTIONS = {
    "registrationOpensAt": "--registration-opens-at",
    "admissionPerSecond": "--admission-per-second",
    "admissionMinutes": "--admission-minutes",
}


def queue_of(args: argparse.Namespace) -> dict[str, Any] | None:
    """The queue the arguments give (None without --queue, whose options it refuses then)."""
    given = {
        "registrationOpensAt": args.registration_opens_at,
        "admissionPerSecond": args.admission_per_second,
        "admissionMinutes": args.admission_minutes,
    }
    if not args.queue:
        stray = [QUEUE_OPTIONS[member] for member, value in given.items() if value is not None]
        if stray:
            raise CommandRefused(f"{', '.join(stray)} only with --queue", code="SALE_RULES_INVALID")
        return None
    if args.modification is not None:
        raise CommandRefused("--queue is the car's rule, not a modification's", code="SALE_RULES_INVALID")
    missing = [QUEUE_OPTIONS[member] for member, value in given.items() if value is None]
    if missing:
        raise CommandRefused(f"--queue needs {', '.join(missing)}", code="SALE_RULES_INVALID")
    return given


def rules_of(args: argparse.Namespace) -> SaleRecord:
    """The rules the arguments give, checked by the data set file's model (SaleEntry): one rule for both,
    e.g. a deposit of at least 1 sum."""
    given = {
        "startsAt": args.starts_at,
        "holdMinutes": args.hold_minutes,
        "depositAmount": args.deposit,
        "perPersonLimit": args.per_person,
        "verifiedBuyersOnly": True if args.verified_only else None,
        "queue": queue_of(args),
    }
    if all(value is None for value in given.values()):
        raise CommandRefused("no rule given (to remove the rules: python -m ops sale clear)")
    try:
        entry = SaleEntry.model_validate(given)
    except ValidationError as error:
        problem = error.errors()[0]
        loc = problem["loc"]
        option = OPTIONS.get(str(loc[0])) if loc else "--queue"
        if loc and loc[0] == "queue" and len(loc) > 1:
            option = QUEUE_OPTIONS[str(loc[1])]
        raise CommandRefused(f"{option} ({location(loc)}): {problem['msg']}", code="SALE_RULES_INVALID") from None
    rules: SaleRecord = entry.model_dump()  # type: ignore[assignment]
    return rules


def verify_draw(args: argparse.Namespace) -> int:
    """Check a draw.json by the published algorithm (domain.orders.draw): 0 when it checks, else 1."""
    try:
        published = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CommandRefused(f"{args.file}: {error}") from None
    if args.commitment:
        published["seedCommitment"] = args.commitment
    problems = draw.check(published)
    if problems:
        raise CommandRefused("; ".join(problems), code="DRAW_DOES_NOT_CHECK")
    entries = len(published["entries"])
    print_result({"checks": True, "entries": entries}, [f"draw checks: {entries} entries"], as_json=args.json)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.action == "verify-draw":
        return verify_draw(args)
    if args.action == "show":
        car = store.find_car_sale(args.car)
        if car is None:
            raise CommandRefused(f"no car {args.car}")
        overrides = {str(m["_id"]): m["sale"] for m in car.get("modifications", []) if m.get("sale")}
        shown = {"sale": car.get("sale"), "saleStartsAt": car.get("saleStartsAt"), "modifications": overrides}
        print_result(shown, [to_json(shown)], as_json=args.json)
        return 0
    rules = rules_of(args) if args.action == "set" else None
    change = set_rules(args.car, rules, modification_id=args.modification, by=who(args), cause=args.cause)
    if rules is not None and rules.get("queue"):
        openings.open_queue(args.car)  # the seed's commitment is public before anyone registers
    where = f"modification {args.modification} of car {args.car}" if args.modification else f"car {args.car}"
    print_result(
        change, [f"sale rules of {where}: {to_json(change['before'])} -> {to_json(change['after'])}"], as_json=args.json
    )
    return 0
