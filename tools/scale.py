"""`make bench ARGS=--scale`: what the list routes cost as the catalog and a user's orders grow.

In one run, on two databases of the bench's own: the demo data (31 cars), and the demo data grown
(`grow`: 10,000 car models over 300 brands, 10,000 orders of the demo user, 1,000 card payments of one
of its orders, 10,000 saved cars of the demo device); every route of `SCALE_ROUTES` is measured on both,
its timed calls taking turns between them. Per route: the median latency of warm in-process calls, the MongoDB commands
one call sends, and for each command the documents and index keys the server examined
(`explain("executionStats")` of the very command the call sent) and whether it sorted in memory.

A paged route is flagged when a command examines more than 2x (offset + limit) documents, when its p50
grows more than 1.5x, or when the server sorts in memory.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database

from local.template import ROOT
from tools.command_counter import CommandCounter

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
Db = Database[dict[str, Any]]

CARS, BRANDS, ORDERS, TRANSACTIONS, SAVED_CARS = 10_000, 300, 10_000, 1_000, 10_000
MAX_DOCS_PER_PAGE = 2  # x (offset + limit)
MAX_P50_GROWTH = 1.5
EXPLAINED = frozenset({"find", "count", "aggregate", "distinct"})
# What a command carries besides itself: sessions, cluster time, the database; explain takes none of it.
NOT_EXPLAINED = frozenset(
    {"lsid", "txnNumber", "autocommit", "startTransaction", "$clusterTime", "$db", "$readPreference"}
)


@dataclass(frozen=True)
class ScaleRoute:
    label: str
    event: str  # a sample event of events/
    query: dict[str, str] | None = None  # changes to the sample's query parameters ("" removes one)
    page: int = 10  # offset + limit of a paged route (what a command may examine is 2x this); 0: not paged


SEDAN = str(ObjectId("0" * 24))  # replaced by the seeded sedan's id (local.seed: stable_id("body:sedan"))
ALL_CARS = {"brands": "", "sort": "", "limit": "10"}  # the sample lists one brand's cars: every car instead
SCALE_ROUTES = [
    ScaleRoute(label="cars sort=new", event="catalog/cars.json", query={**ALL_CARS, "sort": "new"}),
    ScaleRoute(label="cars sort=price", event="catalog/cars.json", query={**ALL_CARS, "sort": "price"}),
    ScaleRoute(label="cars sort=name", event="catalog/cars.json", query={**ALL_CARS, "sort": "name"}),
    ScaleRoute(
        label="cars sort=price offset=50",
        event="catalog/cars.json",
        query={**ALL_CARS, "sort": "price", "offset": "50"},
        page=60,
    ),
    ScaleRoute(label="cars search=che", event="catalog/cars.json", query={**ALL_CARS, "search": "che"}),
    ScaleRoute(label="cars search=кобальт", event="catalog/cars.json", query={**ALL_CARS, "search": "кобальт"}),
    ScaleRoute(label="cars bodyTypes=sedan", event="catalog/cars.json", query={**ALL_CARS, "bodyTypes": SEDAN}),
    ScaleRoute(
        label="cars bodyTypes=sedan sort=name",
        event="catalog/cars.json",
        query={**ALL_CARS, "bodyTypes": SEDAN, "sort": "name"},
    ),
    ScaleRoute(label="cars brands=1 sort=price", event="catalog/cars.json", page=5),
    ScaleRoute(
        label="cars min+max sort=new",
        event="catalog/cars.json",
        query={**ALL_CARS, "min": "200000000", "max": "400000000"},
    ),
    ScaleRoute(label="car detail", event="catalog/car.json", page=0),
    ScaleRoute(label="brands", event="catalog/brands.json", query={"search": "", "sort": ""}, page=0),
    ScaleRoute(label="brands search=che", event="catalog/brands.json", page=0),
    ScaleRoute(label="filters/all", event="catalog/filters-all.json", page=0),
    ScaleRoute(label="orders limit=10", event="orders/list.json"),
    ScaleRoute(label="order steps", event="orders/steps.json", page=0),
    ScaleRoute(label="saved-cars", event="saved_cars/list.json"),
    ScaleRoute(label="transactions history limit=10", event="transactions/history.json", query={"limit": "10"}),
]


@dataclass(frozen=True)
class CommandCost:
    name: str
    docs: int
    keys: int
    sorted_in_memory: bool
    scanned: bool  # read the whole collection


@dataclass(frozen=True)
class ScaleResult:
    route: ScaleRoute
    status: int
    median_ms: float
    costs: list[CommandCost]

    def cell(self) -> str:
        docs = "/".join(str(cost.docs) for cost in self.costs) or "-"
        keys = "/".join(str(cost.keys) for cost in self.costs) or "-"
        return f"{self.median_ms:>7.2f} {len(self.costs):>4} {docs:>12} {keys:>14}"


def _event(route: ScaleRoute, load_event: Callable[[Path], dict[str, Any]], sedan: str) -> dict[str, Any]:
    event = load_event(ROOT / "events" / route.event)
    if route.query is not None:
        changed = {**(event["queryStringParameters"] or {}), **route.query}
        query = {name: value.replace(SEDAN, sedan) for name, value in changed.items() if value}
        event["queryStringParameters"] = query or None
        event["multiValueQueryStringParameters"] = {name: [value] for name, value in query.items()} or None
    return event


def explained(db: Db, command: Mapping[str, Any]) -> CommandCost:
    """What the server examined running `command` (a find, count or aggregate as pymongo sent it)."""
    name = next(iter(command))
    plain = {key: value for key, value in command.items() if key not in NOT_EXPLAINED}
    answer = db.command({"explain": plain, "verbosity": "executionStats"})
    stats = answer.get("executionStats") or answer["stages"][0]["$cursor"]["executionStats"]
    stages = _stages(stats["executionStages"])
    docs, keys = int(stats["totalDocsExamined"]), int(stats["totalKeysExamined"])
    return CommandCost(name=name, docs=docs, keys=keys, sorted_in_memory="SORT" in stages, scanned="COLLSCAN" in stages)


def _stages(stage: Mapping[str, Any]) -> list[str]:
    children = [stage[key] for key in ("inputStage", "outerStage", "innerStage") if key in stage]
    return [stage["stage"], *(name for child in [*children, *stage.get("inputStages", [])] for name in _stages(child))]


def measure(
    client: MongoClient[dict[str, Any]],
    databases: tuple[str, str],
    counter: CommandCounter,
    handler_of: Callable[[dict[str, Any]], tuple[Handler, Any]],
    calls: int,
) -> tuple[list[ScaleResult], list[ScaleResult]]:
    """Each route on both databases (the demo data, the grown one): warm (two calls each first), its
    commands explained, then `calls` calls timed in turns, one on each database, so a busy moment of the
    machine slows both alike."""
    from core.settings import reset_settings
    from local.invoke import load_event
    from local.seed.core import DEMO_USER_ID
    from local.seed.support import stable_id

    def use(database: str) -> None:
        os.environ["MONGODB_DB"] = database
        reset_settings()

    sedan = str(stable_id("body:sedan"))
    results: tuple[list[ScaleResult], list[ScaleResult]] = ([], [])
    for route in SCALE_ROUTES:
        event = _event(route, lambda path: load_event(path, user_id=str(DEMO_USER_ID)), sedan)
        handler, context = handler_of(event)
        answers, costs = [], []
        for database in databases:
            use(database)
            for _ in range(2):
                handler(event, context)
            with counter.counting() as counts:
                answers.append(handler(event, context))
            commands = [command for command in counts.commands if next(iter(command)) in EXPLAINED]
            costs.append([explained(client[database], command) for command in commands])
        timings: tuple[list[float], list[float]] = ([], [])
        for _ in range(calls):
            for database, measured in zip(databases, timings, strict=True):
                use(database)
                start = time.perf_counter()
                handler(event, context)
                measured.append(time.perf_counter() - start)
        for answer, cost, measured, result in zip(answers, costs, timings, results, strict=True):
            result.append(
                ScaleResult(
                    route=route,
                    status=int(answer["statusCode"]),
                    median_ms=statistics.median(measured) * 1000,
                    costs=cost,
                )
            )
    return results


def grow(db: Db, *, seed: int = 25) -> dict[str, int]:
    """Grow the seeded demo data: cars and brands, the demo user's orders, one order's payments, the demo
    device's saved cars. Names are made of syllables, prices and dates drawn at random (seeded)."""
    from domain.catalog.store import refresh_search_prefixes
    from local.seed.orders import DEMO_NEW_ORDER_ID, DEMO_PAID_ORDER_ID

    rng = random.Random(seed)  # noqa: S311 (made-up names and prices, the same on every run)
    syllables = ["ka", "lo", "ra", "che", "vi", "to", "na", "mi", "sa", "do", "re", "zu", "an", "bel", "tor", "go"]

    def name() -> str:
        return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))).capitalize()

    brand_template = db.brands.find_one({}) or {}
    brands = [brand["_id"] for brand in db.brands.find({}, {"_id": 1})]
    new_brands = []
    for index in range(BRANDS - len(brands)):
        brand_name = f"{name()} {index}"
        new_brands.append(
            {
                **brand_template,
                "_id": ObjectId(),
                "slug": f"bench-brand-{index}",
                "name": brand_name,
                "order": 100 + index,
            }
        )
    db.brands.insert_many(new_brands)
    brands += [brand["_id"] for brand in new_brands]
    body_types = [body["_id"] for body in db.body_types.find({}, {"_id": 1})]
    templates = list(db.cars.find({}))
    start = datetime(2015, 1, 1, tzinfo=UTC)
    cars = []
    for index in range(CARS - len(templates)):
        template = templates[index % len(templates)]
        factor = rng.uniform(0.5, 4)
        modifications = [
            {**mod, "_id": ObjectId(), "price": round(mod["price"] * factor, -5)} for mod in template["modifications"]
        ]
        model = f"{name()} {rng.randint(1, 9)}"
        cars.append(
            {
                **template,
                "_id": ObjectId(),
                "slug": f"bench-car-{index}",
                "brandId": rng.choice(brands),
                "bodyTypeId": rng.choice(body_types),
                "name": {"ru": model, "uz": model, "en": model},
                "priceFrom": min(mod["price"] for mod in modifications),
                "modifications": modifications,
                "colors": [{**color, "_id": ObjectId()} for color in template["colors"]],
                "createdAt": start + timedelta(minutes=rng.randint(0, 5_000_000)),
            }
        )
    db.cars.insert_many(cars)
    refresh_search_prefixes(db)
    car_ids = [car["_id"] for car in cars]

    order = db.orders.find_one({"_id": DEMO_PAID_ORDER_ID}) or {}
    orders = [
        {
            **order,
            "_id": ObjectId(),
            "contractNumber": f"CR-BENCH-{index:06d}",
            "createdAt": start + timedelta(minutes=index),
        }
        for index in range(ORDERS - db.orders.count_documents({"userId": order.get("userId")}))
    ]
    db.orders.insert_many(orders)

    paid = db.orders.find_one({"_id": DEMO_NEW_ORDER_ID}) or {}
    now = datetime.now(UTC)
    transactions = [
        {
            "_id": 10**9 + index,
            "userId": paid["userId"],
            "orderId": paid["_id"],
            "brandId": paid.get("brandId"),
            "amount": 1_000_000,
            "cardMask": "860049******6478",
            "cardType": "UZCARD",
            "cardHash": "bench",
            "processor": "sandbox",
            "processorId": f"bench-{index}",
            "processorToken": "bench",
            "otpHash": None,
            "status": "FAILED",
            "failureReason": "bench",
            "attempts": 0,
            "resends": 0,
            "lastSentAt": now,
            "expiresAt": now,
            "createdAt": now - timedelta(minutes=index),
            "updatedAt": now,
        }
        for index in range(TRANSACTIONS)
    ]
    db.transactions.insert_many(transactions)

    saved = [
        {
            "_id": ObjectId(),
            "fingerprint": "demo-device-0001",
            "carId": car_id,
            "saved": True,
            "createdAt": start + timedelta(minutes=index),
        }
        for index, car_id in enumerate(car_ids[:SAVED_CARS])
    ]
    db.saved_cars.insert_many(saved)
    return {
        "brands": db.brands.count_documents({}),
        "cars": db.cars.count_documents({}),
        "orders of the demo user": db.orders.count_documents({"userId": order.get("userId")}),
        "payments of one order": db.transactions.count_documents({"orderId": paid["_id"]}),
        "saved cars of the demo device": db.saved_cars.count_documents({"fingerprint": "demo-device-0001"}),
    }


