"""Paced admission of a fair opening (docs/DECISIONS.md, "Paced admission"): the SaleAdmission function
(template.yaml, every minute) steps each second of its minute (`run`), and each step (`step`) does for
every car sold through a queue:

1. the draw once its moment has come (`openings.draw_if_due`): its order computed once by an instance
   (INSTANCE_DRAWS: a new instance reads the closed list again), its positions written in order for
   DRAW_SHARE of each step's second until all are, and admission never past the last one written, so a
   national opening's million positions take many runs and admission starts with the first;
2. `soldOut` (every waiting entry then reads SOLD_OUT) once no unit is left and none can come back: no
   unpaid order holds one (a paid one is sold). Within a step of the last unit being held, so well
   within 15 s; lifted again if an operator's cancel or new stock brings units back;
3. admission: `servingUpTo` rises by at most the current pace a second (a second's fractions carried
   over), never past the point where the people admitted and not yet ordered cover the units left, so a
   unit that comes back (an expired hold, an admission that passed unused) goes to the next people in
   the queue, not to a second public rush;
4. the pace: `admissionPerSecond` at most, halved when orders of the car met DATA_BUSY or were slow
   (SLOW_ORDER_SECONDS) since the last step, raised back by a tenth of it a step when they did not
   (additive increase, multiplicative decrease: the database's answer steers the crowd);
5. its status.json, refreshed (`openings.publish`).

Runs may overlap (a late invocation and the next minute's, a retry, `make run`'s schedule beside a test):
a run steps a car only while it holds the car's admission claim, taken or renewed at each step by one
conditional update on the car's queue and running out CLAIM after it (so a run that died is taken over),
and given up when the run ends. The claim's holder alone writes the pace and sold out, and raises
`servingUpTo` only from the value it read (`openings.admit`), so a run that lost its claim admits nobody.

Orders report to it through `openings.record_order` (one `$inc` on the car's queue, outside the order's
transaction). Time is core.clock's and the wait between steps is the caller's (`sleep`), so tests step a
frozen clock without sleeping.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from bson import ObjectId

from core import clock, ids
from domain.catalog import sale
from domain.catalog import store as catalog
from domain.catalog.sale import SaleQueue
from domain.dealers import store as dealers
from domain.orders import holds, openings, store
from domain.orders.records import SaleQueueRecord

SLOW_ORDER_SECONDS = openings.SLOW_ORDER_SECONDS
PACE_FLOOR = 1.0  # people a second: the pace never stops admission altogether
RAISE_SHARE = 0.1  # of admissionPerSecond, added back each calm step
# A step's work must leave the next one its second; an invocation stops this long before its timeout.
STEP_SECONDS = 1.0
# A run steps a car only while it holds the car's admission claim, renewed each step: a run that died
# (or hangs) lets another take the car over this long after its last step.
CLAIM = timedelta(seconds=10)
# Of each step's second, the part the draw's positions may take while they are written; the rest is the
# step's admission and status.
DRAW_SHARE = 0.8
# This instance's draws in progress: a warm instance's next invocation goes on with the order it computed.
INSTANCE_DRAWS = openings.Draws()


class Feedback(NamedTuple):
    """What the car's orders reported since the opening began (counters on its queue)."""

    orders: int = 0
    busy: int = 0
    slow: int = 0

    def heard_since(self, before: Feedback) -> Feedback:
        return Feedback(self.orders - before.orders, self.busy - before.busy, self.slow - before.slow)


class StepResult(NamedTuple):
    """One car's step, for the function's log line."""

    car_id: ObjectId
    admitted: int
    serving_up_to: int
    pace: float
    sold_out: bool
    sold_out_now: bool  # this step found it sold out
    settled: bool  # nothing can change before the next invocation but a registration or a returned unit
    stepped: bool = True  # False: another run holds the car's admission claim, this one did nothing


def feedback_of(running: SaleQueueRecord) -> Feedback:
    found = running.get("feedback") or {}
    return Feedback(found.get("orders", 0), found.get("busy", 0), found.get("slow", 0))


def next_pace(pace: float, limit: int, heard: Feedback) -> float:
    """The pace after a step that heard `heard`: halved on trouble, raised back a tenth of the limit when
    calm (never above the limit nor below PACE_FLOOR)."""
    if heard.busy or heard.slow:
        return max(PACE_FLOOR, pace / 2)
    return min(float(limit), pace + max(1.0, limit * RAISE_SHARE))


