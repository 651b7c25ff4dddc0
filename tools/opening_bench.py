"""`make bench ARGS=--opening` (python -m tools bench --opening): a fair opening through HTTP, as its buyers
meet it (issue 45, item 9; the same opening at national scale is `--opening-model`, tools/opening_model.py).

On the bench's own freshly seeded database (`tools.bench.bench_database`: a real mongod), `python -m local
serve` runs with W worker processes and its scheduled jobs as `make run` runs them (the SaleAdmission
controller stepping each second, the unpaid orders' expiry every minute): `tools.sale_bench.local_server`.
Then, as an operator and E buyers would:

1. E buyers sign in through the demo partner and verify as E distinct people (the sandbox identity
   provider): `tools.sale_bench.login_buyers`.
2. The operator's commands, in this process: `ops sale set CAR --verified-only --hold-minutes 1 --queue
   --registration-opens-at NOW --admission-per-second P --admission-minutes 5` (the seed's commitment is
   published at once), with the draw (`--starts-at`) set far enough ahead for everyone to register (twice
   what the sign-ins' pace says registering takes), and `ops stock set … S --buckets K`: the car's only
   units, one configuration. Every other stock row of the car is emptied first.
3. Everyone registers (`POST /api/v1/sales/{carId}/entries`) before the draw; arrival is the server's
   `registeredAt`.
4. The opening: each person polls `/sales/{carId}/status.json` (served by the local gateway from the edge
   files' folder, as CloudFront serves the bucket) every POLL_SECONDS; once the seed is published, asks its
   place once (`GET …/entries/me`); when `servingUpTo` reaches it, orders (`POST /api/v1/orders`, cash)
   and pays in full with the sandbox card (`/transactions/create` and `/apply`), except a fifth, who never
   pay: the people at positions 1, 6, 11… (positions are drawn, so that is a random fifth). Their holds
   end after the sale's `holdMinutes` (1, the least the rules take: real minutes, no clock is moved), the
   expiry job gives the units back, and the controller admits the next people for them. A watcher polls
   the status every WATCH_SECONDS for the moments: the draw, the first admission, soldOut.

Printed: units sold, oversold, lost (stock + held + sold = initial), the Spearman rank correlation of
arrival and position over the drawn entries, MongoDB commands per status poll and per admitted order
(every worker's answer says what serving it sent: X-Local-Mongo-Commands, local/workers.py), p50/p99 of a
status answer and of an admitted order, attempts per sale on the hottest stock document (mongod's profiler
records every `findAndModify` on the stock, a write conflict included), DATA_BUSY answers, whether every
unit that came back went to a person admitted after it came back and later in the queue, the seconds from
the last payment (the last unit kept, none able to come back) to soldOut, and the time to sell out.

Loopback only; every wait is bounded (the server's start, each request, the opening: OPENING_TIMEOUT_S).
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from bson import ObjectId
from pymongo import MongoClient

from domain.orders.states import UNPAID_VALUES, StockHold
from local.template import ROOT
from tools import sale_bench
from tools.sale_bench import Configuration, Db, Exchange, exchange, json_of, percentile

DEFAULT_ENTRIES = 3000
DEFAULT_UNITS = 300
DEFAULT_WORKERS = 3
DEFAULT_BUCKETS = 16  # what a queued car's stock gets unless told otherwise (ops stock set)
DEFAULT_ADMISSION_PER_SECOND = 30
HOLD_MINUTES = 1  # the least a sale's holdMinutes may be
ADMISSION_MINUTES = 5
NEVER_PAY_EVERY = 5  # positions 1, 6, 11...: a fifth of the people never pay
POLL_SECONDS = 5.0  # how often each person polls status.json (the model's)
WATCH_SECONDS = 0.25
RETRY_SECONDS = 1.0  # an answer's Retry-After (DATA_BUSY, 429), or a refused connection
CROWD_THREADS = 12
POLL_CONCURRENCY = 4  # of the crowd's threads, how many may be polling at once (orders go first)
OPENING_TIMEOUT_S = 1800.0  # from the end of registration to everyone's last answer
DRAW_MARGIN_S = 15.0  # the draw's moment after the registrations' expected end, beyond twice their time
SOLD_OUT_TARGET_S = 15.0
CARD = {"cardNumber": "8600495473316478", "expiry": "12/39", "cardType": "UZCARD"}  # the sandbox's paying card
OTP = 666666  # the sandbox's code
COMMANDS_HEADER = "x-local-mongo-commands"  # local.workers.MONGO_COMMANDS_HEADER, as http.client lowers it
WRITE_CONFLICT = 112
# The server's settings beside tools.sale_bench's: the opening outlasts an access token's 15 minutes (a
# buyer's app would refresh it; the bench measures the opening, not the refresh).
SERVER_ENV = {"ACCESS_TOKEN_TTL_SECONDS": "7200"}


class State(StrEnum):
    WAITING = "waiting"  # polling
    ORDERING = "ordering"  # admitted: ordering or paying
    PAID = "paid"
    NEVER_PAID = "never paid"  # ordered and let the hold end
    SOLD_OUT = "sold out"  # told soldOut before its turn
    MISSED = "missed"  # its admission passed unused
    REFUSED = "refused"  # an order or a payment refused for another reason (printed by code)


DONE = frozenset(State) - {State.WAITING, State.ORDERING}


@dataclass
class Person:
    index: int
    token: str
    entry_id: str
    position: int | None = None
    state: State = State.WAITING
    order: dict[str, Any] = field(default_factory=dict)

    @property
    def pays(self) -> bool:
        return self.position is None or self.position % NEVER_PAY_EVERY != 1


@dataclass
class Timeline:
    """What the watcher saw of the status, in monotonic seconds."""

    drawn: float | None = None
    first_admitted: float | None = None
    sold_out: float | None = None
    refreshed: list[str] = field(default_factory=list)  # status.json's updatedAt, each new one seen (the steps)


@dataclass
class Tally:
    """The crowd's answers: latencies, MongoDB commands, codes."""

    poll_seconds: list[float] = field(default_factory=list)
    poll_commands: list[int] = field(default_factory=list)
    order_seconds: list[float] = field(default_factory=list)
    order_commands: list[int] = field(default_factory=list)
    codes: Counter[str] = field(default_factory=Counter)  # refusals, "METHOD path STATUS CODE"
    data_busy: int = 0
    connection_errors: int = 0
    last_paid: float | None = None
    last_ordered: float | None = None


