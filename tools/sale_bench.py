"""`make bench ARGS=--sale` (python -m tools bench --sale): a sale opening through HTTP, as buyers meet it.

On the bench's own freshly seeded database (`tools.bench.bench_database`: a real mongod), `python -m local
serve` runs with several worker processes on a free loopback port, each one request at a time like a
Lambda instance (`local/workers.py`, as `make run` serves). K buyers (distinct phone numbers) sign in
through the demo partner first; then two waves, each released at once (a barrier) from K threads:

- the rush: every buyer orders the same configuration (car, modification, color, branch), which has S
  units in stock: S orders should be placed, every other buyer told 409 OUT_OF_STOCK;
- the spread: the same K buyers, each ordering a configuration of its own with one unit: K orders.

Before them, each worker is warmed with an order of a configuration that has none left (a 409: it stores
nothing). Per wave: the units sold (orders stored for its configurations, and what the stock says),
the statuses with the codes of the refusals, the p50 and p99 of the buyers' latencies (from the release
to the answer), and answers per second (K answers over the wave's wall time).

Loopback only; every wait is bounded (the server's start, each request, the run's end).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database

from local.template import ROOT

Db = Database[dict[str, Any]]

DEFAULT_BUYERS = 300
DEFAULT_UNITS = 50
DEFAULT_WORKERS = 3  # the measurement: three API processes over one replica set
HOST = "127.0.0.1"  # loopback only
START_TIMEOUT_S = 120.0
REQUEST_TIMEOUT_S = 120.0
SIGN_IN_THREADS = 8
STOP_TIMEOUT_S = 30.0
ORDERS = "/api/v1/orders"
LOGIN = "/api/v1/auth/login"
VERIFY = "/api/v1/users/limit"
PHONE_PREFIX = "+99897"  # + 7 digits: the buyers' numbers
# The server's environment: the sign-in limits per IP and partner are what stops K sign-ins from one
# address in a minute; the bench signs its buyers in to measure their orders, not those limits.
SERVER_ENV = {
    "STAGE": "local",
    "LOG_LEVEL": "WARNING",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "LOCAL_WEBHOOK_PORT": "0",
    "LOGIN_RATE_LIMIT": "1000000",
    "LOGIN_IP_RATE_LIMIT": "1000000",
    "LOGIN_DEVICE_RATE_LIMIT": "1000000",
}


class Configuration(NamedTuple):
    """What an order names: a car, one of its modifications and colors, and a branch (of a region) that sells it."""

    car_id: ObjectId
    modification_id: ObjectId
    color_id: ObjectId
    region_id: ObjectId
    branch_id: ObjectId
    price: int

    def body(self) -> dict[str, Any]:
        return {
            "carId": str(self.car_id),
            "modificationId": str(self.modification_id),
            "colorId": str(self.color_id),
            "regionId": str(self.region_id),
            "branchId": str(self.branch_id),
            "paymentTypeId": "CASH",
            "price": self.price,
        }


class TimedAnswer(NamedTuple):
    status: int
    code: str | None  # the refusal's code, from the envelope
    seconds: float  # from the wave's release to the answer


@dataclass(frozen=True)
class Wave:
    """One wave's answers and what the database holds of it afterwards."""

    label: str
    answers: list[TimedAnswer]
    wall_seconds: float  # from the release to the last answer
    units: int  # units in stock for the wave's configurations before it
    orders_stored: int
    stock_left: int

    @property
    def statuses(self) -> Counter[int]:
        return Counter(answer.status for answer in self.answers)

    @property
    def codes(self) -> Counter[str]:
        return Counter(answer.code for answer in self.answers if answer.code)

    def lines(self) -> list[str]:
        latencies = sorted(answer.seconds for answer in self.answers)
        statuses = ", ".join(f"{status} x{count}" for status, count in sorted(self.statuses.items()))
        codes = ", ".join(f"{code} x{count}" for code, count in sorted(self.codes.items()))
        server_errors = sum(count for status, count in self.statuses.items() if status >= 500)
        per_second = len(self.answers) / self.wall_seconds if self.wall_seconds else 0.0
        return [
            self.label,
            f"  units sold {self.units - self.stock_left} of {self.units} (orders stored {self.orders_stored}, "
            f"stock left {self.stock_left})",
            f"  statuses {statuses}{f' ({codes})' if codes else ''}; 5xx {server_errors}",
            f"  p50 {percentile(latencies, 0.50) * 1000:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms, "
            f"{per_second:.1f} answers per second ({len(self.answers)} answers in {self.wall_seconds:.2f} s)",
        ]


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of sorted values (0 for none)."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


# --- the data ------------------------------------------------------------------------------------------


