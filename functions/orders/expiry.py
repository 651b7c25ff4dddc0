"""The UnpaidOrderExpiry function's entry (template.yaml): cancel the NEW orders nothing was paid on within
their hold (payBy), giving their units of stock back (domain.orders.expiry.expire_unpaid), and those with
less than their deposit paid, their card payments marked to be refunded (domain.payments.deposits),
every minute."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from data import outbox
from domain.orders.expiry import expire_unpaid
from domain.payments.deposits import expire_underpaid


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The scheduled entry point (EventBridge Scheduler)."""
    outbox.start_request()
    expired = expire_unpaid() + expire_underpaid()
    outbox.flush()  # the cancellations' events; the outbox publisher delivers any left
    metrics.add_metric(name="OrdersExpired", unit=MetricUnit.Count, value=len(expired))
    return {"expired": [order.contract_number for order in expired]}