def commands_of(answer: Exchange) -> int:
    return int(answer.headers.get(COMMANDS_HEADER, "0"))


class Crowd:
    """E people, each a little state machine, run by CROWD_THREADS threads: due actions (asking one's
    place, ordering, paying) first, then due polls (at most POLL_CONCURRENCY at once)."""

    def __init__(self, port: int, car_id: ObjectId, order_body: dict[str, Any], people: list[Person]) -> None:
        self.port = port
        self.status_path = f"/sales/{car_id}/status.json"
        self.me_path = f"/api/v1/sales/{car_id}/entries/me"
        self.order_body = order_body
        self.people = people
        self.tally = Tally()
        self.timeline = Timeline()
        self.cv = threading.Condition()
        self.actions: list[tuple[float, int, str, int]] = []  # (due, seq, action, person)
        self.polls: list[tuple[float, int, int]] = []  # (due, seq, person)
        self.seq = itertools.count()
        self.in_flight = 0
        self.polling = 0
        self.stopped = False

    # --- scheduling ---------------------------------------------------------------------------------

    def act(self, person: Person, action: str, delay: float = 0.0) -> None:
        with self.cv:
            heapq.heappush(self.actions, (time.monotonic() + delay, next(self.seq), action, person.index))
            self.cv.notify()

    def poll_later(self, person: Person, delay: float = POLL_SECONDS) -> None:
        with self.cv:
            heapq.heappush(self.polls, (time.monotonic() + delay, next(self.seq), person.index))
            self.cv.notify()

    def finished(self) -> bool:
        return not self.actions and not self.polls and self.in_flight == 0

    def next_job(self) -> tuple[str, Person] | None:
        """The next due job, waiting for one; None once everyone is done or the crowd is stopped."""
        with self.cv:
            while not self.stopped:
                now = time.monotonic()
                if self.actions and self.actions[0][0] <= now:
                    _, _, action, index = heapq.heappop(self.actions)
                    self.in_flight += 1
                    return action, self.people[index]
                if self.polls and self.polls[0][0] <= now and self.polling < POLL_CONCURRENCY:
                    _, _, index = heapq.heappop(self.polls)
                    self.in_flight += 1
                    self.polling += 1
                    return "poll", self.people[index]
                if self.finished():
                    self.stopped = True
                    self.cv.notify_all()
                    return None
                dues = [queue[0][0] for queue in (self.actions, self.polls) if queue]
                self.cv.wait(timeout=min(1.0, max(0.005, min(dues, default=now + 1.0) - now)))
            return None

    def done_with(self, job: str) -> None:
        with self.cv:
            self.in_flight -= 1
            if job == "poll":
                self.polling -= 1
            self.cv.notify_all()

    def work(self) -> None:
        steps: dict[str, Callable[[Person], None]] = {
            "poll": self.poll,
            "place": self.ask_place,
            "order": self.place_order,
            "pay": self.pay,
        }
        while (job := self.next_job()) is not None:
            action, person = job
            try:
                steps[action](person)
            except OSError:  # the server refused or dropped the connection: the same step a moment later
                with self.cv:
                    self.tally.connection_errors += 1
                if action == "poll":
                    self.poll_later(person, RETRY_SECONDS)
                else:
                    self.act(person, action, RETRY_SECONDS)
            finally:
                self.done_with(action)

    def run(self, deadline: float) -> None:
        """Everyone polls from now until done (sold, sold out, or told why not); SystemExit past `deadline`."""
        for person in self.people:
            self.poll_later(person, delay=POLL_SECONDS * person.index / len(self.people))  # spread over a period
        threads = [threading.Thread(target=self.work, name=f"crowd-{n}", daemon=True) for n in range(CROWD_THREADS)]
        watcher = threading.Thread(target=self.watch, name="watcher", daemon=True)
        for thread in [*threads, watcher]:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        with self.cv:
            late = not self.stopped
            self.stopped = True
            self.cv.notify_all()
        watcher.join(timeout=sale_bench.REQUEST_TIMEOUT_S)
        if late:
            states = Counter(person.state.value for person in self.people)
            raise SystemExit(
                f"the opening did not end within {OPENING_TIMEOUT_S:.0f} s: people {dict(states)}, "
                f"watcher saw {self.timeline}"
            )

    def get(self, path: str, token: str | None = None) -> tuple[Exchange, float]:
        started = time.perf_counter()
        answer = exchange(self.port, "GET", path, token=token)
        return answer, time.perf_counter() - started

    def post(self, path: str, body: dict[str, Any], token: str) -> tuple[Exchange, float]:
        started = time.perf_counter()
        answer = exchange(self.port, "POST", path, body, token)
        return answer, time.perf_counter() - started

    def refused(self, person: Person, what: str, answer: Exchange) -> None:
        code = json_of(answer.body).get("code") or "-"
        with self.cv:
            self.tally.codes[f"{what} {answer.status} {code}"] += 1
        person.state = State.REFUSED

    # --- the steps ----------------------------------------------------------------------------------

    def status(self) -> dict[str, Any] | None:
        """status.json as a buyer polls it; None when it cannot be read."""
        answer, seconds = self.get(self.status_path)
        with self.cv:
            self.tally.poll_seconds.append(seconds)
            self.tally.poll_commands.append(commands_of(answer))
        return json_of(answer.body) if answer.status == 200 else None

    def watch(self) -> None:
        """The moments of the opening, seen as a buyer sees them."""
        while not self.stopped:
            try:
                found = self.status()
            except OSError:
                found = None
            now = time.monotonic()
            if found is not None:
                if self.timeline.drawn is None and found.get("seed"):
                    self.timeline.drawn = now
                if self.timeline.first_admitted is None and found.get("servingUpTo", 0) > 0:
                    self.timeline.first_admitted = now
                if self.timeline.sold_out is None and found.get("soldOut"):
                    self.timeline.sold_out = now
                stamped = found.get("updatedAt")
                if self.timeline.drawn is not None and stamped and stamped not in self.timeline.refreshed[-1:]:
                    self.timeline.refreshed.append(stamped)
            time.sleep(WATCH_SECONDS)

    def poll(self, person: Person) -> None:
        found = self.status()
        if found is None:
            self.poll_later(person)
        elif found.get("soldOut"):
            person.state = State.SOLD_OUT
        elif person.position is None and found.get("seed"):
            self.act(person, "place")
        elif person.position is not None and found.get("servingUpTo", 0) >= person.position:
            self.act(person, "order")
        else:
            self.poll_later(person)

    def ask_place(self, person: Person) -> None:
        answer, _ = self.get(self.me_path, person.token)
        if answer.status != 200:
            self.refused(person, "GET entries/me", answer)
            return
        entry = json_of(answer.body)["data"]
        person.position = entry["position"]
        if entry["status"] == "ADMITTED":
            self.act(person, "order")
        elif entry["status"] == "SOLD_OUT":
            person.state = State.SOLD_OUT
        elif entry["status"] == "MISSED":
            person.state = State.MISSED
        else:
            self.poll_later(person, 0.0)

    def place_order(self, person: Person) -> None:
        person.state = State.ORDERING
        answer, seconds = self.post(sale_bench.ORDERS, self.order_body, person.token)
        code = json_of(answer.body).get("code")
        with self.cv:
            self.tally.order_seconds.append(seconds)
            self.tally.order_commands.append(commands_of(answer))
            if code == "DATA_BUSY":
                self.tally.data_busy += 1
        if answer.status == 201:
            person.order = json_of(answer.body)["data"]
            with self.cv:
                self.tally.last_ordered = time.monotonic()
            if person.pays:
                self.act(person, "pay")
            else:
                person.state = State.NEVER_PAID
        elif answer.status in (429, 503):  # DATA_BUSY, or a throttle: again after its Retry-After
            self.act(person, "order", RETRY_SECONDS)
        elif code == "ADMISSION_EXPIRED":
            person.state = State.MISSED
        elif code == "NOT_YOUR_TURN":  # the status ran ahead of the entry (never expected): poll again
            self.refused(person, "POST orders", answer)
            person.state = State.WAITING
            self.poll_later(person)
        else:
            self.refused(person, "POST orders", answer)

    def pay(self, person: Person) -> None:
        order = person.order
        target = {"amount": order["amountDueNow"], "brandId": order["brandId"], "orderId": order["_id"]}
        created, _ = self.post("/api/v1/transactions/create", {**target, **CARD}, person.token)
        if created.status in (429, 503):
            self.act(person, "pay", RETRY_SECONDS)
            return
        if created.status != 200:
            self.refused(person, "POST transactions/create", created)
            return
        transaction = json_of(created.body)["data"]["transactionId"]
        applied, _ = self.post(
            "/api/v1/transactions/apply", {**target, "transactionId": transaction, "otp": OTP}, person.token
        )
        if applied.status != 200:
            self.refused(person, "POST transactions/apply", applied)
            return
        person.state = State.PAID
        with self.cv:
            self.tally.last_paid = time.monotonic()


