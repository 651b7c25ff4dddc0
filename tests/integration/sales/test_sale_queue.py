"""A fair opening through HTTP as production meets it: `make run`'s server with three worker processes
(each one request at a time, like Lambda instances) against one MongoDB (tests/local_server.py), on a
clock every process shares (local.clock): registration and its refusals, orders through the queue, and
the published draw checked by the script docs/INTERFACE.md gives, run with nothing of ours importable.

This process plays the SaleAdmission function (`pacing.run`, one step): the server's own schedule runs it
first a minute after the server started, on the shared clock, and each test is done with what the
controller decides before then (only the test of an expired admission goes past it, after its last
admission was made)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import requests
from bson import ObjectId
from pymongo.database import Database

from core import clock
from core.settings import reset_settings
from data import aws, edge_files
from domain.catalog.sale import SaleQueue
from domain.orders import openings, pacing
from local.clock import ENV as CLOCK_FILE
from local.clock import SharedClock
from ops.__main__ import main as ops_main
from tests.data import CatalogCar, insert_order, order_body, purchasable_car
from tests.factories import ApiClient, all_at_once, copies_over_workers
from tests.local_server import LocalServer, ServeWorkers

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
ROOT = Path(__file__).resolve().parents[3]
WORKERS = 3
DRAW_IN = timedelta(seconds=20)  # from the test's start; the draw then runs DRAW_GRACE later
ADMISSION_MINUTES = 1


@pytest.fixture
def shared_clock(tmp_path: Path, workers_db: Db) -> Iterator[SharedClock]:
    """The time of this process and of the server's, in one file: it moves only when the test moves it
    (set once this process points at the server's database, which resets the process's state)."""
    shared = SharedClock(tmp_path / "clock")
    shared.set(clock.now().replace(microsecond=0))
    clock.set_clock(shared)
    yield shared
    clock.reset_clock()


@pytest.fixture
def server(serve_workers: ServeWorkers, shared_clock: SharedClock, edge_dir: Path) -> Iterator[LocalServer]:
    """`python -m local serve` with three workers on the shared clock, serving the openings' public files
    from this test's folder (as CloudFront serves the bucket)."""
    with serve_workers(WORKERS, **{CLOCK_FILE: str(shared_clock.path), "EDGE_FILES_DIR": str(edge_dir)}) as served:
        yield served


def queued_car(db: Db, at: SharedClock, *, units: int = 3, **sale: Any) -> tuple[CatalogCar, SaleQueue]:
    """A car of `units` units (one stock row) whose opening registers from now, draws DRAW_IN from now, and
    admits each person for ADMISSION_MINUTES; its queue set, the seed's commitment published."""
    now = at()
    rules = {
        "startsAt": now + DRAW_IN,
        "queue": {
            "registrationOpensAt": now,
            "admissionPerSecond": 10,
            "admissionMinutes": ADMISSION_MINUTES,
        },
        **sale,
    }
    car = purchasable_car(db, brand=f"Queued {ObjectId()}", quantity=0, sale=rules)
    row = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    db.stock.update_one(row, {"$set": {"quantity": units}})
    openings.open_queue(car.car_id)
    return car, SaleQueue(now, now + DRAW_IN, 10, ADMISSION_MINUTES)


def entries_of(car: CatalogCar) -> str:
    return f"/api/v1/sales/{car.car_id}/entries"


def person(server: LocalServer, number: int) -> ApiClient:
    """A signed-in client of the server, verified as the sandbox's person `number`."""
    client = ApiClient(server.url)
    client.login(f"+9989013{number:05d}")
    client.verify(number)
    return client


def public_file(server: LocalServer, car: CatalogCar, url: str) -> dict[str, Any]:
    """One of the car's public files, as a buyer's app fetches it: at the URL the car's page gives
    (`sale.queue.statusUrl`, `drawUrl`), from the edge (here the local server, as CloudFront serves it)."""
    with ApiClient(server.url) as app:
        queue = app.get(f"/api/v1/cars/{car.car_id}").json()["data"]["sale"]["queue"]
    answer = requests.get(queue[url], timeout=30)
    assert answer.status_code == 200, answer.text
    assert {part.strip() for part in answer.headers["Cache-Control"].split(",")} == {"public", "max-age=1"}
    found: dict[str, Any] = answer.json()
    return found


def controller_step(at: SharedClock) -> dict[str, Any]:
    """One step of the SaleAdmission function, at the shared clock's time."""
    return pacing.run(1, sleep=at.advance)


def codes(answers: list[requests.Response]) -> list[tuple[int, str | None]]:
    return sorted((answer.status_code, answer.json().get("code")) for answer in answers)