def configurations(db: Db, count: int) -> list[Configuration]:
    """`count` distinct configurations sold for cash by active branches of the catalog, with no sale rules
    (a start, verified buyers only, a limit per person would refuse the waves' orders for other reasons
    than stock), in a stable order; SystemExit (one line) when the catalog has fewer."""
    found: list[Configuration] = []
    unruled = {"active": {"$ne": False}, "paymentTypes": "CASH", "sale": None}
    cars = list(db.cars.find(unruled).sort("_id", 1))
    for branch in db.branches.find({"active": True}).sort("_id", 1):
        for car in cars:
            if car["brandId"] not in branch.get("brandIds", []):
                continue
            for modification in car.get("modifications", []):
                if modification.get("sale"):
                    continue
                for color in car.get("colors", []):
                    found.append(
                        Configuration(
                            car_id=car["_id"],
                            modification_id=modification["_id"],
                            color_id=color["_id"],
                            region_id=branch["regionId"],
                            branch_id=branch["_id"],
                            price=int(modification["price"]),
                        )
                    )
                    if len(found) == count:
                        return found
    raise SystemExit(
        f"the catalog has {len(found)} configurations sold for cash without sale rules, fewer than the {count} needed"
    )


def set_stock(db: Db, configuration: Configuration, quantity: int) -> None:
    key = {
        "branchId": configuration.branch_id,
        "modificationId": configuration.modification_id,
        "colorId": configuration.color_id,
    }
    db.stock.update_one(key, {"$set": {"quantity": quantity, "carId": configuration.car_id}}, upsert=True)


def stock_of(db: Db, configurations: Sequence[Configuration]) -> int:
    return sum(
        int(row.get("quantity", 0))
        for configuration in configurations
        for row in db.stock.find(
            {
                "branchId": configuration.branch_id,
                "modificationId": configuration.modification_id,
                "colorId": configuration.color_id,
            }
        )
    )


def orders_of(db: Db, configurations: Sequence[Configuration]) -> int:
    return sum(
        db.orders.count_documents(
            {
                "branchId": configuration.branch_id,
                "modificationId": configuration.modification_id,
                "colorId": configuration.color_id,
            }
        )
        for configuration in configurations
    )


# --- the server and its clients ------------------------------------------------------------------------