# --- the setting up -------------------------------------------------------------------------------------


def operator(*argv: str) -> None:
    """One operator command, `python -m ops …`, on the bench's database (this process's environment);
    SystemExit with its error line when it is refused."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
    }
    done = subprocess.run(  # noqa: S603 (this interpreter, our command)
        [sys.executable, "-m", "ops", *argv], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"python -m ops {' '.join(argv[:2])} failed: {done.stderr.strip()[-500:]}")


def empty_other_stock(db: Db, configuration: Configuration) -> None:
    """Every stock row of the car but the configuration's at 0: the opening's units are its own."""
    db.stock.update_many({"carId": configuration.car_id}, {"$set": {"quantity": 0}})
    db.stock_buckets.delete_many({"carId": configuration.car_id})


def open_sale(configuration: Configuration, *, units: int, buckets: int, pace: int, draw_at: datetime) -> None:
    """The operator's queue and stock for the opening (ops sale set, ops stock set)."""
    now = datetime.now(UTC).replace(microsecond=0)
    operator(
        "sale",
        "set",
        str(configuration.car_id),
        "--starts-at",
        draw_at.isoformat(),
        "--hold-minutes",
        str(HOLD_MINUTES),
        "--verified-only",
        "--queue",
        "--registration-opens-at",
        now.isoformat(),
        "--admission-per-second",
        str(pace),
        "--admission-minutes",
        str(ADMISSION_MINUTES),
        "--cause",
        "make bench ARGS=--opening",
    )
    operator(
        "stock",
        "set",
        str(configuration.branch_id),
        str(configuration.modification_id),
        str(configuration.color_id),
        str(units),
        "--buckets",
        str(buckets),
        "--cause",
        "make bench ARGS=--opening",
    )


