"""Paced admission (domain.orders.pacing, the SaleAdmission function) on the real MongoDB, stepped on a
frozen clock: each step's wait is the clock moving a second, never a sleep. Orders here are what the
order route leaves behind (a unit held, the entry's admission spent), written directly: the route itself
is test_sale_queue.py's."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from data import edge_files
from domain.catalog.sale import SaleQueue
from domain.orders import openings, pacing
from local.context import LocalLambdaContext
from local.scheduler import Job, local_schedule
from sales.admission import lambda_handler as admission_handler
from tests.data import CatalogCar, insert_entries, insert_order, purchasable_car
from tests.factories import all_at_once

Db = Database[dict[str, Any]]


def drawn_opening(
    db: Db, clock: FrozenClock, *, people: int, units_per_row: int, per_second: int
) -> tuple[CatalogCar, SaleQueue]:
    """A car in four stock rows of `units_per_row` each, `people` registered before its draw, and the
    clock just past the draw's moment and grace."""
    now = clock().replace(microsecond=0)
    draw_at = now + timedelta(hours=1)
    rules = {
        "startsAt": draw_at,
        "queue": {"registrationOpensAt": now, "admissionPerSecond": per_second, "admissionMinutes": 15},
    }
    car = purchasable_car(db, brand=f"Paced {ObjectId()}", quantity=units_per_row, sale=rules)
    queue = SaleQueue(now, draw_at, per_second, 15)
    openings.open_queue(car.car_id)
    insert_entries(db, car.car_id, people, now)
    clock.current = draw_at + openings.DRAW_GRACE
    return car, queue


def step(clock: FrozenClock, seconds: int = 1) -> dict[str, Any]:
    return pacing.run(seconds, sleep=clock.advance)


def serving(db: Db, car: CatalogCar) -> int:
    return int((db.sale_queues.find_one({"_id": car.car_id}) or {}).get("servingUpTo", 0))


def status(car: CatalogCar) -> dict[str, Any]:
    found = edge_files.read(edge_files.sale_status_key(car.car_id))
    assert found is not None
    return dict(found)


def order_by(db: Db, car: CatalogCar, position: int, *, status: str = "NEW") -> None:
    """The admitted person at `position` orders: a unit of the car held, their admission spent."""
    entry = db.sale_entries.find_one({"carId": car.car_id, "position": position})
    assert entry is not None
    assert entry.get("admittedUntil") is not None
    order = insert_order(db, entry["userId"], car, status=status, stockHold="HELD")
    assert db.stock.find_one_and_update({"carId": car.car_id, "quantity": {"$gt": 0}}, {"$inc": {"quantity": -1}})
    db.sale_entries.update_one({"_id": entry["_id"]}, {"$set": {"orderId": order["_id"]}})


