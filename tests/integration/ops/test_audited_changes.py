"""An operator's audited change of live data (`data.audit.operator_change`, behind `ops prices set`, `sale
set` and `stock set`): the change version raised, the change written and its audit record kept, all or
nothing, and changes made at the same time each get their own version, in the order they land."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from pymongo.client_session import ClientSession
from pymongo.database import Database
from pymongo.errors import DuplicateKeyError

from core.errors import NotFound
from data import audit, counters
from data.audit import Stamp
from domain.dealers.stock import set_quantity
from tests.data import CatalogCar, purchasable_car, stock_quantity
from tests.factories import all_at_once

Db = Database[dict[str, Any]]
Change = dict[str, Any]


def raise_price(db: Db, car: CatalogCar) -> Callable[[ClientSession, Stamp], Change]:
    """A change's write: the car's first modification 1,000 dearer, stamped; its audit record."""

    def write(session: ClientSession, stamp: Stamp) -> Change:
        db.cars.update_one(
            {"_id": car.car_id, "modifications._id": car.modification_id},
            {"$inc": {"modifications.$.price": 1000}, "$set": {"changedIn": stamp.version}},
            session=session,
        )
        return {"_id": stamp.id, "carId": car.car_id, "by": stamp.by, "cause": stamp.cause, "at": stamp.at}

    return write


def keep_in(db: Db, *, times: int = 1) -> audit.Recorder[Change]:
    """A store's record: inserts the audit record `times` times (twice: refused, its id is taken)."""

    def record(change: Change, /, *, session: ClientSession) -> None:
        for _ in range(times):
            db.price_changes.insert_one(change, session=session)

    return record


def as_it_is(db: Db, car: CatalogCar) -> tuple[Any, ...]:
    """What a change would touch: the car, the change version and the audit log."""
    return db.cars.find_one({"_id": car.car_id}), counters.read_change_version(), list(db.price_changes.find())


def test_a_change_is_written_stamped_with_a_new_version_and_recorded_with_who_and_why(db: Db) -> None:
    # Given a car, and the database's change version
    car = purchasable_car(db)
    _, version = counters.read_change_version()
    # When an operator changes it
    change = audit.operator_change(raise_price(db, car), keep_in(db), by="dilnoza", cause="new tariff")
    # Then the car changed, stamped with the next version, and the change is logged with who and why
    stored = db.cars.find_one({"_id": car.car_id})
    assert stored is not None
    assert (stored["modifications"][0]["price"], stored["changedIn"]) == (car.price + 1000, version + 1)
    assert db.price_changes.find_one({"_id": change["_id"]}, {"_id": 0, "by": 1, "cause": 1}) == {
        "by": "dilnoza",
        "cause": "new tariff",
    }


def test_a_change_its_write_refuses_leaves_the_data_the_version_and_the_log_as_they_were(db: Db) -> None:
    # Given a car, and a change that writes it and then finds something missing
    car = purchasable_car(db)
    audit.operator_change(raise_price(db, car), keep_in(db), by="dilnoza", cause="first")
    before = as_it_is(db, car)
    write = raise_price(db, car)

    def refused(session: ClientSession, stamp: Stamp) -> Change:
        write(session, stamp)
        raise NotFound("MODIFICATION_NOT_FOUND")

    # When an operator makes it
    with pytest.raises(NotFound) as refusal:
        audit.operator_change(refused, keep_in(db), by="dilnoza", cause="second")
    # Then the operator is told why, and nothing of it was kept: not the write, the version nor a record
    assert refusal.value.code == "MODIFICATION_NOT_FOUND"
    assert as_it_is(db, car) == before


def test_a_change_whose_audit_record_cannot_be_kept_is_undone(db: Db) -> None:
    # Given a car, and a change whose audit record the log refuses
    car = purchasable_car(db)
    before = as_it_is(db, car)
    # When an operator makes it
    with pytest.raises(DuplicateKeyError):
        audit.operator_change(raise_price(db, car), keep_in(db, times=2), by="dilnoza", cause="refused")
    # Then the change is not made: a change nobody can tell who made does not happen
    assert as_it_is(db, car) == before


def test_parallel_stock_changes_of_one_row_each_get_their_own_version_and_the_row_keeps_the_last(db: Db) -> None:
    # Given a row of 3 units
    car = purchasable_car(db, quantity=3)
    _, version = counters.read_change_version()
    row = (car.branch_id, car.modification_id, car.color_id)
    # When four operators set it at the same moment
    changes = all_at_once(
        [partial(set_quantity, *row, units, by=f"op{units}", cause="count") for units in (4, 5, 6, 7)]
    )
    # Then each change is logged, and they landed one after another, each seeing the one before it: their
    # records chain from the row's 3 units to what the row holds now, which the last of them set
    logged = {change["before"]: change for change in db.stock_changes.find({"branchId": car.branch_id})}
    assert len(logged) == len(changes) == 4
    units, landed = 3, list[str]()
    while units in logged and len(landed) < len(logged):
        landed.append(logged[units]["by"])
        units = logged[units]["after"]
    assert sorted(landed) == ["op4", "op5", "op6", "op7"]
    assert stock_quantity(db, car) == units
    # And each took its own version
    assert counters.read_change_version()[1] == version + 4
