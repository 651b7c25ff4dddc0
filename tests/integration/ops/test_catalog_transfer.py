"""`python -m ops catalog export|import`: the reference data set moves between databases whole, is checked
before anything is written, and an import that fails or dies half-way leaves the old data set."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from domain.dataset import store as dataset_store
from local.seed import DEMO_DATA_FILE, seed_all
from local.seed.orders import DEMO_NEW_ORDER_ID
from ops.__main__ import main as ops_main
from tests.databases import clear_database, drop_database, use_database
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ROOT = Path(__file__).resolve().parents[3]
# Every GET sample event of the catalog, the dictionaries and the financing chain (they name demo ids).
SAMPLE_GETS = sorted(
    path
    for group in ("catalog", "dictionaries", "payments")
    for path in (ROOT / "events" / group).glob("*.json")
    if json.loads(path.read_text())["httpMethod"] == "GET"
)
MORE_GETS = [("/api/v1/cars", {"limit": "100"}), ("/api/v1/brands", {}), ("/api/v1/filters/all", {})]


def answers(api: ApiClient) -> dict[str, tuple[int, Any]]:
    """What the API answers to every sample GET (and the whole car list), by request."""
    requests = [
        (event["path"], event.get("queryStringParameters") or {})
        for event in (json.loads(path.read_text()) for path in SAMPLE_GETS)
    ]
    found = {}
    for path, query in [*requests, *MORE_GETS]:
        response = api.get(path, params=query)
        body = response.json() if response.headers.get("content-type", "").startswith("application/json") else None
        found[f"{path}?{sorted(query.items())}"] = (response.status_code, body or response.text)
    return found


def export(tmp_path: Path, name: str = "export.json") -> Path:
    file = tmp_path / name
    assert ops_main(["catalog", "export", str(file)]) == 0
    return file


def unmarked(file: Path) -> dict[str, Any]:
    """The exported data set without where and when it was exported (to compare two exports' data)."""
    data: dict[str, Any] = json.loads(file.read_text())
    del data["exportedFrom"]
    return data


def catalog_import(file: Path, *options: str) -> int:
    return ops_main(["catalog", "import", str(file), *options])


def demo_data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DEMO_DATA_FILE.read_text(encoding="utf-8"))
    return loaded


def write(tmp_path: Path, data: dict[str, Any], name: str = "changed.json") -> Path:
    file = tmp_path / name
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return file


@pytest.fixture
def demo_db(db: Db) -> Db:
    """The clean test database holding the demo data (loaded by the import; it may be changed)."""
    seed_all()
    return db