@contextmanager
def local_server(uri: str, database: str, workers: int) -> Iterator[str]:
    """`python -m local serve` with `workers` worker processes on a free loopback port, on this database; its
    base URL. Stopped (SIGTERM, then killed) on the way out."""
    from local.mongod import free_port

    port = free_port(HOST)
    env = {
        **os.environ,
        **SERVER_ENV,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
        "MONGODB_URI": uri,
        "MONGODB_DB": database,
        "WORKERS": str(workers),
    }
    command = [sys.executable, "-m", "local", "serve", "--host", HOST, "--port", str(port)]
    with tempfile.TemporaryDirectory(prefix="sale-bench-") as directory:
        log_path = Path(directory) / "server.log"
        with log_path.open("wb") as log:
            server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
        try:
            wait_until_serving(port, server, log_path)
            yield f"http://{HOST}:{port}"
        finally:
            server.send_signal(signal.SIGTERM)  # the parent stops its workers
            try:
                server.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def wait_until_serving(port: int, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the local server exited ({server.returncode}): {last_line(log_path)}")
        try:
            # Once the port is bound a request waits in its backlog until a worker takes it.
            status, _ = request(port, "GET", "/api/docs/openapi.json")
            if status == 200:
                return
        except OSError:
            time.sleep(0.1)  # the server is binding its port
    raise SystemExit(f"the local server did not answer within {START_TIMEOUT_S:.0f} s: {last_line(log_path)}")


def last_line(path: Path) -> str:
    lines = [line for line in path.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


HEADERS = {
    "User-Agent": "car-retail-sale-bench/1.0",
    "fingerprint": "sale-bench",
    "client": "demo-partner-key",  # local.seed.core.DEMO_PARTNER_KEY
    "accept-language": "en",
    "Content-Type": "application/json",
}


class Exchange(NamedTuple):
    """One request's answer as it came: the status, the headers (names in lower case), the body."""

    status: int
    headers: dict[str, str]
    body: bytes


def exchange(
    port: int, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> Exchange:
    """One request on a connection of its own (the workers serve one connection at a time)."""
    headers = dict(HEADERS)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    return Exchange(response.status, {name.lower(): value for name, value in response.getheaders()}, raw)


def json_of(raw: bytes) -> dict[str, Any]:
    """The JSON object of an answer ({} when it is not one)."""
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {}
    return answer if isinstance(answer, dict) else {}


def request(
    port: int, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    """One request on a connection of its own; the status and the JSON answer ({} when it is not JSON)."""
    answer = exchange(port, method, path, body, token)
    return answer.status, json_of(answer.body)


def login_buyers(port: int, count: int) -> list[str]:
    """`count` buyers logged in through the demo partner (distinct phone numbers), each verified as a person
    of their own through the sandbox provider, as buyers of a deployed stage must be: their access tokens."""

    def one(number: int) -> str:
        status, answer = request(port, "POST", LOGIN, {"phone": f"{PHONE_PREFIX}{number:07d}"})
        if status != 201:
            raise SystemExit(f"the login of buyer {number} answered {status}: {answer.get('code') or answer}")
        token = str(answer["data"]["accessToken"])
        status, answer = request(port, "POST", VERIFY, {"code": f"sandbox-verified-{number + 1}-bench"}, token)
        if status != 200:
            raise SystemExit(f"verifying buyer {number} answered {status}: {answer.get('code') or answer}")
        return token

    with ThreadPoolExecutor(max_workers=SIGN_IN_THREADS) as pool:
        return list(pool.map(one, range(count)))


def at_once(port: int, calls: Sequence[tuple[str, dict[str, Any]]]) -> tuple[list[TimedAnswer], float]:
    """Every (token, body) order posted from its own thread, released together; the answers in order, and
    the seconds from the release to the last answer."""
    release = threading.Barrier(len(calls) + 1, timeout=START_TIMEOUT_S)
    started: list[float] = []

    def post(call: tuple[str, dict[str, Any]]) -> TimedAnswer:
        token, body = call
        release.wait()
        began = started[0]
        try:
            status, answer = request(port, "POST", ORDERS, body, token)
        except OSError as failure:
            return TimedAnswer(status=0, code=type(failure).__name__, seconds=time.perf_counter() - began)
        code = answer.get("code") if status >= 400 else None
        return TimedAnswer(status=status, code=str(code) if code else None, seconds=time.perf_counter() - began)

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futures = [pool.submit(post, call) for call in calls]
        started.append(time.perf_counter())
        release.wait()
        answers = [future.result(timeout=REQUEST_TIMEOUT_S + START_TIMEOUT_S) for future in futures]
    return answers, max(answer.seconds for answer in answers)


# --- the opening ---------------------------------------------------------------------------------------


def opening(uri: str, database: str, *, buyers: int, units: int, workers: int) -> list[str]:
    """The rush and the spread on a seeded database (tools.bench.bench_database): the printed lines."""
    client: MongoClient[dict[str, Any]]
    with MongoClient(uri, tz_aware=True) as client:
        db: Db = client[database]
        warm, rush, *spread = configurations(db, buyers + 2)
        set_stock(db, warm, 0)
        set_stock(db, rush, units)
        for configuration in spread:
            set_stock(db, configuration, 1)
        with local_server(uri, database, workers) as url:
            port = int(url.rsplit(":", 1)[1])
            tokens = login_buyers(port, buyers)
            # Each worker's first orders (imports done, caches filled, connections open): refused, nothing stored.
            warmed, _ = at_once(port, [(token, warm.body()) for token in tokens[: workers * 2]])
            if any(answer.status != 409 for answer in warmed):
                raise SystemExit(f"warming up answered {sorted({answer.status for answer in warmed})}, not 409")
            answers, wall = at_once(port, [(token, rush.body()) for token in tokens])
            rush_wave = Wave(
                label=f"rush: {buyers} buyers at once for {units} units of one configuration",
                answers=answers,
                wall_seconds=wall,
                units=units,
                orders_stored=orders_of(db, [rush]),
                stock_left=stock_of(db, [rush]),
            )
            answers, wall = at_once(port, [(token, c.body()) for token, c in zip(tokens, spread, strict=True)])
            spread_wave = Wave(
                label=f"spread: the same {buyers} buyers at once, each for the one unit of a configuration of its own",
                answers=answers,
                wall_seconds=wall,
                units=buyers,
                orders_stored=orders_of(db, spread),
                stock_left=stock_of(db, spread),
            )
    rush_p99 = percentile(sorted(answer.seconds for answer in rush_wave.answers), 0.99)
    spread_p99 = percentile(sorted(answer.seconds for answer in spread_wave.answers), 0.99)
    return [
        f"Sale opening through HTTP: {workers} worker processes (python -m local serve), {buyers} buyers signed in "
        "through the demo partner",
        "",
        *rush_wave.lines(),
        *spread_wave.lines(),
        "",
        f"rush p99 / spread p99: {rush_p99 / spread_p99:.2f}x" if spread_p99 else "rush p99 / spread p99: -",
    ]
