"""Races as production meets them: `make run`'s server with several worker processes (each one request
at a time, like Lambda instances) serving parallel requests against one MongoDB, over real HTTP.

The server runs as a subprocess on a free port, pointed at a seeded database of this module
(tests/local_server.py, tests/integration/conftest.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import requests
from bson import ObjectId
from pymongo.database import Database

from domain.dealers.stock import set_quantity
from domain.orders import lifecycle
from domain.orders.states import OrderStatus
from local.scheduler import local_schedule
from local.template import ROOT
from local.workers import WORKER_HEADER
from tests.data import CatalogCar, order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient, all_at_once, branch_offered, copies_of
from tests.local_server import START_TIMEOUT_S, LocalServer, ServeWorkers, server_environment

WORKERS = 4
ORDERS = "/api/v1/orders"
CARD = "8600 4954 7331 6478"  # the sandbox's paying UZCARD
OTP = 666666  # the sandbox's code

Db = Database[dict[str, Any]]


@pytest.fixture(scope="module")
def local_server(serve_workers: ServeWorkers) -> Iterator[LocalServer]:
    """`python -m local serve` with WORKERS worker processes, for this module's races."""
    with serve_workers(WORKERS) as server:
        yield server


@pytest.fixture(scope="module")
def workers_server(local_server: LocalServer) -> str:
    return local_server.url


@pytest.fixture
def race_db(workers_db: Db) -> Db:
    return workers_db


@pytest.fixture
def buyers(workers_server: str) -> Iterator[Callable[..., list[ApiClient]]]:
    """`buyers(n, prefix)`: n signed-in clients of the worker server, each a different verified person
    (`verified=False`: accounts nobody verified)."""
    clients: list[ApiClient] = []

    def make(count: int, prefix: str, *, verified: bool = True) -> list[ApiClient]:
        made = [ApiClient(workers_server) for _ in range(count)]
        clients.extend(made)
        for number, client in enumerate(made):
            client.login(f"+99890{prefix}{number:05d}")
            if verified:
                client.verify(int(f"{prefix}{number:03d}"))
        return made

    yield make
    for client in clients:
        client.session.close()


def served_by(responses: list[requests.Response]) -> set[str]:
    return {response.headers[WORKER_HEADER] for response in responses}


def test_make_run_runs_the_scheduled_jobs_of_the_template_and_says_how_often(local_server: LocalServer) -> None:
    # Given make run serving
    console = local_server.console.read_text(encoding="utf-8").splitlines()
    # Then its console names every function the template schedules, with how often it runs it
    [line] = [line for line in console if line.startswith("scheduled jobs (template.yaml): ")]
    jobs = local_schedule()
    assert line.removeprefix("scheduled jobs (template.yaml): ") == ", ".join(job.describe() for job in jobs)
    assert {job.scheduled.function for job in jobs} == {
        "OutboxPublisher",
        "PaymentReconciliation",
        "SaleAdmission",
        "UnpaidOrderExpiry",
    }


def test_thirty_parallel_orders_get_thirty_unique_contract_numbers(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db
) -> None:
    # Given thirty signed-in buyers and thirty cars in stock
    car = purchasable_car(race_db, brand="Race Orders", quantity=30)
    clients = buyers(30, "11")
    # When they all order it at once
    placed = all_at_once([partial(client.post, ORDERS, json=order_body(car)) for client in clients])
    # Then every order is placed, each with its own contract number, by more than one worker process
    assert [response.status_code for response in placed] == [201] * 30, [r.text for r in placed if r.status_code != 201]
    numbers = [response.json()["data"]["contractNumber"] for response in placed]
    assert len(set(numbers)) == 30
    assert race_db.orders.count_documents({"carId": car.car_id}) == 30
    assert len(served_by(placed)) > 1