@pytest.mark.usefixtures("frozen_clock")  # resets the clock afterwards
def test_an_export_imported_into_an_empty_database_answers_the_same(
    seeded_api: ApiClient, mongo_uri: str, test_database: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Given the seeded database's answers to the catalog, dictionaries and financing routes, and its export,
    # at one instant (the schedule's signed link carries its expiry)
    instant = clock.now()
    clock.set_clock(lambda: instant)
    api = seeded_api
    api.login("+998901234567")
    before = answers(api)
    assert sum(status == 200 for status, _ in before.values()) >= len(before) - 2, before
    file = export(tmp_path)
    # When the file is imported into an empty database
    empty = use_database(mongo_uri, test_database, monkeypatch)  # resets the process state, the clock too
    clock.set_clock(lambda: instant)
    clear_database(empty)
    from domain.partners.store import register_partner

    register_partner("demo-partner-key", "Demo partner")
    assert catalog_import(file, "--with-stock") == 0
    # Then the API answers the same, to the last field
    api.login("+998901234567")
    assert answers(api) == before
    # And its export is the same file (but where it was exported from); a second import changes nothing
    again = json.loads(export(tmp_path, "again.json").read_text())
    first = json.loads(file.read_text())
    assert again.pop("exportedFrom")["database"] != first.pop("exportedFrom")["database"]
    assert again == first
    assert empty.bank_offers.count_documents({}) > 0


def test_the_same_file_twice_changes_nothing_the_second_time(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the demo data loaded by the import / When the same file is imported again
    capsys.readouterr()
    assert catalog_import(DEMO_DATA_FILE) == 0
    # Then every collection reports nothing added, changed or removed (the stock, live, is not imported)
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["stock: not imported (live data; --with-stock imports it)", "nothing changed"]
    assert all(line.endswith("added 0, changed 0, deactivated 0, removed 0") for line in lines[:-3]), lines


def test_a_dry_run_says_what_would_change_per_collection_and_writes_nothing(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export with one price changed, one stock row left out and one promo code more
    data = json.loads(export(tmp_path, "base.json").read_text())
    data["cars"][0]["modifications"][0]["price"] += 1_000_000
    dropped = data["stock"].pop(0)
    data["promoCodes"].append({"code": "NEW2026", "discountType": "FIXED", "value": 100_000})
    before = unmarked(export(tmp_path, "before.json"))
    capsys.readouterr()
    # When it is imported with --dry-run, the stock too
    assert catalog_import(write(tmp_path, data), "--dry-run", "--with-stock") == 0
    # Then it says what would happen, per collection, after the records
    out = capsys.readouterr().out.splitlines()
    lines = dict(line.split(": ", 1) for line in out[out.index("") + 1 : -1])
    assert lines["cars"] == "added 0, changed 1, deactivated 0, removed 0"
    assert lines["stock"] == "added 0, changed 0, deactivated 0, removed 1"
    assert lines["promo_codes"] == "added 1, changed 0, deactivated 0, removed 0"
    assert lines["brands"] == "added 0, changed 0, deactivated 0, removed 0"
    # And for machines (--json), the same counts in one object
    assert catalog_import(write(tmp_path, data), "--dry-run", "--with-stock", "--json") == 0
    plan = json.loads(capsys.readouterr().out)
    assert (plan["dryRun"], plan["changed"]) == (True, True)
    assert plan["counts"]["cars"] == {"added": 0, "changed": 1, "deactivated": 0, "removed": 0}
    # And nothing was written
    assert unmarked(export(tmp_path, "after.json")) == before
    assert demo_db.stock.find_one({"_id": ObjectId(dropped["id"])}) is not None


def test_records_left_out_are_removed_but_what_orders_name_is_deactivated(
    demo_db: Db, api: ApiClient, tmp_path: Path
) -> None:
    # Given the demo data with the demo orders, which name a car and a branch
    order = demo_db.orders.find_one({"_id": DEMO_NEW_ORDER_ID})
    assert order is not None
    data = json.loads(export(tmp_path, "base.json").read_text())
    ordered_car, ordered_branch = str(order["carId"]), str(order["branchId"])
    other_car = next(
        car for car in data["cars"] if car["id"] != ordered_car and car["brandId"] == str(order["brandId"])
    )
    # When a file without those two cars and that branch (nor their stock and offers) is imported
    gone = {ordered_car, other_car["id"]}
    data["cars"] = [car for car in data["cars"] if car["id"] not in gone]
    data["branches"] = [branch for branch in data["branches"] if branch["id"] != ordered_branch]
    data["stock"] = [row for row in data["stock"] if row["carId"] not in gone and row["branchId"] != ordered_branch]
    data["specialOffers"] = [offer for offer in data["specialOffers"] if offer["carId"] not in gone]
    assert catalog_import(write(tmp_path, data), "--with-stock") == 0
    # Then the car nobody ordered is gone, the ordered car and branch are kept but deactivated
    assert demo_db.cars.find_one({"_id": ObjectId(other_car["id"])}) is None
    assert demo_db.cars.find_one({"_id": order["carId"]})["active"] is False  # type: ignore[index]
    assert demo_db.branches.find_one({"_id": order["branchId"]})["active"] is False  # type: ignore[index]
    # And buyers no longer see the car, while its order keeps its price
    api.login("+998901234567")
    assert api.get(f"/api/v1/cars/{ordered_car}").status_code == 404
    listed = api.get("/api/v1/cars", params={"limit": "100"}).json()["data"]["items"]
    assert ordered_car not in {car["_id"] for car in listed}
    placed = api.get(f"/api/v1/orders/{DEMO_NEW_ORDER_ID}")
    assert placed.status_code == 200, placed.text
    assert placed.json()["data"]["price"] == order["price"]
    # And no bank offer is left for a modification that is gone
    assert demo_db.bank_offers.count_documents({"carId": ObjectId(other_car["id"])}) == 0
    # And the new data set exports and imports cleanly (the deactivated car stays with what it needs)
    assert catalog_import(export(tmp_path, "after.json")) == 0


def test_a_broken_reference_is_refused_naming_the_record_and_nothing_changes(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file whose 13th car names a brand that exists nowhere, and a price changed besides
    data = demo_data()
    unknown = str(ObjectId())
    data["cars"][12]["brandId"] = unknown
    data["cars"][0]["modifications"][0]["price"] = 1
    before = unmarked(export(tmp_path, "before.json"))
    capsys.readouterr()
    # When it is imported
    status = catalog_import(write(tmp_path, data))
    # Then it is refused with the record and field named, and the database is as it was
    assert status == 1
    assert f"cars[12].brandId: no brand {unknown}" in capsys.readouterr().err
    assert unmarked(export(tmp_path, "after.json")) == before


def test_a_file_with_wrong_types_names_each_record_and_field(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a price in a float, a text without its Uzbek and a stock row of a color its car lacks
    data = demo_data()
    data["cars"][3]["modifications"][1]["price"] = 1.5
    del data["brands"][2]["country"]["uz"]
    data["stock"][4]["colorId"] = str(ObjectId())
    capsys.readouterr()
    # When it is imported / Then each problem is named, and the exit status is 1
    assert catalog_import(write(tmp_path, data)) == 1
    err = capsys.readouterr().err
    assert "cars[3].modifications[1].price: Input should be a valid integer" in err
    assert "brands[2].country.uz: Field required" in err


def test_a_truncated_file_is_refused_naming_where_it_was_cut(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export cut short in the middle of the cars
    full = export(tmp_path).read_text()
    cut = full.index('"slug": "kia-', full.index('"cars"'))
    before = unmarked(export(tmp_path, "before.json"))
    capsys.readouterr()
    # When it is imported
    status = catalog_import(write_text(tmp_path, full[:cut]))
    # Then it is refused naming the car it was cut in, and nothing changed
    assert status == 1
    err = capsys.readouterr().err
    assert "cars[" in err
    assert "broken or cut short" in err
    assert unmarked(export(tmp_path, "after.json")) == before


def write_text(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "cut.json"
    file.write_text(text, encoding="utf-8")
    return file


def test_an_import_failing_half_way_leaves_the_old_data_set(
    demo_db: Db, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file that changes prices and drops cars, and a fault after the fourth collection is written
    data = demo_data()
    data["cars"] = data["cars"][:5]
    data["stock"] = [row for row in data["stock"] if row["carId"] in {car["id"] for car in data["cars"]}]
    data["specialOffers"] = []
    data["brands"][0]["name"] = "Renamed"
    before = unmarked(export(tmp_path, "before.json"))
    apply, calls = dataset_store.apply, []

    def failing(changes: dataset_store.Changes, **kwargs: Any) -> None:
        apply(changes, **kwargs)
        calls.append(changes.collection)
        if len(calls) == 4:
            raise RuntimeError("the process dies here")

    monkeypatch.setattr(dataset_store, "apply", failing)
    # When it is imported / Then the command fails in one line
    capsys.readouterr()
    assert catalog_import(write(tmp_path, data)) == 1
    assert "error: UNEXPECTED: RuntimeError: the process dies here" in capsys.readouterr().err
    # Then the writes made before the fault are gone with it
    assert calls == ["brands", "body_types", "powertrains", "cars"]
    assert unmarked(export(tmp_path, "after.json")) == before


KILLED_IMPORT = """
import sys
from domain.dataset import store
from ops.__main__ import main

apply = store.apply
def apply_then_wait(changes, **kwargs):
    apply(changes, **kwargs)
    if changes.collection == "cars":
        print("half-way", flush=True)
        sys.stdin.read()  # until the test kills this process
store.apply = apply_then_wait
main(["catalog", "import", sys.argv[1]])
"""


@pytest.fixture
def own_database(mongo_uri: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A database of its own (a killed import's transaction holds its locks until the server ends it)."""
    name = f"killed_{uuid.uuid4().hex[:12]}"
    from tests.databases import create_indexes_for

    create_indexes_for(use_database(mongo_uri, name, monkeypatch))
    yield name
    client: MongoClient[dict[str, Any]] = MongoClient(mongo_uri)
    with client:
        client.admin.command("killAllSessions", [])  # ends the dead process's transaction now
    drop_database(mongo_uri, name)


def test_an_import_killed_half_way_leaves_the_old_data_set(mongo_uri: str, own_database: str, tmp_path: Path) -> None:
    # Given the demo data, and a file that renames a brand and drops most cars
    seed_all()
    data = demo_data()
    data["brands"][0]["name"] = "Renamed"
    data["cars"] = data["cars"][:5]
    data["stock"] = [row for row in data["stock"] if row["carId"] in {car["id"] for car in data["cars"]}]
    data["specialOffers"] = []
    before = unmarked(export(tmp_path, "before.json"))
    # When another process imports it and is killed (SIGKILL) after writing half the collections
    env = {
        **os.environ,
        "MONGODB_URI": mongo_uri,
        "MONGODB_DB": own_database,
        "PYTHONPATH": "layers/shared:functions:.",
    }
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and script)
        [sys.executable, "-c", KILLED_IMPORT, str(write(tmp_path, data))],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "half-way"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    # Then the database holds the old data set, whole
    assert unmarked(export(tmp_path, "after.json")) == before


def test_reference_caches_pick_the_new_data_up_within_their_lifetime(
    demo_db: Db,
    api: ApiClient,
    tmp_path: Path,
    frozen_clock: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given brands cached for 60 s by the API
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    from core.settings import reset_settings

    reset_settings()
    data = demo_data()
    brand = data["brands"][0]
    assert api.get(f"/api/v1/brands/{brand['id']}").json()["data"]["name"] == brand["name"]
    # When an import renames the brand
    brand["name"] = "Chevrolet Uzbekistan"
    assert catalog_import(write(tmp_path, data)) == 0
    # Then the new name is served once the cache's lifetime is over
    frozen_clock.advance(61)
    assert api.get(f"/api/v1/brands/{brand['id']}").json()["data"]["name"] == "Chevrolet Uzbekistan"


def test_type_errors_and_broken_references_are_reported_together(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file with a float price, a brand without its name, a car naming a brand that exists nowhere and
    # a car naming the brand without a name (which is no problem of its own)
    data = demo_data()
    data["cars"][3]["modifications"][1]["price"] = 1.5
    del data["brands"][2]["name"]
    unknown = str(ObjectId())
    data["cars"][12]["brandId"] = unknown
    data["cars"][13]["brandId"] = data["brands"][2]["id"]
    capsys.readouterr()
    # When it is imported / Then all three problems are named in one pass, and only they
    assert catalog_import(write(tmp_path, data)) == 1
    problems = capsys.readouterr().err.splitlines()
    assert problems[:-1] == [
        "brands[2].name: Field required",
        "cars[3].modifications[1].price: Input should be a valid integer",
        f"cars[12].brandId: no brand {unknown}",
    ]
    assert problems[-1].startswith("error: DATA_SET_REFUSED: ")


BROKEN_FILES: dict[str, bytes] = {
    "truncated": b'{"format": 1, "brands": [{"id": "78248af760b1316fae86a2c9", "sl',
    "wrong types everywhere": json.dumps({"format": "1", "brands": "x", "cars": [[1.5]] * 50, "contacts": 7}).encode(),
    "utf-16": '{"format": 1}'.encode("utf-16"),
    "binary": bytes(range(256)) * 64,
    "deep nesting": b'{"format": 1, "cars": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "huge numbers": b'{"format": 1, "cars": [{"year": ' + b"9" * 100_000 + b"}]}",
    "huge float": b'{"format": 1, "branches": [{"location": {"lat": 1e999999, "lng": -1e999999}}]}',
    "100,000 brands": json.dumps({"format": 1, "brands": [{"id": "a" * 24}] * 100_000}).encode(),
}


@pytest.mark.parametrize("name", BROKEN_FILES)
def test_no_file_however_broken_ends_in_a_traceback(
    name: str, demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a broken file
    file = tmp_path / "broken.json"
    file.write_bytes(BROKEN_FILES[name])
    capsys.readouterr()
    # When it is imported / Then it is refused: exit 1, one error line last, no traceback, nothing changed
    assert catalog_import(file) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.splitlines()) <= 102  # at most MAX_PROBLEMS, "... and N more", the error line
    assert re.match(r"error: (DATA_SET_REFUSED|FILE_NOT_UTF8|FILE_TOO_LARGE): ", err.splitlines()[-1]), err


def _set(path: str, value: Any) -> Any:
    """A change of the demo data: `value` at `path` (keys and list indexes, dot-separated)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = [int(part) if part.isdigit() else part for part in path.split(".")]
        node: Any = data
        for part in parents:
            node = node[part]
        node[last] = value

    return change


# Values a dry run once passed and the import then failed on (an OverflowError: BSON holds 64-bit
# integers, and a moment of year 1 or 9999 overflows on its way to UTC), and a deposit of 0, which
# lets a 1-sum payment keep the car: each refused by the check both share, naming the field.
UNSTORABLE: dict[str, tuple[str, Any, str]] = {
    "a deposit of 0": ("cars.1.sale.depositAmount", 0, "Input should be greater than or equal to 1"),
    "a price of 10**30": ("cars.3.modifications.0.price", 10**30, "Input should be less than or equal to"),
    "a stock quantity of 10**30": ("stock.4.quantity", 10**30, "Input should be less than or equal to"),
    "a brand's order of -10**30": ("brands.2.order", -(10**30), "Input should be greater than or equal to"),
    "a promo code's uses of 10**30": ("promoCodes.0.usageLimit", 10**30, "Input should be less than or equal to"),
    "a promo code valid from year 1": (
        "promoCodes.0.validFrom",
        "0001-01-01T00:00:00+05:00",
        "Input should be a moment in the years 2000 to 2100",
    ),
    "a sale opening at the end of year 9999": (
        "cars.1.sale.startsAt",
        "9999-12-31T23:59:59-05:00",
        "Input should be a moment in the years 2000 to 2100",
    ),
    "a special offer valid until year 1": (
        "specialOffers.0.validUntil",
        "0001-01-01T00:00:00Z",
        "Input should be a moment in the years 2000 to 2100",
    ),
}


@pytest.mark.parametrize("name", UNSTORABLE)
def test_a_value_the_database_cannot_keep_is_refused_by_the_dry_run_and_the_import_alike(
    name: str, demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the demo data with one value the database cannot keep, or a deposit of 0
    path, value, message = UNSTORABLE[name]
    data = demo_data()
    _set(path, value)(data)
    file = write(tmp_path, data)
    before = unmarked(export(tmp_path, "before.json"))
    capsys.readouterr()
    # When it is imported with --dry-run, then for real, the stock too
    dry_run = catalog_import(file, "--dry-run", "--with-stock"), capsys.readouterr().err
    real = catalog_import(file, "--with-stock"), capsys.readouterr().err
    # Then both refuse it with the same lines: the record and field, then the one error line
    assert dry_run == real
    status, err = real
    field = re.sub(r"\.(\d+)", r"[\1]", path)  # cars.1.sale.depositAmount: cars[1].sale.depositAmount
    problem, last = err.splitlines()
    assert status == 1
    assert problem.startswith(f"{field}: {message}"), err
    assert last.startswith("error: DATA_SET_REFUSED: ")
    # And nothing was written
    assert unmarked(export(tmp_path, "after.json")) == before


def test_a_record_replaced_under_the_same_slug_or_two_swapping_slugs_import_as_the_dry_run_said(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file where a document is replaced by a new one under its slug, two regions swap slugs and two
    # stock rows of a modification and color swap branches (each key unique in the database)
    data = demo_data()
    replaced = data["documents"][0]
    new_id = str(ObjectId())
    data["documents"][0] = {**replaced, "id": new_id}
    first, second = data["regions"][0], data["regions"][1]
    first["slug"], second["slug"] = second["slug"], first["slug"]
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in data["stock"]:
        rows.setdefault((row["modificationId"], row["colorId"]), []).append(row)
    one, other = next(same[:2] for same in rows.values() if len(same) > 1)
    one["branchId"], other["branchId"] = other["branchId"], one["branchId"]
    file = write(tmp_path, data)
    capsys.readouterr()
    # When it is imported with --dry-run, then for real (the stock too, over the demo orders' changes)
    assert catalog_import(file, "--dry-run", "--with-stock", "--force") == 0
    dry_run = capsys.readouterr().out.splitlines()
    assert catalog_import(file, "--with-stock", "--force") == 0, capsys.readouterr().err
    # Then the import did what the dry run said (and synced the bank offers besides)
    imported = capsys.readouterr().out.splitlines()
    assert set(dry_run[dry_run.index("") + 1 : -1]) <= set(imported)
    assert "documents: added 1, changed 0, deactivated 0, removed 1" in imported
    assert demo_db.documents.find_one({"slug": replaced["slug"]})["_id"] == ObjectId(new_id)  # type: ignore[index]
    assert demo_db.regions.find_one({"_id": ObjectId(first["id"])})["slug"] == first["slug"]  # type: ignore[index]
    assert demo_db.stock.find_one({"_id": ObjectId(one["id"])})["branchId"] == ObjectId(one["branchId"])  # type: ignore[index]


def test_a_new_car_taking_the_slug_of_a_kept_car_is_refused_by_the_dry_run_and_the_import(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file that drops the car the demo orders name (it stays, deactivated) for a new car of its slug
    order = demo_db.orders.find_one({"_id": DEMO_NEW_ORDER_ID}) or {}
    data = demo_data()
    [n] = [n for n, car in enumerate(data["cars"]) if car["id"] == str(order["carId"])]
    new_id = str(ObjectId())
    data["cars"][n]["id"] = new_id
    data["stock"] = [row | ({"carId": new_id} if row["carId"] == str(order["carId"]) else {}) for row in data["stock"]]
    for offer in data["specialOffers"]:
        offer["carId"] = new_id if offer["carId"] == str(order["carId"]) else offer["carId"]
    file = write(tmp_path, data)
    before = unmarked(export(tmp_path, "before.json"))
    capsys.readouterr()
    # When it is imported with --dry-run, then for real
    dry_run = catalog_import(file, "--dry-run"), capsys.readouterr().err
    real = catalog_import(file), capsys.readouterr().err
    # Then both refuse it naming the car and the kept car, and nothing was written
    assert dry_run == real
    assert real[0] == 1
    slug = data["cars"][n]["slug"]
    assert real[1].splitlines()[0].startswith(f"cars[{n}].slug: {slug} is also car {order['carId']}'s, which stays")
    assert unmarked(export(tmp_path, "after.json")) == before
