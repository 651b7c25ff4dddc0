"""`make bench ARGS=--opening-model` (python -m tools bench --opening-model): a fair opening at national
scale, modelled in virtual time (no server, no database; a second of the model costs microseconds).

PEOPLE registered people (1,000,000) for UNITS units (100,000), with the deployed limits read from the
template's prod parameters (samconfig.toml: the order and login throttles, ReservedConcurrency) and the
service's measured costs (MODEL's fields: an order's duration, the stock's sales a second split into
buckets, a Lambda instance's MongoDB connections). From the draw, each second:

- every person polls status.json every POLL_SECONDS from CloudFront; the origin (the bucket) is asked
  once a second per file per edge location serving them, never the API;
- the controller (domain.orders.pacing) admits at most the pace, never past the units left less the
  admitted who have not ordered, halving the pace in a second whose orders exceed what the stock sells
  (DATA_BUSY) and raising it a tenth back when they do not;
- an admitted person orders after a think time (most within a minute) or never (NEVER_ORDER), through
  the order throttle (a request over it is a 429, tried again a second later); an order takes a unit for
  ORDER_SECONDS of a function (Little's law gives the concurrent functions); a fifth never pay and
  their units come back when the hold ends, to the next people in the queue.

It prints the API's requests a second (orders, and the sign-ins of admitted people whose session ended),
the origin's (S3) requests a second, the concurrent order functions, the MongoDB connections of the
functions an opening keeps busy, and the time to sell out, with the peak of each.
"""

from __future__ import annotations

import random
import shlex
import tomllib
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_PEOPLE = 1_000_000
DEFAULT_UNITS = 100_000


def prod_parameters() -> dict[str, str]:
    """The prod environment's deploy parameters (samconfig.toml)."""
    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    given = config["prod"]["deploy"]["parameters"]["parameter_overrides"]
    return dict(item.split("=", 1) for item in shlex.split(given))


@dataclass(frozen=True)
class OpeningModel:
    people: int = DEFAULT_PEOPLE
    units: int = DEFAULT_UNITS
    admission_per_second: int = 80  # the queue's admissionPerSecond: below the order throttle
    order_rate: int = 100  # OrderThrottleRate (prod)
    order_burst: int = 30  # OrderThrottleBurst (prod)
    login_rate: int = 100  # LoginThrottleRate (prod)
    reserved_concurrency: int = 30  # ReservedConcurrency (prod): instances per function
    order_seconds: float = 0.2  # an order's duration on a warm instance (docs/PERFORMANCE.md)
    stock_sales_per_second: int = 250  # one configuration split into 16-32 buckets (measured 110-252/s)
    connections_per_instance: int = 4  # one pooled + one monitor per replica-set member (3)
    busy_functions: int = 3  # Orders, Sales (entries/me), SaleAdmission: what an opening keeps running
    poll_seconds: int = 5  # how often each person polls status.json
    edge_locations: int = 60  # CloudFront locations serving the country's buyers (each asks the bucket)
    admission_minutes: int = 15
    hold_minutes: int = 10  # the car's holdMinutes: an unpaid order's unit comes back after it
    never_order: float = 0.1  # admitted people who never order (their admission passes)
    never_pay: float = 0.2  # ordered people who never pay (their hold ends)
    session_lost: float = 0.05  # admitted people whose session ended: they sign in again first
    seed: int = 45

    @classmethod
    def deployed(cls, people: int, units: int) -> OpeningModel:
        given = prod_parameters()
        return cls(
            people=people,
            units=units,
            order_rate=int(given["OrderThrottleRate"]),
            order_burst=int(given["OrderThrottleBurst"]),
            login_rate=int(given["LoginThrottleRate"]),
            reserved_concurrency=int(given["ReservedConcurrency"]),
        )


@dataclass
class OpeningOutcome:
    seconds: int = 0
    sold: int = 0
    admitted: int = 0
    came_back: int = 0
    throttled: int = 0
    busy_seconds: int = 0
    peak_api_per_second: int = 0
    peak_origin_per_second: int = 0
    peak_status_per_second: int = 0
    peak_order_functions: float = 0.0
    peak_connections: int = 0
    unsold_left: int = 0
    most_held_at: int = 0  # the second 99 % of the units were first held at once


