"""`python -m ops sale set|clear|show`: a car's sale rules set by an operator, logged with who and why,
seen by buyers at once; and the rules in the data set file: exported, imported, valid in its JSON Schema."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from local.seed import DEMO_DATA_FILE, seed_all
from ops.__main__ import main as ops_main
from ops.catalog import SCHEMA_PATH
from tests.data import order_body, purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
ONIX = "dab037b14d50e6131dd95a8e"  # the demo car with a sale opening's rules (docs/DEMO_DATA.md)


def test_sale_set_opens_a_car_at_a_moment_for_verified_buyers_logged_with_who_and_why(
    api: ApiClient, db: Db, frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a car on sale and a buyer
    car = purchasable_car(db, brand="Ops Sale")
    opens = (frozen_clock() + timedelta(days=2)).replace(microsecond=0)
    # When an operator sets its sale to open in two days, for verified buyers, one per person a year
    rules = ["--starts-at", opens.isoformat(), "--per-person", "1/365", "--verified-only", "--hold-minutes", "60"]
    cause = ["--cause", "opening", "--by", "aziza"]
    assert ops_main(["sale", "set", str(car.car_id), *rules, "--deposit", "5000000", *cause]) == 0
    assert "sale rules of car" in capsys.readouterr().out
    # Then the catalog lists the start, and an order is refused until then
    api.login()
    assert api.get(f"/api/v1/cars/{car.car_id}").json()["data"]["saleStartsAt"] == opens.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert api.post(ORDERS, json=order_body(car)).json()["code"] == "SALE_NOT_STARTED"
    # And the change is logged with who and why
    logged = db.sale_changes.find_one({"carId": car.car_id}) or {}
    assert (logged["before"], logged["by"], logged["cause"]) == (None, "aziza", "opening")
    assert logged["after"]["perPersonLimit"] == {"count": 1, "days": 365}
    # When `show` is asked, it prints the rules
    capsys.readouterr()
    assert ops_main(["sale", "show", str(car.car_id)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["sale"]["depositAmount"], shown["sale"]["verifiedBuyersOnly"]) == (5_000_000, True)
    # When the operator clears them, the car is sold as usual at once
    assert ops_main(["sale", "clear", str(car.car_id), "--cause", "opening moved"]) == 0
    assert api.get(f"/api/v1/cars/{car.car_id}").json()["data"]["saleStartsAt"] is None
    assert api.post(ORDERS, json=order_body(car)).status_code == 201
    assert db.sale_changes.count_documents({"carId": car.car_id}) == 2


def test_sale_set_on_a_modification_overrides_the_car_for_it_alone(api: ApiClient, db: Db) -> None:
    # Given a car on sale
    car = purchasable_car(db, brand="Ops Sale Override", quantity=2)
    second = car.modification_ids[1]
    # When the operator holds its second modification back until 2030
    later = ["--starts-at", "2030-01-07T10:00:00+05:00", "--cause", "comes later"]
    assert ops_main(["sale", "set", str(car.car_id), "--modification", str(second), *later]) == 0
    # Then only that modification is refused, and the car lists its first modification's start (none)
    api.login()
    refused = api.post(ORDERS, json=order_body(car, modificationId=str(second), price=car.prices[1]))
    assert refused.json()["details"] == {"startsAt": "2030-01-07T05:00:00Z"}
    assert api.post(ORDERS, json=order_body(car)).status_code == 201
    assert api.get(f"/api/v1/cars/{car.car_id}").json()["data"]["saleStartsAt"] is None


def test_sale_set_refuses_an_unknown_car_no_rule_or_a_malformed_one(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a car on sale
    car = purchasable_car(db, brand="Ops Sale Refusals")
    # When an operator names an unknown car, gives no rule or a rule out of bounds / Then one line, exit 1
    assert ops_main(["sale", "set", str(ObjectId()), "--verified-only", "--cause", "x"]) == 1
    assert "CAR_NOT_FOUND" in capsys.readouterr().err
    assert ops_main(["sale", "set", str(car.car_id), "--cause", "x"]) == 1
    assert "no rule given" in capsys.readouterr().err
    assert ops_main(["sale", "set", str(car.car_id), "--hold-minutes", "0", "--cause", "x"]) == 1
    assert "holdMinutes" in capsys.readouterr().err
    # When an argument is malformed / Then it is a bad argument: one line, exit 2
    for malformed in (["--per-person", "2"], ["--starts-at", "2026-12-01T10:00:00"]):
        assert ops_main(["sale", "set", str(car.car_id), *malformed, "--cause", "x"]) == 2
        assert capsys.readouterr().err.startswith("error: BAD_ARGUMENT: ")
    # And nothing was written
    assert db.sale_changes.count_documents({}) == 0


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (["--deposit", "0"], "--deposit (depositAmount): Input should be greater than or equal to 1"),
        (["--deposit", str(10**30)], "--deposit (depositAmount): Input should be less than or equal to 1000000000000"),
        (["--starts-at", "0001-01-01T00:00:00+05:00"], "--starts-at (startsAt): Input should be a moment in the years"),
        (["--per-person", f"{10**30}/30"], "--per-person (perPersonLimit.count): Input should be less than or equal"),
    ],
)
def test_sale_set_refuses_a_deposit_of_0_or_a_value_the_database_cannot_keep_in_one_line(
    rule: list[str], problem: str, db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a car sold with a deposit of 5,000,000 sums
    car = purchasable_car(db, brand="Ops Sale Deposit")
    assert ops_main(["sale", "set", str(car.car_id), "--deposit", "5000000", "--cause", "opening"]) == 0
    capsys.readouterr()
    # When an operator sets a deposit of 0 (a 1-sum payment would keep the car), or a value out of bounds
    status = ops_main(["sale", "set", str(car.car_id), *rule, "--cause", "x"])
    # Then it is refused in one line naming the option, and exits 1
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"error: SALE_RULES_INVALID: {problem}"), err
    assert len(err.splitlines()) == 1
    # And the car keeps its rules, with no change logged
    assert (db.cars.find_one({"_id": car.car_id}) or {})["sale"] == {
        "startsAt": None,
        "holdMinutes": None,
        "depositAmount": 5_000_000,
        "perPersonLimit": None,
        "verifiedBuyersOnly": None,
        "queue": None,
    }
    assert db.sale_changes.count_documents({"carId": car.car_id}) == 1


QUEUE = ["--registration-opens-at", "2026-11-24T10:00:00+05:00", "--admission-per-second", "50"]


def test_sale_set_queue_gives_a_car_a_fair_opening_beside_its_other_rules(
    db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a car sold as usual
    car = purchasable_car(db, brand="Ops Sale Queue")
    # When an operator gives it a start, verified buyers only and a queue
    rules = ["--starts-at", "2026-12-01T10:00:00+05:00", "--verified-only", "--queue", *QUEUE]
    status = ops_main(["sale", "set", str(car.car_id), *rules, "--admission-minutes", "15", "--cause", "fair opening"])
    # Then the car's rules hold the queue beside the others
    assert status == 0, capsys.readouterr().err
    sale = (db.cars.find_one({"_id": car.car_id}) or {})["sale"]
    assert sale["verifiedBuyersOnly"] is True
    assert sale["queue"]["admissionPerSecond"] == 50
    assert sale["queue"]["admissionMinutes"] == 15
    assert sale["queue"]["registrationOpensAt"] == datetime.fromisoformat("2026-11-24T10:00:00+05:00")


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--queue", *QUEUE, "--admission-minutes", "15"], "--queue ((file)): Value error, a queue needs startsAt"),
        (["--starts-at", "2026-12-01T10:00:00+05:00", "--queue", *QUEUE], "--queue needs --admission-minutes"),
        (["--starts-at", "2026-12-01T10:00:00+05:00", *QUEUE], "--registration-opens-at, --admission-per-second only"),
        (
            ["--starts-at", "2026-11-01T10:00:00+05:00", "--queue", *QUEUE, "--admission-minutes", "15"],
            "--queue ((file)): Value error, a queue's registrationOpensAt must come before startsAt",
        ),
        (
            ["--starts-at", "2026-12-01T10:00:00+05:00", "--queue", *QUEUE, "--admission-minutes", "0"],
            "--admission-minutes (queue.admissionMinutes): Input should be greater than or equal to 1",
        ),
    ],
)
def test_sale_set_refuses_a_queue_without_its_draw_or_its_pace_in_one_line(
    args: list[str], problem: str, db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a car sold as usual
    car = purchasable_car(db, brand="Ops Sale Bad Queue")
    # When an operator sets a queue with no start to draw at, a missing pace, or a registration after the start
    status = ops_main(["sale", "set", str(car.car_id), *args, "--cause", "x"])
    # Then it is refused in one line, and nothing is logged
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"error: SALE_RULES_INVALID: {problem}"), err
    assert db.sale_changes.count_documents({"carId": car.car_id}) == 0


def test_a_deposit_of_0_is_refused_by_the_published_schema_as_by_the_import() -> None:
    # Given the published schema and the demo data with its sale's deposit set to 0
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    data = json.loads(DEMO_DATA_FILE.read_text(encoding="utf-8"))
    [n] = [n for n, car in enumerate(data["cars"]) if car["id"] == ONIX]
    data["cars"][n]["sale"]["depositAmount"] = 0
    # When the file is validated against the schema
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    # Then the deposit is refused: at least 1 sum
    found, seen = [], list(errors)
    while seen:
        error = seen.pop()
        seen += error.context or []
        found.append((list(error.absolute_path), error.validator, error.validator_value))
    assert (["cars", n, "sale", "depositAmount"], "minimum", 1) in found


def test_sale_rules_round_trip_through_export_and_import_and_validate_in_the_schema(
    db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the demo data, whose Onix has a sale opening's rules, and its file valid in the published schema
    seed_all()
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(DEMO_DATA_FILE.read_text(encoding="utf-8")), schema)
    # When it is exported
    exported = tmp_path / "export.json"
    assert ops_main(["catalog", "export", str(exported)]) == 0
    data = json.loads(exported.read_text(encoding="utf-8"))
    # Then the export carries the rules, the car's and its modification's override, and is valid too
    jsonschema.validate(data, schema)
    [onix] = [car for car in data["cars"] if car["id"] == ONIX]
    assert onix["sale"]["perPersonLimit"] == {"count": 2, "days": 365}
    assert datetime.fromisoformat(onix["sale"]["startsAt"]) == datetime.fromisoformat("2025-11-03T10:00:00+05:00")
    assert [m["sale"] and m["sale"]["startsAt"] for m in onix["modifications"]][:2] == [None, None]
    # When an operator changes the rules in the file (no deposit, one per person) and imports it
    onix["sale"] |= {"depositAmount": None, "perPersonLimit": {"count": 1, "days": 365}}
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    jsonschema.validate(data, schema)
    assert ops_main(["catalog", "import", str(changed)]) == 0
    capsys.readouterr()
    # Then the database holds them, and an export gives the same file back
    stored = db.cars.find_one({"_id": ObjectId(ONIX)}) or {}
    assert (stored["sale"]["depositAmount"], stored["sale"]["perPersonLimit"]["count"]) == (None, 1)
    again = tmp_path / "again.json"
    assert ops_main(["catalog", "export", str(again)]) == 0
    exported_again = json.loads(again.read_text(encoding="utf-8"))
    assert exported_again.pop("exportedFrom")["at"] >= data["exportedFrom"]["at"]
    assert exported_again == {key: value for key, value in data.items() if key != "exportedFrom"}
    # And a rule the file leaves out is cleared
    onix["sale"] = None
    changed.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert ops_main(["catalog", "import", str(changed)]) == 0
    assert (db.cars.find_one({"_id": ObjectId(ONIX)}) or {}).get("sale") is None
    # And a malformed rule is refused by the schema and by the import alike
    onix["sale"] = {"holdMinutes": 0}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
    changed.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert ops_main(["catalog", "import", str(changed)]) == 1
