"""The daily changes an operator makes with a command: `ops stock set`, `ops prices set` (both logged with
who and why) and `ops promo add|list|disable`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from domain.dataset.exporting import export_data_set
from domain.dataset.importing import import_data_set
from local.seed import seed_all
from local.seed.orders import DEMO_NEW_ORDER_ID
from ops.__main__ import main as ops_main
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
REGIONS = "/api/v1/dictionaries/branch/regions"


@pytest.fixture
def demo_db(db: Db) -> Db:
    seed_all()
    return db


def available_branches(api: ApiClient, row: dict[str, Any], brand_id: ObjectId) -> set[str]:
    query = {
        "brandId": str(brand_id),
        "carId": str(row["carId"]),
        "modificationId": str(row["modificationId"]),
        "colorId": str(row["colorId"]),
    }
    regions = api.get(REGIONS, params=query).json()["data"]["items"]
    return {branch["_id"] for region in regions for branch in region["branches"] if branch["available"]}


def test_stock_set_changes_what_a_branch_can_sell_and_logs_who_and_why(demo_db: Db, api: ApiClient) -> None:
    # Given a branch that has a modification and color in stock
    row = demo_db.stock.find_one({"quantity": {"$gt": 0}})
    assert row is not None
    car = demo_db.cars.find_one({"_id": row["carId"]})
    assert car is not None
    api.login()
    assert str(row["branchId"]) in available_branches(api, row, car["brandId"])
    # When an operator sets it to 0
    ids = [str(row["branchId"]), str(row["modificationId"]), str(row["colorId"])]
    assert ops_main(["stock", "set", *ids, "0", "--cause", "sold at the branch", "--by", "dilnoza"]) == 0
    # Then buyers no longer find it there, and the change is logged with who and why
    assert str(row["branchId"]) not in available_branches(api, row, car["brandId"])
    logged = demo_db.stock_changes.find_one({"branchId": row["branchId"]})
    assert logged is not None
    assert (logged["before"], logged["after"], logged["by"], logged["cause"]) == (
        row["quantity"],
        0,
        "dilnoza",
        "sold at the branch",
    )
    # And setting it back makes it available again
    assert ops_main(["stock", "set", *ids, "3", "--cause", "delivery"]) == 0
    assert str(row["branchId"]) in available_branches(api, row, car["brandId"])


def test_stock_set_with_buckets_splits_the_units_and_every_read_sees_their_sum(demo_db: Db, api: ApiClient) -> None:
    # Given a branch that has a modification and color in stock
    row = demo_db.stock.find_one({"quantity": {"$gt": 0}})
    assert row is not None
    car = demo_db.cars.find_one({"_id": row["carId"]})
    assert car is not None
    key = {"branchId": row["branchId"], "modificationId": row["modificationId"], "colorId": row["colorId"]}
    ids = [str(row["branchId"]), str(row["modificationId"]), str(row["colorId"])]
    # When an operator sets 10 units split into 4 documents
    assert ops_main(["stock", "set", *ids, "10", "--buckets", "4", "--cause", "opening", "--by", "dilnoza"]) == 0
    # Then the units are spread over 4 documents and the change log says 10 units in 4 buckets
    split = demo_db.stock_buckets.find(key).sort("bucket", 1)
    stored = demo_db.stock.find_one(key)
    assert stored is not None
    assert [stored["quantity"]] + [bucket["quantity"] for bucket in split] == [3, 3, 2, 2]
    logged = demo_db.stock_changes.find_one(key)
    assert logged is not None
    assert (logged["before"], logged["after"], logged["buckets"]) == (row["quantity"], 10, 4)
    # And with the first document empty (orders took its units) buyers still find the car there
    demo_db.stock.update_one(key, {"$set": {"quantity": 0}})
    api.login()
    assert str(row["branchId"]) in available_branches(api, row, car["brandId"])
    # And the data set's file holds the 7 units left in one row, and importing it keeps them split
    [exported] = [stock for stock in export_data_set().stock or [] if stock.id == row["_id"]]
    assert exported.quantity == 7
    import_data_set(export_data_set(), with_stock=True, force=True)
    assert demo_db.stock_buckets.count_documents(key) == 3
    assert sum(doc["quantity"] for doc in [demo_db.stock.find_one(key) or {}, *demo_db.stock_buckets.find(key)]) == 7
    # When the operator sets it again without --buckets
    assert ops_main(["stock", "set", *ids, "12", "--cause", "delivery"]) == 0
    # Then the split stays, and the log says what the branch had, every document together
    assert demo_db.stock_buckets.count_documents(key) == 3
    last = demo_db.stock_changes.find_one(key, sort=[("at", -1), ("_id", -1)])
    assert last is not None
    assert (last["before"], last["after"], last["buckets"]) == (7, 12, 4)


def test_stock_set_splits_a_queued_cars_units_by_default_never_into_more_buckets_than_units(demo_db: Db) -> None:
    # Given a stock row of the demo Onix, sold through a fair opening's queue
    onix = demo_db.cars.find_one({"sale.queue": {"$ne": None}})
    assert onix is not None
    row = demo_db.stock.find_one({"carId": onix["_id"]})
    assert row is not None
    key = {"branchId": row["branchId"], "modificationId": row["modificationId"], "colorId": row["colorId"]}
    ids = [str(row["branchId"]), str(row["modificationId"]), str(row["colorId"])]
    # When an operator sets 5 units, then 500, without --buckets
    assert ops_main(["stock", "set", *ids, "5", "--cause", "first delivery"]) == 0
    few = demo_db.stock_buckets.count_documents(key) + 1
    assert ops_main(["stock", "set", *ids, "500", "--cause", "the opening's units"]) == 0
    # Then 5 units take 5 documents, and 500 the queued car's 16
    assert few == 5
    assert (demo_db.stock.find_one(key) or {})["buckets"] == 16
    assert sum(doc["quantity"] for doc in [demo_db.stock.find_one(key) or {}, *demo_db.stock_buckets.find(key)]) == 500


def test_stock_set_refuses_a_color_of_another_car(demo_db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a stock row / When the color named is not the car's / Then exit 1, nothing written
    row = demo_db.stock.find_one({})
    assert row is not None
    ids = [str(row["branchId"]), str(row["modificationId"]), str(ObjectId())]
    assert ops_main(["stock", "set", *ids, "2", "--cause", "typo"]) == 1
    assert "COLOR_NOT_FOUND" in capsys.readouterr().err
    assert demo_db.stock_changes.count_documents({}) == 0


def test_prices_set_changes_the_price_buyers_see_but_not_placed_orders(demo_db: Db, api: ApiClient) -> None:
    # Given the demo order's modification and its price when ordered
    order = demo_db.orders.find_one({"_id": DEMO_NEW_ORDER_ID})
    assert order is not None
    new_price = order["price"] - 5_000_000
    # When an operator lowers the price
    modification = str(order["modificationId"])
    assert ops_main(["prices", "set", modification, str(new_price), "--cause", "spring sale"]) == 0
    # Then the car shows it, its "from" price follows, and the change is logged with who and why
    api.login("+998901234567")
    car = api.get(f"/api/v1/cars/{order['carId']}").json()["data"]
    shown = next(item for item in car["modifications"] if item["_id"] == modification)
    assert shown["price"] == new_price
    stored = demo_db.cars.find_one({"_id": order["carId"]})
    assert stored is not None
    assert stored["priceFrom"] == min(item["price"] for item in stored["modifications"])
    logged = demo_db.price_changes.find_one({"modificationId": order["modificationId"]})
    assert logged is not None
    assert (logged["before"], logged["after"], logged["cause"]) == (order["price"], new_price, "spring sale")
    assert logged["by"]
    # And the order placed before keeps its price
    placed = api.get(f"/api/v1/orders/{DEMO_NEW_ORDER_ID}").json()["data"]
    assert placed["price"] == order["price"]


def test_prices_set_refuses_an_unknown_modification_or_a_bad_price(
    demo_db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ops_main(["prices", "set", str(ObjectId()), "100", "--cause", "x"]) == 1
    assert "MODIFICATION_NOT_FOUND" in capsys.readouterr().err
    # A bad argument: exit 2 and one line naming it
    assert ops_main(["prices", "set", str(ObjectId()), "12.5", "--cause", "x"]) == 2
    assert capsys.readouterr().err.startswith("error: BAD_ARGUMENT: argument price: a price is a positive whole")


def test_promo_add_list_disable(db: Db, api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a percent code added by an operator, capped, for 10 uses
    added = ops_main(["promo", "add", "spring15", "--percent", "15", "--cap", "5000000", "--uses", "10"])
    assert added == 0
    # Then a buyer can apply it, with its rules
    api.login()
    applied = api.post("/api/v1/orders/apply-promo-code", json={"code": "SPRING15"})
    assert applied.status_code == 200, applied.text
    assert (applied.json()["data"]["discountType"], applied.json()["data"]["maxDiscount"]) == ("PERCENT", 5_000_000)
    # And the list shows it with its uses
    capsys.readouterr()
    assert ops_main(["promo", "list"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split() == ["code", "discount", "used", "validFrom", "validTo"]
    assert rows[0].startswith("SPRING15  15 % (at most 5000000 sums)  0/10")
    # And for machines, as JSON
    assert ops_main(["promo", "list", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["code"], listed["value"], listed["maxDiscount"], listed["used"]) == ("SPRING15", 15, 5_000_000, 0)
    # When it is disabled, buyers are told it has expired
    assert ops_main(["promo", "disable", "spring15"]) == 0
    refused = api.post("/api/v1/orders/apply-promo-code", json={"code": "SPRING15"})
    assert refused.status_code == 409
    assert "expired" in refused.json()["message"]


def test_promo_add_refuses_what_the_rules_do_not_allow(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # A percent above 100, a cap on an amount, an end before the start, a code that exists
    assert ops_main(["promo", "add", "BIG", "--percent", "150"]) == 1
    assert ops_main(["promo", "add", "CAPPED", "--amount", "1000", "--cap", "500"]) == 1
    assert ops_main(["promo", "add", "LATE", "--amount", "1000", "--from", "2026-05-01", "--to", "2026-04-01"]) == 1
    assert ops_main(["promo", "add", "ONCE", "--amount", "1000"]) == 0
    assert ops_main(["promo", "add", "once", "--amount", "1000"]) == 1
    err = capsys.readouterr().err
    assert "Not a valid promo code: Value error, a PERCENT value is at most 100" in err
    assert "--cap goes with --percent" in err
    assert "validTo must be after validFrom" in err
    assert "A promo code with this code exists" in err
    assert db.promo_codes.count_documents({}) == 1