def test_twenty_parallel_applies_of_one_transaction_pay_once(
    buyers: Callable[[int, str], list[ApiClient]], workers_server: str, race_db: Db
) -> None:
    # Given a buyer's order of 1,000 and one pending card transaction of 300 on it
    car = purchasable_car(race_db, brand="Race Payments", prices=(1_000,))
    [buyer] = buyers(1, "22")
    order = buyer.post(ORDERS, json=order_body(car)).json()["data"]
    card = {"cardNumber": CARD, "expiry": "12/39", "cardType": "UZCARD"}
    target = {"brandId": str(car.brand_id), "orderId": order["_id"]}
    created = buyer.post("/api/v1/transactions/create", json={"amount": 300, **card, **target})
    assert created.status_code == 200, created.text
    apply = {"transactionId": created.json()["data"]["transactionId"], "otp": OTP, "amount": 300, **target}
    # When twenty copies of the buyer's app apply it at once
    clients = [ApiClient(workers_server) for _ in range(20)]
    for client in clients:
        client.token = buyer.token
    answers = all_at_once([partial(client.post, "/api/v1/transactions/apply", json=apply) for client in clients])
    # Then exactly one pays, the others are told it is taken, and the order counts 300 once
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) == 1, statuses
    assert set(statuses) == {200, 409}
    stored = race_db.orders.find_one({"contractNumber": order["contractNumber"]}) or {}
    assert (stored["paidAmount"], stored["statusSlug"]) == (300, "PARTIALLY_PAID")
    assert len(served_by(answers)) > 1
    for client in clients:
        client.session.close()


def test_the_one_use_promo_code_goes_to_exactly_one_of_ten_parallel_buyers(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db
) -> None:
    # Given LASTONE, the demo's promo code with one use left, and ten buyers of one car (ten in stock)
    assert (race_db.promo_codes.find_one({"_id": "LASTONE"}) or {})["used"] == 0
    car: CatalogCar = purchasable_car(race_db, brand="Race Promo", quantity=10)
    clients = buyers(10, "33")
    # When all ten order with it at once
    placed = all_at_once(
        [partial(client.post, ORDERS, json=order_body(car, promoCode="LASTONE")) for client in clients]
    )
    # Then one order gets the discount, the nine others are refused, and the code is used once
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] + [409] * 9, [response.text for response in placed]
    [won] = [response.json()["data"] for response in placed if response.status_code == 201]
    assert won["discount"] == 500_000
    assert {r.json()["message"] for r in placed if r.status_code == 409} == {"Promo code has been used up"}
    promo = race_db.promo_codes.find_one({"_id": "LASTONE"}) or {}
    assert (promo["used"], len(promo["usedBy"])) == (1, 1)


def test_the_last_car_goes_to_one_of_six_parallel_buyers_and_a_cancel_gives_it_back(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db, mongo_uri: str, workers_database: str
) -> None:
    # Given a branch with one car left and six signed-in buyers
    car = purchasable_car(race_db, brand="Race Last Car", quantity=1)
    clients = buyers(6, "44")
    assert branch_offered(clients[0], car)
    # When they all order it at once, through several worker processes
    placed = all_at_once([partial(client.post, ORDERS, json=order_body(car)) for client in clients])
    # Then exactly one order is placed, the five others are told none is left
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] + [409] * 5, [response.text for response in placed]
    assert all(r.json()["details"] == {"quantity": 0} for r in placed if r.status_code == 409)
    assert race_db.orders.count_documents({"carId": car.car_id}) == 1
    assert len(served_by(placed)) > 1
    # And the branch has none left and is no longer offered
    assert stock_quantity(race_db, car) == 0
    assert not branch_offered(clients[0], car)
    # When the back office cancels the order with the command an operator runs
    [won] = [response.json()["data"] for response in placed if response.status_code == 201]
    env = server_environment(mongo_uri, workers_database, STAGE="local")
    command = ["order", "transition", won["contractNumber"], "CANCELLED", "--cause", "the buyer changed their mind"]
    ops = [sys.executable, "-m", "ops", *command]
    cancelled = subprocess.run(ops, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)  # noqa: S603
    # Then the car is back in stock and the branch is offered again
    assert cancelled.returncode == 0, cancelled.stderr
    assert stock_quantity(race_db, car) == 1
    assert branch_offered(clients[0], car)