def test_one_entry_per_person_through_three_workers_and_every_refusal_of_registration(
    server: LocalServer, workers_db: Db, shared_clock: SharedClock
) -> None:
    # Given a car without a queue, and a queued one sold to verified buyers, once a year per person, whose
    # registration opens in 30 s
    plain = purchasable_car(workers_db, brand=f"Not Queued {ObjectId()}")
    car, _ = queued_car(workers_db, shared_clock, verifiedBuyersOnly=True, perPersonLimit={"count": 1, "days": 365})
    opens_at = shared_clock() + timedelta(seconds=30)
    workers_db.cars.update_one({"_id": car.car_id}, {"$set": {"sale.queue.registrationOpensAt": opens_at}})
    buyer = ApiClient(server.url)
    buyer.login("+998901300001")
    # When a buyer registers for the car without a queue, and for the queued one before registration opens
    none = buyer.post(entries_of(plain))
    early = buyer.post(entries_of(car))
    # Then they are told there is no queue, and when registration opens
    assert (none.status_code, none.json()["code"]) == (404, "SALE_QUEUE_NOT_FOUND")
    assert (early.status_code, early.json()["code"]) == (409, "REGISTRATION_NOT_OPEN"), early.text
    assert early.json()["details"]["registrationOpensAt"].startswith(opens_at.strftime("%Y-%m-%dT%H:%M:%S"))
    # When registration opens and the buyer, not verified, registers
    shared_clock.set(opens_at)
    unverified = buyer.post(entries_of(car))
    # Then they are asked to verify first
    assert (unverified.status_code, unverified.json()["code"]) == (403, "IDENTITY_VERIFICATION_REQUIRED")
    # When they verify, and six of their phones register at once, through three worker processes
    buyer.verify(1301)
    copies = copies_over_workers(buyer, 6)
    answers = all_at_once([partial(copy.post, entries_of(car)) for copy in copies])
    # Then one entry is theirs and the five others are refused, whichever worker answered
    assert codes(answers) == [(201, None)] + [(409, "ALREADY_ENTERED")] * 5, [a.text for a in answers]
    assert len({answer.headers["X-Local-Worker"] for answer in answers}) > 1
    [entered] = [answer.json()["data"] for answer in answers if answer.status_code == 201]
    assert (entered["status"], entered["position"]) == ("REGISTERED", None)
    # When the PINFL moves to a second account, which registers too
    workers_db.users.update_one({"phone": "+998901300001"}, {"$set": {"pin": None, "verified": False}})
    other = ApiClient(server.url)
    other.login("+998901300002")
    other.verify(1301)
    second_account = other.post(entries_of(car))
    # Then the person has one entry: the second account's is refused, and the entry it reads is the person's
    assert (second_account.status_code, second_account.json()["code"]) == (409, "ALREADY_ENTERED")
    assert other.get(f"{entries_of(car)}/me").json()["data"]["entryId"] == entered["entryId"]
    # When a person who has already bought the car this year registers
    bought = person(server, 1302)
    account = workers_db.users.find_one({"phone": "+998901301302"})
    assert account is not None
    insert_order(workers_db, account["_id"], car, status="PAID")
    refused = bought.post(entries_of(car))
    # Then they are told the car's limit at once, instead of waiting for a car they may not buy
    assert (refused.status_code, refused.json()["code"]) == (409, "PURCHASE_LIMIT_REACHED"), refused.text
    # And an account that never registered has no entry; the car has the person's one entry
    assert bought.get(f"{entries_of(car)}/me").json()["code"] == "SALE_ENTRY_NOT_FOUND"
    assert workers_db.sale_entries.count_documents({"carId": car.car_id}) == 1
    for client in [buyer, other, bought, *copies]:
        client.session.close()


def interface_script() -> str:
    text = (ROOT / "docs" / "INTERFACE.md").read_text(encoding="utf-8")
    [script] = re.findall(r"```python\n(# check_draw\.py.*?)```", text, flags=re.DOTALL)
    return script