def register(port: int, car_id: ObjectId, tokens: Sequence[str]) -> list[Person]:
    """Everyone's entry, registered from SIGN_IN_THREADS threads."""
    from concurrent.futures import ThreadPoolExecutor

    path = f"/api/v1/sales/{car_id}/entries"

    def one(index: int) -> Person:
        status, answer = sale_bench.request(port, "POST", path, None, tokens[index])
        if status != 201 or answer["data"]["status"] != "REGISTERED":
            raise SystemExit(f"registering buyer {index} answered {status}: {answer.get('code') or answer}")
        return Person(index=index, token=tokens[index], entry_id=answer["data"]["entryId"])

    with ThreadPoolExecutor(max_workers=sale_bench.SIGN_IN_THREADS) as pool:
        return list(pool.map(one, range(len(tokens))))


def profile_stock(db: Db) -> None:
    """mongod's profiler on, for every findAndModify on the stock (a write conflict's too), in a collection
    big enough for the opening."""
    db.command("profile", 0)
    db.drop_collection("system.profile")
    db.create_collection("system.profile", capped=True, size=256 * 1024 * 1024)
    db.command("profile", 2, filter={"op": "command", "command.findAndModify": {"$in": ["stock", "stock_buckets"]}})


# --- the figures -----------------------------------------------------------------------------------------