def test_forty_parallel_buyers_of_stock_split_in_eight_buckets_get_exactly_its_units_and_none_is_lost(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db
) -> None:
    # Given 24 cars of one branch, modification and color split into 8 stock documents, and 40 buyers
    car = purchasable_car(race_db, brand="Race Buckets", quantity=0)
    set_quantity(car.branch_id, car.modification_id, car.color_id, 24, by="test", cause="delivery", buckets=8)
    assert race_db.stock_buckets.count_documents({"carId": car.car_id}) == 7
    clients = buyers(40, "99")
    # When they all order it at once, through several worker processes
    placed = all_at_once([partial(client.post, ORDERS, json=order_body(car)) for client in clients])
    # Then exactly 24 orders are placed and the 16 others are told none is left
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] * 24 + [409] * 16, [response.text for response in placed if response.status_code >= 500]
    assert all(r.json()["code"] == "OUT_OF_STOCK" for r in placed if r.status_code == 409)
    assert stock_quantity(race_db, car) == 0
    assert not branch_offered(clients[0], car)
    # And the orders took their units from more than one document, each order saying which
    orders = list(race_db.orders.find({"carId": car.car_id}))
    assert len({order.get("stockBucket", 0) for order in orders}) > 1
    # When five of them are cancelled
    for order in orders[:5]:
        lifecycle.transition(order["_id"], OrderStatus.CANCELLED, cause="the buyer changed their mind")
    # Then each unit went back to the document it came from, and none was lost
    assert stock_quantity(race_db, car) == 5
    for bucket in {order.get("stockBucket", 0) for order in orders[:5]}:
        given_back = sum(1 for order in orders[:5] if order.get("stockBucket", 0) == bucket)
        where = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
        stored = (
            race_db.stock.find_one(where)
            if bucket == 0
            else race_db.stock_buckets.find_one({**where, "bucket": bucket})
        )
        assert stored is not None
        assert stored["quantity"] == given_back
    assert branch_offered(clients[0], car)


def test_parallel_saved_car_toggles_from_one_device_each_make_a_real_transition(
    workers_server: str, race_db: Db
) -> None:
    # Given a car of the catalog that one device has not saved, and fifteen toggles of it from that device
    car_id = str((race_db.cars.find_one({}, {"_id": 1}) or {})["_id"])
    device = {"fingerprint": "race-device-0001"}
    clients = [ApiClient(workers_server) for _ in range(15)]
    # When they run at once
    answers = all_at_once(
        [partial(client.patch, f"/api/v1/saved-cars/{car_id}", json={}, headers=device) for client in clients]
    )
    # Then each answer is a real transition (8 saves, 7 removals) and the car ends saved (an odd count)
    assert all(answer.status_code == 201 for answer in answers), [answer.text for answer in answers]
    outcomes = sorted(answer.json()["data"]["status"] for answer in answers)
    assert outcomes == ["removed"] * 7 + ["saved"] * 8
    with ApiClient(workers_server) as reader:
        listed = reader.get("/api/v1/saved-cars", headers=device).json()["data"]["items"]
    assert [item["_id"] for item in listed] == [car_id]
    assert len(served_by(answers)) > 1
    for client in clients:
        client.session.close()


def worker_pids(server: LocalServer) -> set[int]:
    """The server's child processes, its workers (Linux: /proc lists a task's children)."""
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text()
    return {int(pid) for pid in children.split()}


def test_a_worker_that_dies_is_replaced_while_the_others_keep_serving(local_server: LocalServer) -> None:
    # Given the server's workers
    before = worker_pids(local_server)
    assert len(before) == WORKERS
    # When one of them dies
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    # Then requests are still answered, by the others
    with ApiClient(local_server.url) as client:
        answers = [client.get("/api/v1/brands") for _ in range(6)]
    assert [answer.status_code for answer in answers] == [200] * 6
    assert str(victim) not in served_by(answers)
    # And the server starts another worker in its place
    deadline = time.monotonic() + START_TIMEOUT_S
    while (victim in worker_pids(local_server) or len(worker_pids(local_server)) < WORKERS) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)  # the parent checks its workers every half second
    after = worker_pids(local_server)
    assert victim not in after
    assert len(after) == WORKERS


def spread_bodies(car: CatalogCar, count: int) -> list[dict[str, Any]]:
    """`count` order bodies of the car, each for another stock row (modification and color), so that no two
    orders meet on one stock document: only the buyer's own limits can keep them apart."""
    rows = [(m, c, p) for m, p in zip(car.modification_ids, car.prices, strict=True) for c in car.color_ids]
    assert len(rows) >= count
    return [order_body(car, modificationId=str(m), colorId=str(c), price=price) for m, c, price in rows[:count]]


TEN_COLORS = tuple((f"Color {n}", f"#0000{n:02d}") for n in range(10))