def run_script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The documented script, isolated (-I: no PYTHONPATH, no user site, not even its own folder's
    neighbours), in a folder of its own: nothing of the project is importable."""
    command = [sys.executable, "-I", str(script), *args]
    return subprocess.run(command, check=False, capture_output=True, text=True, cwd=script.parent, timeout=60)  # noqa: S603


def test_the_published_draw_checks_by_the_documented_script_against_the_commitment_published_before(
    server: LocalServer, workers_db: Db, shared_clock: SharedClock, tmp_path: Path
) -> None:
    # Given a queued car whose status.json, served from the edge since the queue was set, commits to a seed
    car, queue = queued_car(workers_db, shared_clock)
    committed = public_file(server, car, "statusUrl")
    assert committed["seed"] is None
    # And twelve people registered before the draw, through three worker processes
    people = [person(server, 1310 + n) for n in range(12)]
    registered = all_at_once([partial(one.post, entries_of(car)) for one in people])
    assert [answer.status_code for answer in registered] == [201] * 12
    # When the start and its grace pass and the controller steps
    shared_clock.set(queue.draw_at + openings.DRAW_GRACE)
    controller_step(shared_clock)
    # Then draw.json, served from the edge, lists every entry once with the seed of the commitment
    draw = public_file(server, car, "drawUrl")
    assert sorted(draw["entries"]) == sorted(answer.json()["data"]["entryId"] for answer in registered)
    assert draw["seedCommitment"] == committed["seedCommitment"]
    # And the script of docs/INTERFACE.md, run with nothing of the project importable, says it checks
    # against the commitment published before the draw; so does the operators' command
    folder = tmp_path / "buyer"
    folder.mkdir()
    script = folder / "check_draw.py"
    script.write_text(interface_script(), encoding="utf-8")
    published = folder / "draw.json"
    published.write_text(json.dumps(draw), encoding="utf-8")
    checked = run_script(script, str(published), committed["seedCommitment"])
    assert (checked.returncode, checked.stdout.strip()) == (0, "draw checks"), checked.stderr
    assert ops_main(["sale", "verify-draw", str(published), "--commitment", committed["seedCommitment"]]) == 0
    # And each person's place, as they read it, is the draw's
    places = {one.get(f"{entries_of(car)}/me").json()["data"]["position"] for one in people[:3]}
    entry_ids = {one.get(f"{entries_of(car)}/me").json()["data"]["entryId"] for one in people[:3]}
    assert places == {draw["entries"].index(entry_id) + 1 for entry_id in entry_ids}
    # When two places are swapped in a copy of the file, or it is checked against another commitment
    swapped = draw | {"entries": [draw["entries"][1], draw["entries"][0], *draw["entries"][2:]]}
    forged = folder / "forged.json"
    forged.write_text(json.dumps(swapped), encoding="utf-8")
    # Then neither the script nor the command accepts it
    assert run_script(script, str(forged)).returncode == 1
    assert run_script(script, str(published), "00" * 32).returncode == 1
    assert ops_main(["sale", "verify-draw", str(forged)]) == 1
    for one in people:
        one.session.close()


def test_an_order_of_a_queued_car_needs_its_turn_once_and_in_time_through_three_workers(
    server: LocalServer, workers_db: Db, shared_clock: SharedClock
) -> None:
    # Given a queued car of two units, and three verified people registered before the draw
    car, queue = queued_car(workers_db, shared_clock, units=2)
    people = [person(server, 1330 + n) for n in range(3)]
    for one in people:
        assert one.post(entries_of(car)).status_code == 201
    # When the draw has run and the controller has admitted as many people as there are units
    shared_clock.set(queue.draw_at + openings.DRAW_GRACE)
    done = controller_step(shared_clock)
    assert done["admitted"][str(car.car_id)] == 2
    by_place = sorted(people, key=lambda one: one.get(f"{entries_of(car)}/me").json()["data"]["position"])
    first, second, third = by_place
    # And the third orders before their turn
    early = third.post(ORDERS, json=order_body(car))
    # Then it is not their turn, with their place and the queue's
    assert (early.status_code, early.json()["code"]) == (409, "NOT_YOUR_TURN"), early.text
    assert early.json()["details"] == {"position": 3, "servingUpTo": 2}
    assert third.get(f"{entries_of(car)}/me").json()["data"]["status"] == "WAITING"
    # When the first orders from five phones at once, through three worker processes
    copies = copies_over_workers(first, 5)
    placed = all_at_once([partial(copy.post, ORDERS, json=order_body(car)) for copy in copies])
    # Then one order is placed and the four others are refused: one order per admission
    assert codes(placed) == [(201, None)] + [(409, "ADMISSION_USED")] * 4, [a.text for a in placed]
    assert len({answer.headers["X-Local-Worker"] for answer in placed}) > 1
    assert first.get(f"{entries_of(car)}/me").json()["data"]["status"] == "ORDERED"
    # When the second orders after their admission's minutes
    shared_clock.advance(ADMISSION_MINUTES * 60)
    late = second.post(ORDERS, json=order_body(car))
    # Then their admission has expired, and their entry says they missed it
    assert (late.status_code, late.json()["code"]) == (409, "ADMISSION_EXPIRED"), late.text
    assert second.get(f"{entries_of(car)}/me").json()["data"]["status"] == "MISSED"
    assert workers_db.orders.count_documents({"carId": car.car_id}) == 1
    for client in [*people, *copies]:
        client.session.close()


def test_status_json_goes_to_the_edge_bucket_when_there_is_one(
    aws_account: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boto3

    # Given a deployed function's bucket for the public files
    monkeypatch.setenv("EDGE_FILES_BUCKET", "car-retail-edge-test")
    reset_settings()
    aws.reset_clients()
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="car-retail-edge-test", CreateBucketConfiguration={"LocationConstraint": "eu-central-1"})
    # When a status is published
    edge_files.publish("sales/abc/status.json", {"servingUpTo": 7})
    # Then the object is JSON that CloudFront may keep a second
    found = s3.get_object(Bucket="car-retail-edge-test", Key="sales/abc/status.json")
    assert json.loads(found["Body"].read()) == {"servingUpTo": 7}
    assert found["ContentType"] == "application/json"
    assert found["CacheControl"] == "public, max-age=1"
    assert edge_files.read("sales/abc/status.json") == {"servingUpTo": 7}
    aws.reset_clients()