def test_the_draw_then_at_most_the_pace_a_second_until_the_admitted_cover_the_units(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given 50 people drawn for 20 units, 3 admitted a second
    car, _ = drawn_opening(db, frozen_clock, people=50, units_per_row=5, per_second=3)
    # When the controller steps one second at a time
    seen = []
    for _ in range(9):
        step(frozen_clock)
        seen.append(serving(db, car))
    # Then the draw ran, and each second admitted at most 3, until the 20 admitted cover the 20 units
    assert db.sale_queues.find_one({"_id": car.car_id}, {"drawnAt": 1})["drawnAt"] is not None  # type: ignore[index]
    assert seen == [3, 6, 9, 12, 15, 18, 20, 20, 20]
    assert db.sale_entries.count_documents({"carId": car.car_id, "admittedUntil": {"$ne": None}}) == 20
    # And status.json says so, with the draw's seed published
    published = status(car)
    assert (published["servingUpTo"], published["unitsLeft"], published["soldOut"]) == (20, 20, False)
    assert published["seed"] is not None


def test_units_that_come_back_go_to_the_next_people_in_the_queue(db: Db, frozen_clock: FrozenClock) -> None:
    # Given 4 units, 4 people admitted of 10, and 2 of them ordered
    car, _ = drawn_opening(db, frozen_clock, people=10, units_per_row=1, per_second=10)
    step(frozen_clock)
    assert serving(db, car) == 4
    order_by(db, car, 1)
    order_by(db, car, 2)
    step(frozen_clock)
    assert serving(db, car) == 4  # the two admitted who have not ordered cover the two units left
    # When the other two let their admission pass unused
    frozen_clock.advance(15 * 60)
    step(frozen_clock)
    # Then their two units go to positions 5 and 6, not to anyone else
    assert serving(db, car) == 6
    # When one order is cancelled and its unit is back in stock
    db.orders.update_one({"carId": car.car_id}, {"$set": {"statusSlug": "CANCELLED", "stockHold": "RETURNED"}})
    db.stock.update_one(
        {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id},
        {"$inc": {"quantity": 1}},
    )
    step(frozen_clock)
    # Then it goes to position 7
    assert serving(db, car) == 7


def test_the_pace_halves_when_orders_meet_data_busy_and_climbs_back_when_they_do_not(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an opening admitting 10 a second for 1,000 units and 1,000 people
    car, _ = drawn_opening(db, frozen_clock, people=1_000, units_per_row=250, per_second=10)
    controller = pacing.Controller()
    queue = openings.queued_car(car.car_id)[1]

    def one_second() -> pacing.StepResult:
        result = controller.step_car(car.car_id, queue, frozen_clock())
        frozen_clock.advance(1)
        return result

    assert one_second().admitted == 10
    # When admitted orders meet DATA_BUSY, and then one is slow
    openings.record_order(car.car_id, busy=True, seconds=5.0)
    halved = one_second()
    openings.record_order(car.car_id, busy=False, seconds=pacing.SLOW_ORDER_SECONDS + 1)
    quartered = one_second()
    # Then the pace halves each time (the admitted follow it)
    assert (halved.pace, quartered.pace) == (5.0, 2.5)
    assert quartered.admitted == 2
    # When orders are quick again
    openings.record_order(car.car_id, busy=False, seconds=0.2)
    climbing = [one_second().pace for _ in range(9)]
    # Then it climbs back by a tenth of the limit a second, up to the limit
    assert climbing == [3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.0, 10.0]


def test_sold_out_within_a_step_of_the_last_unit_held_when_none_can_come_back(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given 4 units, 10 people, the 4 admitted ordering every unit, unpaid
    car, _ = drawn_opening(db, frozen_clock, people=10, units_per_row=1, per_second=10)
    step(frozen_clock)
    for position in range(1, 5):
        order_by(db, car, position)
    # When the controller steps
    step(frozen_clock)
    # Then it is not sold out: an unpaid hold may come back
    assert status(car)["soldOut"] is False
    assert status(car)["openHolds"] == 4
    # When every order is paid in full
    db.orders.update_many({"carId": car.car_id}, {"$set": {"statusSlug": "PAID"}})
    step(frozen_clock)
    # Then the next step (one second) says sold out, and every waiting person reads SOLD_OUT
    assert status(car)["soldOut"] is True
    waiting = db.sale_entries.find_one({"carId": car.car_id, "position": 5})
    running = db.sale_queues.find_one({"_id": car.car_id})
    assert waiting is not None
    assert running is not None
    assert openings.status_of(waiting, running, frozen_clock()) == openings.EntryStatus.SOLD_OUT  # type: ignore[arg-type]


def test_an_invocation_steps_each_second_and_stops_early_when_nothing_can_change(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given an opening of 2 units (one stock row) for 2 people
    car, _ = drawn_opening(db, frozen_clock, people=2, units_per_row=1, per_second=10)
    db.stock.update_many({"carId": car.car_id}, {"$set": {"quantity": 0}})
    first_row = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    db.stock.update_one(first_row, {"$set": {"quantity": 2}})
    # When a minute's invocation runs
    done = step(frozen_clock, 60)
    # Then it admitted both and kept stepping each second while they may order
    assert (done["admitted"], done["steps"]) == ({str(car.car_id): 2}, 60)
    # When both have ordered and paid, the next invocation finds it sold out in its first step and stops
    order_by(db, car, 1, status="PAID")
    order_by(db, car, 2, status="PAID")
    again = step(frozen_clock, 60)
    assert (again["steps"], again["soldOut"]) == (1, [str(car.car_id)])


def test_the_function_steps_within_its_invocation_and_make_run_runs_it_beside_the_other_jobs(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a drawn opening
    car, _ = drawn_opening(db, frozen_clock, people=3, units_per_row=1, per_second=10)
    # When the deployed handler is invoked with 13 s left (one step fits before its margin)
    result = admission_handler({}, LocalLambdaContext(function_name="SaleAdmission", timeout_seconds=13))
    # Then it stepped once and admitted the three
    assert (result["steps"], result["admitted"]) == (1, {str(car.car_id): 3})
    # And make run runs it every minute on its own thread, as it runs through its minute
    jobs = local_schedule()
    [job] = [job for job in jobs if job.scheduled.function == "SaleAdmission"]
    assert isinstance(job, Job)
    assert (job.scheduled.expression, job.runs_through_its_period) == ("rate(1 minute)", True)
    assert not any(other.runs_through_its_period for other in jobs if other is not job)


def test_two_runs_that_overlap_never_step_one_opening_at_once_and_the_next_takes_over_when_one_ends(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a drawn opening admitting 3 a second, and two runs of the controller (a late invocation and
    # the next minute's) stepping it in the same seconds
    car, queue = drawn_opening(db, frozen_clock, people=50, units_per_row=5, per_second=3)
    late, next_run = pacing.Controller(), pacing.Controller()
    # When both step it for two seconds
    seconds = []
    for _ in range(2):
        seconds.append(
            (late.step_car(car.car_id, queue, frozen_clock()), next_run.step_car(car.car_id, queue, frozen_clock()))
        )
        frozen_clock.advance(1)
    # Then only the first to take the claim stepped it: 3 admitted a second, not 6
    assert [(a.stepped, a.admitted, b.stepped, b.admitted) for a, b in seconds] == [(True, 3, False, 0)] * 2
    assert serving(db, car) == 6
    # And the other is not settled: it keeps trying while its invocation lasts
    assert not seconds[-1][1].settled
    # When the late run ends, and the next one steps
    late.release([car.car_id])
    taken = next_run.step_car(car.car_id, queue, frozen_clock())
    # Then it takes over at once, where the other left off
    assert (taken.stepped, taken.admitted, serving(db, car)) == (True, 3, 9)


def test_a_run_that_died_is_taken_over_when_its_claim_runs_out_and_then_admits_nobody(
    db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a drawn opening, and a run that stepped it once and then hung (it never gave its claim up)
    car, queue = drawn_opening(db, frozen_clock, people=50, units_per_row=5, per_second=3)
    hung, next_run = pacing.Controller(), pacing.Controller()
    assert hung.step_car(car.car_id, queue, frozen_clock()).admitted == 3
    # When another run steps it before the claim runs out
    frozen_clock.advance(pacing.CLAIM.total_seconds() - 1)
    # Then it waits
    assert not next_run.step_car(car.car_id, queue, frozen_clock()).stepped
    # When the claim has run out
    frozen_clock.advance(1)
    taken = next_run.step_car(car.car_id, queue, frozen_clock())
    # Then the other run takes the opening over
    assert (taken.stepped, serving(db, car)) == (True, 6)
    # When the hung run wakes and steps, or admits what it had decided before it hung
    woke = hung.step_car(car.car_id, queue, frozen_clock())
    stale = openings.admit(car.car_id, queue, 3 + 3, frozen_clock(), holder=hung.holder)
    # Then it does nothing: nobody is admitted twice, no second is admitted twice
    assert (woke.stepped, stale, serving(db, car)) == (False, 0, 6)
    assert db.sale_entries.count_documents({"carId": car.car_id, "admittedUntil": {"$ne": None}}) == 6


def test_of_six_runs_stepping_one_opening_at_the_same_instant_one_steps_it(db: Db, frozen_clock: FrozenClock) -> None:
    # Given a drawn opening admitting 3 a second, and six runs of the controller
    car, queue = drawn_opening(db, frozen_clock, people=50, units_per_row=5, per_second=3)
    runs = [pacing.Controller() for _ in range(6)]
    # When they all step it at once
    results = all_at_once([partial(run.step_car, car.car_id, queue, frozen_clock()) for run in runs])
    # Then one took the claim and admitted 3, the five others did nothing
    assert sorted((result.stepped, result.admitted) for result in results) == [(False, 0)] * 5 + [(True, 3)]
    assert serving(db, car) == 3
    # When their claim has run out and a whole invocation steps it
    frozen_clock.advance(pacing.CLAIM.total_seconds())
    done = pacing.run(1, sleep=frozen_clock.advance)
    # Then it admitted the next 3, and gave the claim up when it ended
    assert done["admitted"] == {str(car.car_id): 3}
    running = db.sale_queues.find_one({"_id": car.car_id}) or {}
    assert (running["claimedBy"], running["claimedUntil"]) == (None, None)