def test_twenty_parallel_orders_of_one_person_never_hold_more_than_the_open_holds_limit(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db
) -> None:
    # Given one verified buyer (two unpaid cars allowed, the default) and a car in twenty stock rows
    car = purchasable_car(race_db, brand="Race Open Holds", quantity=1, colors=TEN_COLORS)
    [buyer] = buyers(1, "55")
    clients = copies_of(buyer, 20)
    # When twenty copies of their app order at once, each another row, through several worker processes
    bodies = spread_bodies(car, 20)
    placed = all_at_once(
        [partial(client.post, ORDERS, json=body) for client, body in zip(clients, bodies, strict=True)]
    )
    # Then exactly two orders are placed, the eighteen others are refused with the limit, and no unit is lost
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] * 2 + [409] * 18, [response.text for response in placed]
    refused = [response.json() for response in placed if response.status_code == 409]
    assert {(body["code"], body["details"]["limit"]) for body in refused} == {("OPEN_ORDERS_LIMIT_REACHED", 2)}
    assert race_db.orders.count_documents({"carId": car.car_id}) == 2
    assert sum(row["quantity"] for row in race_db.stock.find({"carId": car.car_id})) == 18
    assert len(served_by(placed)) > 1
    for client in clients:
        client.session.close()


def test_twenty_parallel_orders_of_one_person_keep_a_cars_per_person_limit(
    buyers: Callable[[int, str], list[ApiClient]], race_db: Db
) -> None:
    # Given a car one person may order once a year, twenty in stock, and one verified buyer
    car = purchasable_car(
        race_db,
        brand="Race Per Person",
        quantity=1,
        colors=TEN_COLORS,
        sale={"perPersonLimit": {"count": 1, "days": 365}},
    )
    [buyer] = buyers(1, "66")
    clients = copies_of(buyer, 20)
    # When twenty copies of their app order it at once, each another modification or color
    bodies = spread_bodies(car, 20)
    placed = all_at_once(
        [partial(client.post, ORDERS, json=body) for client, body in zip(clients, bodies, strict=True)]
    )
    # Then one order is placed and nineteen are refused with the car's limit
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] + [409] * 19, [response.text for response in placed]
    refused = {response.json()["code"] for response in placed if response.status_code == 409}
    assert refused == {"PURCHASE_LIMIT_REACHED"}
    assert race_db.orders.count_documents({"carId": car.car_id}) == 1
    for client in clients:
        client.session.close()


def test_a_person_with_a_deposit_paid_order_holds_one_more_car_under_twenty_parallel_attempts(
    buyers: Callable[..., list[ApiClient]], race_db: Db
) -> None:
    # Given a verified buyer whose first order paid its deposit (not paid in full: it still counts)
    car = purchasable_car(race_db, brand="Race Deposit Paid", quantity=2, colors=TEN_COLORS)
    [buyer] = buyers(1, "77")
    bodies = spread_bodies(car, 20)
    first = buyer.post(ORDERS, json=bodies[0]).json()["data"]
    lifecycle.record_payment(ObjectId(first["_id"]), first["deposit"], payment_id="desk-77", cause="deposit")
    clients = copies_of(buyer, 20)
    # When twenty copies of their app order at once
    placed = all_at_once(
        [partial(client.post, ORDERS, json=body) for client, body in zip(clients, bodies, strict=True)]
    )
    # Then one more order is placed: unpaid and deposit-paid cars together stay within the limit
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] + [409] * 19, [response.text for response in placed]
    assert {response.json()["code"] for response in placed if response.status_code == 409} == {
        "OPEN_ORDERS_LIMIT_REACHED"
    }
    assert race_db.orders.count_documents({"carId": car.car_id}) == 2
    for client in clients:
        client.session.close()


def test_ninety_fresh_unverified_accounts_of_one_partner_hold_at_most_the_partners_ceiling(
    buyers: Callable[..., list[ApiClient]], race_db: Db
) -> None:
    # Given ninety accounts nobody verified, signed in through one partner key, and a branch of ninety cars
    car = purchasable_car(race_db, brand="Race Unverified", quantity=90)
    clients = buyers(90, "88", verified=False)
    # When they all order at once, through several worker processes
    placed = all_at_once([partial(client.post, ORDERS, json=order_body(car)) for client in clients])
    # Then they hold the partner's ceiling for unverified accounts (20 by default), not the branch
    statuses = sorted(response.status_code for response in placed)
    assert statuses == [201] * 20 + [409] * 70, [r.text for r in placed if r.status_code not in (201, 409)]
    assert {response.json()["code"] for response in placed if response.status_code == 409} == {
        "UNVERIFIED_ORDERS_LIMIT_REACHED"
    }
    assert stock_quantity(race_db, car) == 70