class Controller:
    """One run of the controller (an invocation): its name on the cars' admission claims, and the pace's
    memory across its steps (the feedback heard last step, per car)."""

    def __init__(
        self, holder: str | None = None, *, ends: datetime | None = None, draws: openings.Draws | None = None
    ) -> None:
        self.holder = holder or str(ids.new_id())
        self.heard: dict[ObjectId, Feedback] = {}
        self.ends = ends  # the run's end: a draw's closed list is not read past it
        self.draws = draws if draws is not None else INSTANCE_DRAWS

    def step_car(self, car_id: ObjectId, queue: SaleQueue, now: datetime) -> StepResult:
        running = openings.ensure_queue(car_id)  # made if first met here (rules set outside `ops sale set`)
        if not store.take_admission_claim(car_id, self.holder, now=now, until=now + CLAIM):
            # Another run steps this car: this one tries again next second, and takes over when it ends.
            return StepResult(car_id, 0, 0, 0.0, sold_out=False, sold_out_now=False, settled=False, stepped=False)
        drawing_until = now + timedelta(seconds=DRAW_SHARE * STEP_SECONDS)
        running = openings.draw_if_due(
            car_id, queue, now, running=running, draws=self.draws, until=drawing_until, reading_until=self.ends
        )
        if running.get("drawnAt") is None:
            openings.publish(car_id)
            settled = now < queue.draw_at - timedelta(minutes=1)
            return StepResult(car_id, 0, 0, 0.0, sold_out=False, sold_out_now=False, settled=settled)
        # Orders and the expiry move units between these reads, so they are read in the order that errs on
        # the waiting side: the admitted who have not ordered and the open holds before the units (an order
        # placed in between counts as admitted or held and its unit not: the room is a unit short for a
        # step, never a unit too large), and the holds again when it looks sold out (an order that took the
        # last unit in between holds it).
        admitted_unused = store.count_admitted_unused(car_id, now)
        open_holds = store.count_open_holds(car_id, holds.may_come_back())
        units_left = dealers.units_of_car(car_id)
        sold_out = units_left == 0 and open_holds == 0 and store.count_open_holds(car_id, holds.may_come_back()) == 0
        if sold_out != bool(running.get("soldOut")):
            store.set_sold_out(car_id, sold_out, holder=self.holder)
        feedback = feedback_of(running)
        heard = feedback.heard_since(self.heard.get(car_id, feedback))
        self.heard[car_id] = feedback
        pace = next_pace(float(running.get("pace", queue.admission_per_second)), queue.admission_per_second, heard)
        credit = float(running.get("credit", 0.0)) + pace
        serving_up_to = running.get("servingUpTo", 0)
        waiting = max(0, openings.last_admissible(car_id, running) - serving_up_to)
        room = units_left - admitted_unused
        admit = 0 if sold_out else max(0, min(math.floor(credit), room, waiting))
        admitted = 0
        if admit:
            admitted = openings.admit(car_id, queue, serving_up_to + admit, now, holder=self.holder)
            serving_up_to += admit
        # Fractions carry over while people wait and units are left; a blocked second banks nothing.
        credit = credit - admit if admit or (room > 0 and waiting > 0) else 0.0
        store.set_pace(car_id, pace=pace, credit=min(credit, float(queue.admission_per_second)), holder=self.holder)
        openings.publish(car_id)
        # Settled: the draw written, nobody waits nor may order, and no payment of an open hold can make it
        # sell out.
        nobody = waiting - admit == 0 and admitted_unused + admitted == 0
        settled = openings.draw_complete(running) and (sold_out or (nobody and (units_left > 0 or open_holds == 0)))
        sold_out_now = sold_out and not running.get("soldOut")
        return StepResult(car_id, admitted, serving_up_to, pace, sold_out, sold_out_now, settled)

    def release(self, car_ids: list[ObjectId]) -> None:
        """Give up the run's claims (the next run takes them at once, not after CLAIM)."""
        for car_id in car_ids:
            store.release_admission_claim(car_id, self.holder)


def queued_cars() -> list[tuple[ObjectId, SaleQueue]]:
    """The cars sold through a queue whose registration has opened."""
    now = clock.now()
    found = []
    for car in catalog.find_queued_cars():
        queue = sale.queue_of(car)
        if queue is not None and now >= queue.registration_opens_at:
            found.append((car["_id"], queue))
    return found


def run(steps: int, *, sleep: Callable[[float], None], draws: openings.Draws | None = None) -> dict[str, Any]:
    """Step every queued car once a second, `steps` times, within `steps` seconds: fewer when every car
    is settled (the next invocation picks up what a registration or a returned unit changes), or when
    steps slower than a second used the run's time up (run on, it would still be going when the next
    invocation comes, which its reserved concurrency of 1 throttles: a minute with no step); what was
    done, for the log. `draws`: the draws in progress it goes on with (default this instance's)."""
    cars = queued_cars()
    began = clock.now()
    controller = Controller(ends=began + timedelta(seconds=steps * STEP_SECONDS), draws=draws)
    admitted: dict[str, int] = {}
    sold_out: list[str] = []
    ran = 0
    try:
        for n in range(steps):
            started = clock.now()
            results = [controller.step_car(car_id, queue, started) for car_id, queue in cars]
            ran += 1
            for result in results:
                if result.admitted:
                    admitted[str(result.car_id)] = admitted.get(str(result.car_id), 0) + result.admitted
                if result.sold_out_now:
                    sold_out.append(str(result.car_id))
            if all(result.settled for result in results) or n == steps - 1:
                break
            if (clock.now() - began).total_seconds() >= (steps - 1) * STEP_SECONDS:
                break  # the next step's second would be past the run's last
            spent = (clock.now() - started).total_seconds()
            sleep(max(0.0, STEP_SECONDS - spent))
    finally:
        controller.release([car_id for car_id, _ in cars])
    return {"steps": ran, "admitted": admitted, "soldOut": sold_out}
