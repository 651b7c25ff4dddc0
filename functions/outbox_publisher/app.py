"""Outbox publisher, run by EventBridge Scheduler every minute: delivers the events that requests
committed but did not publish themselves (EventBridge refused them, or the invocation ended between
the commit and its publish). See data.outbox for the order and duplicate guarantees.

A failure (the database unreachable) fails the invocation: the scheduler retries it and then sends it
to the function's dead-letter queue, and the next minute's run starts again anyway.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from data import outbox

# Well inside the function's timeout; whatever is left waits for the next minute's run.
MAX_EVENTS_PER_RUN = 2000


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    result = outbox.publish_pending(limit=MAX_EVENTS_PER_RUN)
    oldest = outbox.oldest_pending_age_seconds()
    metrics.add_metric(name="OutboxEventsDelivered", unit=MetricUnit.Count, value=result.delivered)
    metrics.add_metric(name="OutboxEventsFailed", unit=MetricUnit.Count, value=result.failed)
    # What the stuck-outbox alarm watches: an event waiting this long is not reaching the bus.
    metrics.add_metric(name="OutboxOldestPendingSeconds", unit=MetricUnit.Seconds, value=oldest)
    if oldest:
        logger.warning("outbox events still pending", extra={"oldest_pending_seconds": oldest})
    return {"delivered": result.delivered, "failed": result.failed, "oldestPendingSeconds": oldest}