def ranks(values: Sequence[Any]) -> list[float]:
    """Each value's rank, 1 for the least, ties given the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda index: values[index])
    ranked = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            ranked[index] = (start + end) / 2 + 1
        start = end + 1
    return ranked


def spearman(xs: Sequence[Any], ys: Sequence[Any]) -> float:
    """Spearman's rank correlation (Pearson's of the ranks; 0 for fewer than two values or no spread)."""
    if len(xs) < 2:
        return 0.0
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    spread = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / spread if spread else 0.0


@dataclass(frozen=True)
class Returned:
    """A unit that came back (its order expired) and who held it."""

    at: datetime
    position: int


@dataclass(frozen=True)
class Taken:
    """An order's unit and who took it: admitted when, at which position."""

    admitted_at: datetime
    position: int


def returns_resold(returned: Sequence[Returned], taken: Sequence[Taken]) -> int:
    """How many of the units that came back went each to an order of its own by a person admitted after it
    came back and later in the queue than its holder. Latest return first: the orders that fit a later
    return fit every earlier one whose holder is before them, so taking any that fits is as good as any."""
    free = sorted(taken, key=lambda order: order.admitted_at)
    matched = 0
    for unit in sorted(returned, key=lambda unit: unit.at, reverse=True):
        for n in range(len(free) - 1, -1, -1):
            if free[n].admitted_at > unit.at and free[n].position > unit.position:
                del free[n]
                matched += 1
                break
    return matched


@dataclass(frozen=True)
class StockDocument:
    """One stock document's findAndModify commands in the opening (mongod's profiler)."""

    name: str
    takes: int  # a unit taken (its transaction may still have been retried)
    conflicts: int  # WriteConflict: another transaction held it
    empty: int  # found no unit
    sales: int  # orders whose unit came from it

    @property
    def attempts(self) -> int:
        return self.takes + self.conflicts


def stock_documents(db: Db, orders: Sequence[dict[str, Any]]) -> list[StockDocument]:
    """The stock documents the opening's orders took units from, with their findAndModify outcomes."""
    outcomes: dict[str, Counter[str]] = {}
    for entry in db["system.profile"].find({"op": "command", "command.findAndModify": {"$exists": True}}):
        command = entry["command"]
        if command["findAndModify"] == "stock":
            name = "bucket 0 (the stock row)"
        elif command["findAndModify"] == "stock_buckets":
            name = f"bucket {command['query'].get('bucket')}"
        else:
            continue
        if entry.get("errCode") == WRITE_CONFLICT:
            outcome = "conflicts"
        else:
            outcome = "takes" if entry.get("nModified") else "empty"
        outcomes.setdefault(name, Counter())[outcome] += 1
    sales = Counter(
        "bucket 0 (the stock row)" if not order.get("stockBucket") else f"bucket {order['stockBucket']}"
        for order in orders
    )
    return [
        StockDocument(name, found["takes"], found["conflicts"], found["empty"], sales[name])
        for name, found in sorted(outcomes.items())
    ]


