"""`car-retail-ops catalog import` never undoes live data silently: an export carries the database's change
version (`exportedFrom`), an import of an older file that would undo a price, sale rules, a promo code or
stock changed since is refused naming each change (unless --force), stock is imported only with
--with-stock, and --dry-run names every record it would add, change (field by field) and remove."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from local.seed import DEMO_DATA_FILE, seed_all
from ops.__main__ import main as ops_main
from tests.data import CatalogCar, order_body
from tests.factories import ApiClient

Db = Database[dict[str, Any]]


@pytest.fixture
def demo_db(db: Db) -> Db:
    seed_all()
    return db


def export(tmp_path: Path, name: str = "export.json") -> Path:
    file = tmp_path / name
    assert ops_main(["catalog", "export", str(file)]) == 0
    return file


def catalog_import(file: Path, *options: str) -> int:
    return ops_main(["catalog", "import", str(file), *options])


def on_sale(db: Db) -> CatalogCar:
    """A demo car sold as usual (no sale rules) that a branch has in stock, as an order names it."""
    for row in db.stock.find({"quantity": {"$gte": 1}}).sort("_id", 1):
        car = db.cars.find_one({"_id": row["carId"], "active": True, "sale": None})
        modification = next(m for m in car["modifications"] if m["_id"] == row["modificationId"]) if car else None
        if car is None or modification is None or modification.get("sale") is not None:
            continue
        branch = db.branches.find_one({"_id": row["branchId"]})
        assert branch is not None
        return CatalogCar(
            brand_id=car["brandId"],
            car_id=car["_id"],
            modification_ids=[row["modificationId"]],
            color_ids=[row["colorId"]],
            region_id=branch["regionId"],
            branch_id=row["branchId"],
            prices=[modification["price"]],
        )
    raise AssertionError("the demo data has a car on sale in stock")


def quantity(db: Db, car: CatalogCar) -> int:
    row = db.stock.find_one({"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id})
    assert row is not None
    return int(row["quantity"])


def price(db: Db, car: CatalogCar) -> int:
    stored = db.cars.find_one({"_id": car.car_id})
    assert stored is not None
    return int(next(m["price"] for m in stored["modifications"] if m["_id"] == car.modification_id))


def export_then_order(db: Db, api: ApiClient, tmp_path: Path) -> tuple[CatalogCar, Path, int]:
    """A car on sale, an export, then an order of the car (its branch's stock goes down by one): the car,
    the export and the units the branch had when it was made."""
    car = on_sale(db)
    old = export(tmp_path)
    units = quantity(db, car)
    api.login("+998901234599")  # not the demo user, who holds the demo order (an unverified account holds one)
    placed = api.post("/api/v1/orders", json=order_body(car))
    assert placed.status_code == 201, placed.text
    return car, old, units


def test_an_old_export_after_an_order_and_a_price_change_is_refused_naming_the_change(
    demo_db: Db, api: ApiClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export, then an order of a car (its branch's stock goes down by one) and a new price
    car, old, units = export_then_order(demo_db, api, tmp_path)
    stored = demo_db.cars.find_one({"_id": car.car_id}) or {}
    position = [m["_id"] for m in stored["modifications"]].index(car.modification_id)
    new_price = car.price - 1_000_000
    assert ops_main(["prices", "set", str(car.modification_id), str(new_price), "--cause", "price list"]) == 0
    capsys.readouterr()
    # When the old export is imported, and dry-run
    for options in ((), ("--dry-run",)):
        status = catalog_import(old, *options)
        # Then it is refused (exit 1), naming the car, the field and both prices, and saying why in one line
        assert status == 1
        err = capsys.readouterr().err
        assert f"cars {car.car_id} (" in err
        assert f"modifications[{position}].price: {new_price} now, {car.price} in the file" in err
        assert err.splitlines()[-1].startswith("error: DATA_SET_OUTDATED: The file is older than live changes")
    # And the price and the stock are as they were made since
    assert price(demo_db, car) == new_price
    assert quantity(demo_db, car) == units - 1


def test_stock_is_left_alone_unless_with_stock_which_is_refused_after_orders(
    demo_db: Db, api: ApiClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export and an order placed since
    car, old, units = export_then_order(demo_db, api, tmp_path)
    capsys.readouterr()
    # When the old export is imported without --with-stock
    assert catalog_import(old) == 0
    # Then it changes nothing, says the stock was not imported, and the branch still has one unit less
    out = capsys.readouterr().out
    assert "stock: not imported (live data; --with-stock imports it)" in out
    assert out.splitlines()[-1] == "nothing changed"
    assert quantity(demo_db, car) == units - 1
    # When it is imported --with-stock / Then it is refused: orders moved stock since the export
    assert catalog_import(old, "--with-stock") == 1
    err = capsys.readouterr().err
    assert "stock: 1 order events since the file was exported" in err
    assert "error: DATA_SET_OUTDATED" in err
    assert quantity(demo_db, car) == units - 1


def test_promo_codes_and_sale_rules_made_since_are_not_undone_but_force_does(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export, then a promo code added and a car's sale rules set
    car = on_sale(demo_db)
    old = export(tmp_path)
    assert ops_main(["promo", "add", "LATE2026", "--amount", "1000000"]) == 0
    sale = ["sale", "set", str(car.car_id), "--hold-minutes", "90", "--cause", "opening"]
    assert ops_main(sale) == 0
    capsys.readouterr()
    # When the old export is imported / Then both are named, and nothing changed
    assert catalog_import(old) == 1
    err = capsys.readouterr().err
    assert "promoCodes LATE2026 (-): changed live since the file was exported" in err
    assert "the import would remove it" in err
    assert f"cars {car.car_id} (" in err
    assert "sale: " in err
    assert demo_db.promo_codes.find_one({"_id": "LATE2026"}) is not None
    # When it is imported with --force / Then it undoes them, and says so
    assert catalog_import(old, "--force") == 0
    out = capsys.readouterr().out
    assert "overwritten (--force): promoCodes LATE2026" in out
    assert demo_db.promo_codes.find_one({"_id": "LATE2026"}) is None
    assert demo_db.cars.find_one({"_id": car.car_id})["sale"] is None  # type: ignore[index]
    # And an export made now imports cleanly (its version is the database's)
    assert catalog_import(export(tmp_path, "now.json")) == 0


def test_a_file_not_exported_from_this_database_is_older_than_every_live_change(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a price changed in the demo database
    car = on_sale(demo_db)
    assert ops_main(["prices", "set", str(car.modification_id), "1000", "--cause", "test"]) == 0
    capsys.readouterr()
    # When the demo data file (no exportedFrom) is imported / Then that price is named, nothing changed
    assert catalog_import(DEMO_DATA_FILE) == 1
    assert "changed live since the file was exported (change 1, the file's none)" in capsys.readouterr().err
    assert price(demo_db, car) == 1000


def test_a_dry_run_names_each_record_it_would_add_change_and_remove(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export with a brand renamed, a promo code more and a special offer dropped
    file = export(tmp_path)
    data = json.loads(file.read_text(encoding="utf-8"))
    brand = data["brands"][0]
    old_name, brand["name"] = brand["name"], "Renamed"
    data["promoCodes"].append({"code": "NEW2026", "discountType": "FIXED", "value": 100_000})
    dropped = data["specialOffers"].pop(0)
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    # When it is imported with --dry-run
    assert catalog_import(file, "--dry-run") == 0
    # Then a table names each record, and the change field by field
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["collection", "record", "name", "action", "field", "before", "after"]
    rows = [line.split() for line in lines[1 : lines.index("")]]
    assert ["brands", brand["id"], brand["slug"], "change", "name", old_name, "Renamed"] in rows
    assert ["promoCodes", "NEW2026", "add"] in [[row[0], row[1], row[2]] for row in rows]
    assert any(row[:2] == ["specialOffers", dropped["id"]] and "remove" in row for row in rows)
    assert "brands: added 0, changed 1, deactivated 0, removed 0" in lines
    assert lines[-1] == "dry run: nothing was written"
    # And --json says the same for machines
    assert catalog_import(file, "--dry-run", "--json") == 0
    plan = json.loads(capsys.readouterr().out)
    renamed = next(record for record in plan["records"] if record["record"] == brand["id"])
    assert renamed["fields"] == [{"field": "name", "before": old_name, "after": "Renamed"}]
    assert {"collection": "promoCodes", "record": "NEW2026", "name": "", "action": "add"} in plan["records"]
    # And nothing was written
    assert demo_db.brands.find_one({"_id": ObjectId(brand["id"])})["name"] == old_name  # type: ignore[index]


def test_an_old_file_renaming_a_brand_is_refused_after_a_price_change_but_its_brands_list_alone_imports(
    demo_db: Db, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export, then a price changed live, then the old file edited to rename a brand
    car = on_sale(demo_db)
    data = json.loads(export(tmp_path).read_text(encoding="utf-8"))
    new_price = car.price - 1_000_000
    assert ops_main(["prices", "set", str(car.modification_id), str(new_price), "--cause", "price list"]) == 0
    brand = next(brand for brand in data["brands"] if brand["id"] == str(car.brand_id))
    brand["name"] = "Renamed"
    whole = tmp_path / "renamed.json"
    whole.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    # When the whole old file is imported / Then it is refused: its cars list holds the old price; and says
    # what to do
    assert catalog_import(whole) == 1
    err = capsys.readouterr().err
    assert f"{new_price} now, {car.price} in the file" in err
    assert "keep in this one only the lists you edited" in err.splitlines()[-1]
    assert demo_db.brands.find_one({"_id": car.brand_id})["name"] != "Renamed"  # type: ignore[index]
    # When the file keeps only the list it edited (a list left out leaves its collection as it is)
    brands_only = tmp_path / "brands.json"
    kept = {key: data[key] for key in ("format", "exportedFrom", "brands")}
    brands_only.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
    # Then it imports: the brand renamed, the price as it was set live
    assert catalog_import(brands_only) == 0
    assert demo_db.brands.find_one({"_id": car.brand_id})["name"] == "Renamed"  # type: ignore[index]
    assert price(demo_db, car) == new_price