def flags(small: ScaleResult, large: ScaleResult) -> list[str]:
    found = []
    page = large.route.page
    if page and any(cost.docs > MAX_DOCS_PER_PAGE * page for cost in large.costs):
        found.append(f"docs > {MAX_DOCS_PER_PAGE}x{page}")
    if page and large.median_ms > MAX_P50_GROWTH * small.median_ms:
        found.append(f"p50 > {MAX_P50_GROWTH}x")
    if any(cost.sorted_in_memory for cost in large.costs):
        found.append("in-memory sort")
    if large.status >= 400:
        found.append(f"status {large.status}")
    return found


def table(small: list[ScaleResult], large: list[ScaleResult], sizes: Mapping[str, int], calls: int) -> list[str]:
    width = max(len(result.route.label) for result in small) + 2
    heading = f"{'p50 ms':>7} {'cmds':>4} {'docs/cmd':>12} {'keys/cmd':>14}"
    grown = ", ".join(f"{count:,} {what}" for what, count in sizes.items())
    lines = [
        f"Scale: the same requests on the demo data, then grown to {grown};",
        f"median of {calls} warm in-process calls; documents and keys each command examined (explain executionStats)",
        "",
        f"{'':<{width}}{'demo data (31 cars)':<{len(heading) + 3}}grown (10k cars, 10k orders)",
        f"{'route':<{width}}{heading}   {heading}  {'p50 x':>6}",
    ]
    for before, after in zip(small, large, strict=True):
        mark = flags(before, after)
        growth = after.median_ms / before.median_ms
        lines.append(
            f"{before.route.label:<{width}}{before.cell()}   {after.cell()}  {growth:>5.2f}x"
            + (f"  ! {', '.join(mark)}" if mark else "")
        )
    return lines