def units_in_stock(db: Db, car_id: ObjectId) -> tuple[int, int]:
    """The car's units in stock (every row and bucket) and the units below 0 (a bucket oversold)."""
    quantities = [
        int(row.get("quantity", 0))
        for stored in (db.stock, db.stock_buckets)
        for row in stored.find({"carId": car_id}, {"quantity": 1})
    ]
    return sum(quantity for quantity in quantities if quantity > 0), -sum(q for q in quantities if q < 0)


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def milliseconds(values: Sequence[float], fraction: float) -> str:
    return f"{percentile(sorted(values), fraction) * 1000:.0f} ms"


def per(total: int, count: int) -> str:
    return f"{total / count:.2f}" if count else "-"


def figures(db: Db, configuration: Configuration, crowd: Crowd, *, units: int, registered_at: float) -> list[str]:
    """What the opening did, from the crowd's answers and the database afterwards."""
    car_id = configuration.car_id
    orders = list(db.orders.find({"carId": car_id}))
    entries = {entry["userId"]: entry for entry in db.sale_entries.find({"carId": car_id})}
    holding = [order for order in orders if order.get("stockHold") in (StockHold.HELD, StockHold.SOLD)]
    held = sum(1 for order in holding if order["statusSlug"] in UNPAID_VALUES)
    sold = len(holding) - held
    stock, below_zero = units_in_stock(db, car_id)
    oversold = max(0, held + sold - units) + below_zero
    lost = units - (stock + held + sold)
    drawn = [entry for entry in entries.values() if not entry.get("late") and entry.get("position") is not None]
    correlation = spearman([entry["registeredAt"] for entry in drawn], [entry["position"] for entry in drawn])
    returned = [
        Returned(at=order.get("expiredAt") or order["updatedAt"], position=entries[order["userId"]]["position"])
        for order in orders
        if order.get("stockHold") == "RETURNED"
    ]
    taken = [
        Taken(admitted_at=entry["admittedAt"], position=entry["position"])
        for order in orders
        if (entry := entries.get(order["userId"], {})).get("admittedAt") is not None
    ]
    resold = returns_resold(returned, taken)
    outside = sum(1 for order in orders if entries.get(order["userId"], {}).get("orderId") != order["_id"])
    documents = stock_documents(db, orders)
    hottest = max(documents, key=lambda document: document.attempts, default=None)
    tally, timeline = crowd.tally, crowd.timeline
    last_kept = max((moment for moment in (tally.last_paid, tally.last_ordered) if moment is not None), default=None)
    to_sold_out = timeline.sold_out - last_kept if timeline.sold_out is not None and last_kept is not None else None
    gaps = refresh_gaps(timeline.refreshed)
    states = Counter(person.state.value for person in crowd.people)
    refusals = ", ".join(f"{code} x{n}" for code, n in sorted(tally.codes.items()))
    polls = len(tally.poll_commands)
    lines = [
        f"units sold (paid):                  {sold} of {units}",
        f"oversold:                           {oversold}",
        f"units lost:                         {lost}  (stock {stock} + held {held} + sold {sold} = {units} initial)",
        f"rank correlation arrival/position:  {correlation:+.4f}  (Spearman, {len(drawn)} drawn entries)",
        f"MongoDB commands per status poll:   {per(sum(tally.poll_commands), polls)}  "
        f"({sum(tally.poll_commands)} in {polls} polls)",
        f"MongoDB commands per admitted order: {per(sum(tally.order_commands), len(tally.order_commands))}",
        f"status answer p50 / p99:            {milliseconds(tally.poll_seconds, 0.5)} / "
        f"{milliseconds(tally.poll_seconds, 0.99)}",
        f"admitted order p50 / p99:           {milliseconds(tally.order_seconds, 0.5)} / "
        f"{milliseconds(tally.order_seconds, 0.99)}  ({len(tally.order_seconds)} orders)",
    ]
    if hottest is not None:
        lines.append(
            f"attempts per sale, hottest stock document: {per(hottest.attempts, hottest.sales)}  ({hottest.name}: "
            f"{hottest.takes} takes + {hottest.conflicts} write conflicts for {hottest.sales} sales; "
            f"{hottest.empty} found it empty)"
        )
        lines.append(
            f"attempts per sale, every stock document: {per(sum(d.attempts for d in documents), len(orders))}  "
            f"({len(documents)} documents, {sum(d.conflicts for d in documents)} write conflicts)"
        )
    lines += [
        f"DATA_BUSY answers:                  {tally.data_busy}",
        f"units that came back:               {len(returned)}, resold to a later person admitted after: "
        f"{resold} ({'every one' if resold == len(returned) else 'NOT every one'})",
        f"orders outside the queue:           {outside}",
        f"last unit kept -> soldOut:          {seconds(to_sold_out)}"
        + (" (over 15 s)" if to_sold_out is not None and to_sold_out > SOLD_OUT_TARGET_S else ""),
        f"time to sell out:                   {seconds(_since(timeline.drawn, timeline.sold_out))} from the draw, "
        f"{seconds(_since(timeline.first_admitted, timeline.sold_out))} from the first admission",
        f"registration to the draw:           {seconds(_since(registered_at, timeline.drawn))}",
        f"status.json refreshed (a step):     p50 {seconds(percentile(sorted(gaps), 0.5) if gaps else None)}, "
        f"longest gap {seconds(max(gaps, default=None))} ({len(timeline.refreshed)} refreshes seen from the draw)",
        f"people:                             {', '.join(f'{state} {n}' for state, n in sorted(states.items()))}",
        f"refusals:                           {refusals or 'none'}; connection errors {tally.connection_errors}",
    ]
    return lines