class Opening:
    """The opening's state, one `second` at a time."""

    def __init__(self, model: OpeningModel) -> None:
        self.model = model
        self.rng = random.Random(model.seed)  # noqa: S311 (a model's draws, the same on every run)
        self.out = OpeningOutcome()
        self.stock = model.units  # units left to take
        self.serving = 0  # servingUpTo
        self.pace, self.credit = float(model.admission_per_second), 0.0
        self.tokens = float(model.order_burst)  # the order throttle's bucket
        self.orders_at: dict[int, int] = {}  # second -> orders attempted then
        self.admitted_open: deque[tuple[int, bool]] = deque()  # (admission ends, will order), not yet ordered
        self.returns_at: dict[int, int] = {}  # second -> units whose unpaid hold ends then
        self.unpaid_holds = 0
        self.retry = 0  # orders throttled last second, tried again

    def give_back(self, second: int) -> None:
        """Units of holds that ended unpaid are back; admissions that passed unused end (MISSED)."""
        back = self.returns_at.pop(second, 0)
        self.stock += back
        self.unpaid_holds -= back
        self.out.came_back += back
        while self.admitted_open and self.admitted_open[0][0] <= second:
            self.admitted_open.popleft()

    def admit(self, second: int) -> int:
        """The controller's step: at most the pace, never past the units left less the admitted unordered."""
        model = self.model
        room = self.stock - len(self.admitted_open)
        self.credit += self.pace
        admit = max(0, min(int(self.credit), room, model.people - self.serving))
        self.credit = min(self.credit - admit, float(model.admission_per_second)) if admit or room > 0 else 0.0
        for _ in range(admit):
            orders = self.rng.random() >= model.never_order
            at = second + int(self.rng.expovariate(1 / 20)) + 3  # think time: most within a minute
            if orders:
                self.orders_at[at] = self.orders_at.get(at, 0) + 1
            self.admitted_open.append((second + model.admission_minutes * 60, orders))
        self.serving += admit
        self.out.admitted += admit
        return admit

    def order(self, second: int) -> int:
        """Orders through the throttle (a 429 tries again next second); each takes a unit while one is left."""
        model = self.model
        available = self.tokens + model.order_rate  # a second's refill on what the bucket kept
        wanting = self.orders_at.pop(second, 0) + self.retry
        through = min(wanting, int(available))
        self.tokens = min(float(model.order_burst), available - through)
        self.retry = wanting - through
        self.out.throttled += self.retry
        taken = min(through, self.stock)
        self.stock -= taken
        for _ in range(taken):
            ordered = next((n for n, (_, will_order) in enumerate(self.admitted_open) if will_order), None)
            if ordered is not None:
                del self.admitted_open[ordered]
            if self.rng.random() < model.never_pay:
                self.unpaid_holds += 1
                ends = second + model.hold_minutes * 60
                self.returns_at[ends] = self.returns_at.get(ends, 0) + 1
        if self.stock <= model.units // 100 and not self.out.most_held_at:
            self.out.most_held_at = second + 1
        # The pace: halved in a second whose orders exceed what the stock sells (DATA_BUSY), else raised back
        busy = through > model.stock_sales_per_second
        self.out.busy_seconds += busy
        calm = min(float(model.admission_per_second), self.pace + model.admission_per_second / 10)
        self.pace = max(1.0, self.pace / 2) if busy else calm
        return through

    def account(self, admitted: int, orders: int) -> None:
        """What reached the API, the functions and the database this second (peaks)."""
        model, out = self.model, self.out
        sign_ins = min(model.login_rate, round(admitted * model.session_lost))
        functions = orders * model.order_seconds  # Little's law
        instances = min(model.reserved_concurrency, max(1, round(functions + 0.5)))
        connections = (instances + model.busy_functions - 1) * model.connections_per_instance
        out.peak_api_per_second = max(out.peak_api_per_second, orders + sign_ins)
        out.peak_order_functions = max(out.peak_order_functions, functions)
        out.peak_connections = max(out.peak_connections, connections)
        out.peak_status_per_second = model.people // model.poll_seconds
        out.peak_origin_per_second = 2 * model.edge_locations  # status.json and draw.json, once a second each

    def over(self) -> bool:
        """Sold out (no unit left and none can come back), or nobody left who may buy."""
        if self.stock == 0 and self.unpaid_holds == 0:
            return True
        return self.serving >= self.model.people and not (self.admitted_open or self.orders_at or self.retry)


def simulate(model: OpeningModel, *, limit_seconds: int = 6 * 3600) -> OpeningOutcome:
    """Run the opening second by second until it is over (or `limit_seconds`)."""
    opening = Opening(model)
    for second in range(limit_seconds):
        opening.give_back(second)
        admitted = opening.admit(second)
        orders = opening.order(second)
        opening.account(admitted, orders)
        opening.out.seconds = second + 1
        if opening.over():
            break
    out = opening.out
    out.sold = model.units - opening.stock - opening.unpaid_holds
    out.unsold_left = opening.stock
    return out


def minutes(seconds: int) -> str:
    return f"{seconds // 60} min {seconds % 60:02d} s"


def report(model: OpeningModel, out: OpeningOutcome) -> list[str]:
    return [
        f"A fair opening modelled in virtual time: {model.people:,} people, {model.units:,} units",
        f"deployed limits (samconfig prod): orders {model.order_rate}/s burst {model.order_burst}, "
        f"sign-in {model.login_rate}/s, ReservedConcurrency {model.reserved_concurrency}; "
        f"admissionPerSecond {model.admission_per_second}, holds {model.hold_minutes} min, "
        f"{model.never_order:.0%} never order, {model.never_pay:.0%} never pay",
        "",
        f"status polls answered by CloudFront:   {out.peak_status_per_second:>10,}/s  (everyone every "
        f"{model.poll_seconds} s; none reaches Lambda or MongoDB)",
        f"origin requests (S3, 1 s cache):       {out.peak_origin_per_second:>10,}/s  "
        f"({model.edge_locations} edge locations x 2 files)",
        f"API requests (orders + sign-ins):      {out.peak_api_per_second:>10,}/s  peak",
        f"concurrent order functions:            {out.peak_order_functions:>10.1f}    peak "
        f"(orders/s x {model.order_seconds} s)",
        f"MongoDB connections (busy functions):  {out.peak_connections:>10,}    peak "
        f"({model.connections_per_instance} per instance)",
        f"people admitted:                       {out.admitted:>10,}",
        f"units sold (paid) / came back:         {out.sold:>10,} / {out.came_back:,}",
        f"orders throttled (429, retried):       {out.throttled:>10,}",
        f"seconds with DATA_BUSY (pace halved):  {out.busy_seconds:>10,}",
        f"99 % of the units held at once:        {minutes(out.most_held_at):>14}",
        f"time to sell out (none can come back): {minutes(out.seconds):>14}  (holds of "
        f"{model.hold_minutes} min: each round returns a fifth of the last)",
    ]


def run(people: int, units: int) -> list[str]:
    model = OpeningModel.deployed(people, units)
    return report(model, simulate(model))
