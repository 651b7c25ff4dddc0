"""The SaleAdmission function's entry (template.yaml): every minute, step each second of the minute
through every fair opening (domain.orders.pacing): the draw when it is due, paced admission, sold out,
status.json. It stops STOP_BEFORE_TIMEOUT_S before its timeout, so one invocation ends before the next
minute's starts (its reserved concurrency is 1)."""

from __future__ import annotations

import time
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from domain.orders import pacing

STEPS_PER_RUN = 60  # one a second, the schedule's minute
STOP_BEFORE_TIMEOUT_S = 12  # the last step's work and a margin (the timeout is 70 s)


def steps_within(context: LambdaContext) -> int:
    """How many one-second steps fit in what is left of the invocation."""
    seconds = context.get_remaining_time_in_millis() / 1000 - STOP_BEFORE_TIMEOUT_S
    return max(1, min(STEPS_PER_RUN, int(seconds)))


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The scheduled entry point (EventBridge Scheduler)."""
    done = pacing.run(steps_within(context), sleep=time.sleep)
    metrics.add_metric(name="SaleAdmitted", unit=MetricUnit.Count, value=sum(done["admitted"].values()))
    return done