def refresh_gaps(stamps: Sequence[str]) -> list[float]:
    """Seconds between the status's successive updatedAt (each a step of the controller)."""
    moments = [datetime.fromisoformat(stamp) for stamp in stamps]
    return [(later - earlier).total_seconds() for earlier, later in itertools.pairwise(moments)]


def _since(start: float | None, end: float | None) -> float | None:
    return end - start if start is not None and end is not None else None


# --- the opening ----------------------------------------------------------------------------------------


def opening(uri: str, database: str, *, entries: int, units: int, workers: int, buckets: int, pace: int) -> list[str]:
    """The fair opening on a seeded database (tools.bench.bench_database): the printed lines."""
    client: MongoClient[dict[str, Any]]
    with MongoClient(uri, tz_aware=True) as client:
        db: Db = client[database]
        [configuration] = sale_bench.configurations(db, 1)
        empty_other_stock(db, configuration)
        with sale_bench.local_server(uri, database, workers) as url:
            port = int(url.rsplit(":", 1)[1])
            started = time.monotonic()
            tokens = sale_bench.login_buyers(port, entries)
            signing_in = time.monotonic() - started
            # Registering is one request a person, signing in two: twice its expected time, and a margin.
            ahead = signing_in + DRAW_MARGIN_S
            draw_at = (datetime.now(UTC) + timedelta(seconds=ahead)).replace(microsecond=0)
            open_sale(configuration, units=units, buckets=buckets, pace=pace, draw_at=draw_at)
            people = register(port, configuration.car_id, tokens)
            if datetime.now(UTC) >= draw_at:
                raise SystemExit(f"registering {entries} people outlasted the draw's moment ({ahead:.0f} s ahead)")
            registered_at = time.monotonic()
            profile_stock(db)
            crowd = Crowd(port, configuration.car_id, configuration.body(), people)
            crowd.run(deadline=registered_at + OPENING_TIMEOUT_S)
            lines = figures(db, configuration, crowd, units=units, registered_at=registered_at)
            db.command("profile", 0)
    return [
        f"Fair opening through HTTP: {workers} worker processes (python -m local serve, its SaleAdmission and "
        f"expiry jobs), {entries} verified people for {units} units of one configuration in {buckets} stock buckets",
        f"admissionPerSecond {pace}, admissionMinutes {ADMISSION_MINUTES}, holdMinutes {HOLD_MINUTES}; positions "
        f"1, {1 + NEVER_PAY_EVERY}, {1 + 2 * NEVER_PAY_EVERY}... never pay; everyone polls status.json every "
        f"{POLL_SECONDS:.0f} s; signed in in {signing_in:.0f} s",
        "",
        *lines,
    ]
