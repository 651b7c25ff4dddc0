"""`make run`'s scheduled jobs (local.scheduler): each runs when its rate says on core.clock's time, as
Lambda invokes it, and a run that fails says so in one line and is tried at its next tick. The clock is
frozen and moved, never slept on; the handlers here stand in for the template's."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from core.clock import FrozenClock
from local.scheduler import Job, Scheduler
from local.template import ScheduledFunction, UnsupportedSchedule, parse_rate, scheduled_functions

MINUTE = 60
INVOCATIONS: list[tuple[dict[str, Any], Any]] = []
FAILURES_LEFT = {"count": 0}
HERE = __name__


def expire_something(event: dict[str, Any], context: Any) -> dict[str, Any]:
    INVOCATIONS.append((event, context))
    if FAILURES_LEFT["count"]:
        FAILURES_LEFT["count"] -= 1
        raise ConnectionError("database unreachable:\n  127.0.0.1:27018 refused")
    return {"expired": ["CR-TEST-000001"]}


def find_nothing(event: dict[str, Any], context: Any) -> dict[str, Any]:
    INVOCATIONS.append((event, context))
    return {"expired": [], "outcomes": {}, "delivered": 0}


@pytest.fixture(autouse=True)
def fresh_handlers() -> Iterator[None]:
    INVOCATIONS.clear()
    FAILURES_LEFT["count"] = 0
    yield
    INVOCATIONS.clear()


def job(handler: str, expression: str = "rate(1 minute)", function: str = "UnpaidOrderExpiry") -> Job:
    scheduled = ScheduledFunction(
        function=function,
        handler=f"{HERE}.{handler}",
        schedule="EveryMinute",
        expression=expression,
        every=parse_rate(expression),
        timeout_seconds=120,
    )
    return Job(scheduled, scheduled.every)


@pytest.mark.parametrize(
    ("expression", "every"),
    [
        ("rate(1 minute)", timedelta(minutes=1)),
        ("rate(5 minutes)", timedelta(minutes=5)),
        ("rate(1 hour)", timedelta(hours=1)),
        ("rate(12 hours)", timedelta(hours=12)),
    ],
)
def test_the_rates_the_template_uses_are_read(expression: str, every: timedelta) -> None:
    assert parse_rate(expression) == every


@pytest.mark.parametrize(
    "expression",
    [
        "cron(0 8 * * ? *)",
        "rate(1 day)",
        "rate(0 minutes)",
        "rate(1 minutes)",
        "rate(5 minute)",
        "at(2030-01-01T00:00:00)",
    ],
)
def test_an_expression_make_run_cannot_keep_is_refused(expression: str) -> None:
    with pytest.raises(UnsupportedSchedule):
        parse_rate(expression)


def test_a_template_with_a_schedule_make_run_cannot_keep_is_refused_naming_the_function() -> None:
    # Given a template whose nightly function runs on a cron expression
    template = {
        "Resources": {
            "NightlyFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "nightly.app.lambda_handler",
                    "Events": {
                        "AtEight": {"Type": "ScheduleV2", "Properties": {"ScheduleExpression": "cron(0 8 * * ? *)"}}
                    },
                },
            }
        }
    }
    # When make run reads it / Then it refuses, saying which function and which expression
    with pytest.raises(UnsupportedSchedule, match=r"Nightly \(AtEight\): 'cron\(0 8 \* \* \? \*\)' is not rate"):
        scheduled_functions(template)


def test_a_job_runs_once_per_period_as_lambda_runs_it(frozen_clock: FrozenClock) -> None:
    # Given make run's scheduler with a job every minute
    scheduler = Scheduler([job("expire_something")])
    # When the clock reaches a second before its first minute / Then nothing runs
    frozen_clock.advance(MINUTE - 1)
    assert scheduler.tick() == []
    # When it reaches the minute
    frozen_clock.advance(1)
    assert scheduler.tick() == ["UnpaidOrderExpiry"]
    # Then the handler got a scheduled event and a Lambda context of its function
    [(event, context)] = INVOCATIONS
    assert (event["source"], event["detail-type"]) == ("aws.scheduler", "Scheduled Event")
    assert event["time"] == frozen_clock().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert context.function_name == "UnpaidOrderExpiry"
    assert 0 < context.get_remaining_time_in_millis() <= 120_000
    # And a tick within the same minute runs nothing, the next minute runs it again
    frozen_clock.advance(MINUTE - 1)
    assert scheduler.tick() == []
    frozen_clock.advance(1)
    assert scheduler.tick() == ["UnpaidOrderExpiry"]


def test_runs_missed_while_the_clock_jumped_run_once_and_the_rate_keeps_its_beat(frozen_clock: FrozenClock) -> None:
    # Given a job every 5 minutes
    scheduler = Scheduler([job("find_nothing", "rate(5 minutes)", "PaymentReconciliation")])
    # When the clock jumps 17 minutes (a laptop asleep)
    frozen_clock.advance(17 * MINUTE)
    # Then it runs once, and next at 20 minutes, not 22
    assert scheduler.tick() == ["PaymentReconciliation"]
    frozen_clock.advance(3 * MINUTE - 1)
    assert scheduler.tick() == []
    assert scheduler.seconds_to_next_run() == 1
    frozen_clock.advance(1)
    assert scheduler.tick() == ["PaymentReconciliation"]
    assert len(INVOCATIONS) == 2


def test_a_run_that_says_something_prints_one_line_and_one_with_nothing_to_say_prints_none(
    frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a job that expires an order and one that finds nothing to do
    scheduler = Scheduler([job("expire_something"), job("find_nothing", function="OutboxPublisher")])
    # When both run
    frozen_clock.advance(MINUTE)
    assert scheduler.tick() == ["UnpaidOrderExpiry", "OutboxPublisher"]
    # Then the console has one line, of what the expiry did
    assert capsys.readouterr().out.splitlines() == ['UnpaidOrderExpiry: {"expired": ["CR-TEST-000001"]}']


def test_a_failing_run_prints_one_line_and_is_tried_at_the_next_tick(
    frozen_clock: FrozenClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a job whose next run fails (the database unreachable), beside another
    FAILURES_LEFT["count"] = 1
    scheduler = Scheduler([job("expire_something"), job("find_nothing", function="OutboxPublisher")])
    # When it runs
    frozen_clock.advance(MINUTE)
    assert scheduler.tick() == ["UnpaidOrderExpiry", "OutboxPublisher"]
    # Then make run's console says so in one line, and the other job ran all the same
    assert capsys.readouterr().out.splitlines() == [
        "UnpaidOrderExpiry failed (ConnectionError: database unreachable: 127.0.0.1:27018 refused); "
        "it runs again at its next tick"
    ]
    assert len(INVOCATIONS) == 2
    # And its next tick runs it again, and it succeeds
    frozen_clock.advance(MINUTE)
    assert scheduler.tick() == ["UnpaidOrderExpiry", "OutboxPublisher"]
    assert capsys.readouterr().out.splitlines() == ['UnpaidOrderExpiry: {"expired": ["CR-TEST-000001"]}']
