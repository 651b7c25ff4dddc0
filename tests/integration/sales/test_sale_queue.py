"""A fair opening through HTTP on the real MongoDB (domain.orders.openings): registration and its refusals,
the draw checked by the script docs/INTERFACE.md publishes (which imports nothing of ours), and orders
through the queue. The admission here is what the pacing controller does, called directly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from data import aws, edge_files
from domain.catalog.sale import SaleQueue
from domain.orders import openings
from ops.__main__ import main as ops_main
from tests.data import CatalogCar, order_body, purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
ROOT = Path(__file__).resolve().parents[3]


def queued_car(db: Db, clock: FrozenClock, *, quantity: int = 3, **sale: Any) -> tuple[CatalogCar, SaleQueue]:
    """A car whose opening registers from now and draws in a day, admitting each person for 15 minutes."""
    now = clock().replace(microsecond=0)
    rules = {
        "startsAt": now + timedelta(days=1),
        "queue": {"registrationOpensAt": now, "admissionPerSecond": 10, "admissionMinutes": 15},
        **sale,
    }
    car = purchasable_car(db, brand=f"Queued {ObjectId()}", quantity=quantity, sale=rules)
    queue = SaleQueue(now, now + timedelta(days=1), 10, 15)
    openings.open_queue(car.car_id)
    return car, queue


def entries_of(car: CatalogCar) -> str:
    return f"/api/v1/sales/{car.car_id}/entries"


def test_one_entry_per_person_and_every_refusal_of_registration(
    api: ApiClient, api_server: str, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a car without a queue, and a queued one sold to verified buyers only whose registration opens in an hour
    plain = purchasable_car(db, brand="Not Queued")
    car, _ = queued_car(db, frozen_clock, verifiedBuyersOnly=True)
    db.cars.update_one(
        {"_id": car.car_id}, {"$set": {"sale.queue.registrationOpensAt": frozen_clock() + timedelta(hours=1)}}
    )
    api.login("+998901240001")
    # When a buyer registers for the car without a queue, and for the queued one before registration opens
    none = api.post(entries_of(plain))
    early = api.post(entries_of(car))
    # Then they are told there is no queue, and when registration opens
    assert (none.status_code, none.json()["code"]) == (404, "SALE_QUEUE_NOT_FOUND")
    assert (early.status_code, early.json()["code"]) == (409, "REGISTRATION_NOT_OPEN"), early.text
    # When registration opens and the buyer, not verified, registers
    frozen_clock.current = frozen_clock() + timedelta(hours=1)
    api.login("+998901240001")
    unverified = api.post(entries_of(car))
    # Then they are asked to verify first
    assert (unverified.status_code, unverified.json()["code"]) == (403, "IDENTITY_VERIFICATION_REQUIRED")
    # When they verify and register, then register again
    assert api.post("/api/v1/users/limit", json={"code": "sandbox-verified-451"}).status_code == 200
    entered = api.post(entries_of(car))
    again = api.post(entries_of(car))
    # Then the first is their entry, registered before the draw, and the second is refused
    assert entered.status_code == 201, entered.text
    assert entered.json()["data"]["status"] == "REGISTERED"
    assert entered.json()["data"]["position"] is None
    assert (again.status_code, again.json()["code"]) == (409, "ALREADY_ENTERED")
    # When the PINFL is moved to a second account, which registers too
    db.users.update_one({"phone": "+998901240001"}, {"$set": {"pin": None, "verified": False}})
    with ApiClient(api_server) as other:
        other.login("+998901240002")
        assert other.post("/api/v1/users/limit", json={"code": "sandbox-verified-451-again"}).status_code == 200
        second_account = other.post(entries_of(car))
        # Then the person has one entry: the second account's is refused
        assert (second_account.status_code, second_account.json()["code"]) == (409, "ALREADY_ENTERED")
        # And its own entry is the person's
        assert other.get(f"{entries_of(car)}/me").json()["data"]["entryId"] == entered.json()["data"]["entryId"]
    # And an account that never registered has no entry
    api.login("+998901240003")
    assert api.get(f"{entries_of(car)}/me").json()["code"] == "SALE_ENTRY_NOT_FOUND"
    assert db.sale_entries.count_documents({"carId": car.car_id}) == 1


def published_draw(edge_dir: Path, car: CatalogCar) -> Path:
    return edge_dir / "sales" / str(car.car_id) / "draw.json"


def interface_script() -> str:
    text = (ROOT / "docs" / "INTERFACE.md").read_text(encoding="utf-8")
    [script] = re.findall(r"```python\n(# check_draw\.py.*?)```", text, flags=re.DOTALL)
    return script


def test_the_published_draw_checks_by_the_documented_script_against_the_commitment_published_before(
    api: ApiClient, db: Db, frozen_clock: FrozenClock, edge_dir: Path, tmp_path: Path
) -> None:
    # Given a queued car whose status, published when the queue was set, commits to a seed
    car, queue = queued_car(db, frozen_clock)
    committed = json.loads((edge_dir / "sales" / str(car.car_id) / "status.json").read_text())
    assert committed["seed"] is None
    # And twelve people registered before the draw
    for n in range(12):
        api.login(f"+9989012500{n:02d}")
        assert api.post(entries_of(car)).status_code == 201
    # When the start and its grace pass and the draw runs
    frozen_clock.current = queue.draw_at + openings.DRAW_GRACE
    openings.draw_if_due(car.car_id, queue, frozen_clock())
    # Then draw.json lists every entry once, and the script of docs/INTERFACE.md, run with nothing of the
    # project importable, says it checks against the commitment published before
    path = published_draw(edge_dir, car)
    draw = json.loads(path.read_text())
    assert sorted(draw["entries"]) == sorted(str(e["_id"]) for e in db.sale_entries.find({"carId": car.car_id}))
    script = tmp_path / "check_draw.py"
    script.write_text(interface_script())
    checked = subprocess.run(  # noqa: S603 (the documented script, on a file this test wrote)
        [sys.executable, "-I", str(script), str(path), committed["seedCommitment"]],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (checked.returncode, checked.stdout.strip()) == (0, "draw checks"), checked.stderr
    assert ops_main(["sale", "verify-draw", str(path), "--commitment", committed["seedCommitment"]]) == 0
    # And each person's place is the draw's
    last = db.sale_entries.find_one({"_id": ObjectId(draw["entries"][-1])}) or {}
    assert last["position"] == 12
    # When two places are swapped in a copy of the file
    swapped = draw | {"entries": [draw["entries"][1], draw["entries"][0], *draw["entries"][2:]]}
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(swapped))
    # Then neither the script nor the command accepts it
    forged_run = [sys.executable, "-I", str(script), str(forged)]
    refused = subprocess.run(forged_run, check=False, capture_output=True, timeout=60)  # noqa: S603 (as above)
    assert refused.returncode == 1
    assert ops_main(["sale", "verify-draw", str(forged)]) == 1


def test_an_order_of_a_queued_car_needs_its_turn_once_and_in_time(
    api: ApiClient, api_server: str, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a queued car, and two verified people registered before the draw
    car, queue = queued_car(db, frozen_clock)
    phones = {}
    with ApiClient(api_server) as one, ApiClient(api_server) as two:
        for n, person in enumerate((one, two)):
            phones[id(person)] = f"+99890126000{n}"
            person.login(phones[id(person)])
            person.verify(460 + n)
            assert person.post(entries_of(car)).status_code == 201
        # When the draw has run and the first of them orders before anyone is admitted
        frozen_clock.current = queue.draw_at + openings.DRAW_GRACE
        openings.draw_if_due(car.car_id, queue, frozen_clock())
        for person in (one, two):
            person.login(phones[id(person)])
        first, second = sorted((one, two), key=lambda p: p.get(f"{entries_of(car)}/me").json()["data"]["position"])
        early = first.post(ORDERS, json=order_body(car))
        # Then it is not their turn, with their place and the queue's
        assert (early.status_code, early.json()["code"]) == (409, "NOT_YOUR_TURN"), early.text
        assert early.json()["details"] == {"position": 1, "servingUpTo": 0}
        # When both are admitted, and the first orders, then orders again
        openings.admit(car.car_id, queue, 2, frozen_clock())
        assert first.get(f"{entries_of(car)}/me").json()["data"]["status"] == "ADMITTED"
        placed = first.post(ORDERS, json=order_body(car))
        used = first.post(ORDERS, json=order_body(car))
        # Then the first order is placed and the second is refused: one order per admission
        assert placed.status_code == 201, placed.text
        assert (used.status_code, used.json()["code"]) == (409, "ADMISSION_USED")
        # And the admission's pace heard of the placed order, not of the refused one
        running = db.sale_queues.find_one({"_id": car.car_id})
        assert running is not None
        assert running["feedback"] == {"orders": 1, "busy": 0, "slow": 0}
        assert first.get(f"{entries_of(car)}/me").json()["data"]["status"] == "ORDERED"
        # When the second person orders after their 15 minutes
        frozen_clock.current = frozen_clock() + timedelta(minutes=15)
        second.login(phones[id(second)])
        late = second.post(ORDERS, json=order_body(car))
        # Then their admission has expired, and their entry says they missed it
        assert (late.status_code, late.json()["code"]) == (409, "ADMISSION_EXPIRED"), late.text
        assert second.get(f"{entries_of(car)}/me").json()["data"]["status"] == "MISSED"
    assert db.orders.count_documents({"carId": car.car_id}) == 1


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
