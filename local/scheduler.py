"""`make run`'s scheduled jobs: every function template.yaml schedules, its handler invoked as Lambda
invokes it (an EventBridge Scheduler event, a Lambda context) at the template's rate, by one thread of
the serving process. The schedule is read from the template when `make run` starts, so a change of the
template changes `make run`; an expression it cannot keep stops it there (local.template.parse_rate).

Time is core.clock's: `Scheduler.tick()` runs whatever is due at `clock.now()`, so tests move a frozen
clock and tick instead of waiting. Jobs run one after another, never two at once (the deployed ones
reserve a concurrency of 1), except a job that runs through its period (SaleAdmission steps each second
of its minute): its own thread runs it, so the others keep their times, and a tick that finds its run
still going skips it, as the deployed schedule's invocation would be throttled. Each run's log lines go
to the console as the function writes them, then
one line of what it did when it did something (`UnpaidOrderExpiry: {"expired": ["CR-…"]}`). A run that
fails prints one line and is tried again at its next tick, as the deployed schedules do (no retry).
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core import clock
from local.context import LocalLambdaContext
from local.gateway import load_handler
from local.template import ScheduledFunction, scheduled_functions

OUTBOX_PUBLISHER = "OutboxPublisher"
# One code path delivers the outbox under `make run`: the deployed OutboxPublisher handler. Deployed, a
# request hands its webhooks to the SQS queue itself; `make run`'s workers leave them in the outbox
# instead (a request never waits on an endpoint: local.webhooks), so the publisher runs this often to
# stand in for the queue. Its template rate, every minute, is kept by running more often.
WEBHOOKS_EVERY = timedelta(seconds=2)
# The fair openings' controller steps each second of its minute (its handler runs ~58 s).
RUNS_THROUGH_ITS_PERIOD = frozenset({"SaleAdmission"})
LOCAL_ACCOUNT = "000000000000"  # local.context's, in the ARNs a function is shown
LOCAL_REGION = "local"
FAILURE_LINE_CHARS = 300


@dataclass(frozen=True)
class Job:
    scheduled: ScheduledFunction
    every: timedelta  # how often `make run` runs it

    @property
    def runs_through_its_period(self) -> bool:
        """A function that steps through its period (domain.orders.pacing), so runs beside the others."""
        return self.scheduled.function in RUNS_THROUGH_ITS_PERIOD

    def describe(self) -> str:
        if self.every == self.scheduled.every:
            return f"{self.scheduled.function} {self.scheduled.expression}"
        return (
            f"{self.scheduled.function} every {self.every.total_seconds():g} s "
            f"({self.scheduled.expression} in the template; make run's webhook queue too)"
        )


def local_schedule(scheduled: Sequence[ScheduledFunction] | None = None) -> list[Job]:
    """The template's scheduled functions at their rates, the outbox publisher every WEBHOOKS_EVERY
    (above); UnsupportedSchedule for an expression the template has and this cannot keep."""
    scheduled = scheduled_functions() if scheduled is None else scheduled
    return [
        Job(job, min(job.every, WEBHOOKS_EVERY) if job.function == OUTBOX_PUBLISHER else job.every) for job in scheduled
    ]


def scheduler_event(scheduled: ScheduledFunction, at: datetime) -> dict[str, Any]:
    """What EventBridge Scheduler sends a Lambda target that has no Input (the template gives none):
    its scheduled event's envelope. The handlers read none of it."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.scheduler",
        "account": LOCAL_ACCOUNT,
        "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": LOCAL_REGION,
        "resources": [
            f"arn:aws:scheduler:{LOCAL_REGION}:{LOCAL_ACCOUNT}:schedule/default/"
            f"{scheduled.function}Function{scheduled.schedule}"
        ],
        "detail": "{}",
    }


class Scheduler:
    """Runs each job when its time comes on core.clock: first one period after it is made (as a new
    schedule does), then every period. A run due several times over (the clock moved on, a laptop
    slept) runs once: the deployed schedules drop an event older than its period."""

    def __init__(self, jobs: Sequence[Job]) -> None:
        start = clock.now()
        self.jobs = list(jobs)
        self.due = [start + job.every for job in self.jobs]
        self.running: dict[str, threading.Thread] = {}  # the jobs that run through their period, running

    def tick(self) -> list[str]:
        """Run every job that is due now; returns the functions run, in order."""
        now = clock.now()
        ran = []
        for index, job in enumerate(self.jobs):
            if now < self.due[index]:
                continue
            if job.runs_through_its_period:
                self.run_alone(job, now)
            else:
                self.run(job, now)
            ran.append(job.scheduled.function)
            periods = (now - self.due[index]) // job.every + 1
            self.due[index] += periods * job.every
        return ran

    def seconds_to_next_run(self) -> float:
        return max(0.0, (min(self.due) - clock.now()).total_seconds()) if self.due else 60.0

    def run(self, job: Job, at: datetime) -> None:
        scheduled = job.scheduled
        context = LocalLambdaContext(function_name=scheduled.function, timeout_seconds=scheduled.timeout_seconds)
        try:
            result = load_handler(scheduled.handler)(scheduler_event(scheduled, at), context)
        except Exception as failure:  # a failed run never stops `make run`: the next tick tries again
            reason = " ".join(f"{type(failure).__name__}: {failure}".split())[:FAILURE_LINE_CHARS]
            print(f"{scheduled.function} failed ({reason}); it runs again at its next tick", flush=True)
            return
        if _says_something(result):
            print(f"{scheduled.function}: {json.dumps(result, ensure_ascii=False, default=str)}", flush=True)

    def run_alone(self, job: Job, at: datetime) -> None:
        """Run the job in its own thread, unless its previous run is still going."""
        name = job.scheduled.function
        previous = self.running.get(name)
        if previous is not None and previous.is_alive():
            return
        thread = threading.Thread(target=self.run, args=(job, at), name=f"scheduled-{name}", daemon=True)
        self.running[name] = thread
        thread.start()

    def start(self, stop: threading.Event) -> threading.Thread:
        """Tick in a daemon thread, waking when the next job is due, until `stop` is set."""

        def loop() -> None:
            while not stop.wait(self.seconds_to_next_run()):
                self.tick()

        thread = threading.Thread(target=loop, name="scheduled-jobs", daemon=True)
        thread.start()
        return thread


def _says_something(result: object) -> bool:
    """Whether a run's result is worth a line: an empty list, zero counts and no outcomes are not."""
    if isinstance(result, dict):
        return any(_says_something(value) for value in result.values())
    return bool(result)
