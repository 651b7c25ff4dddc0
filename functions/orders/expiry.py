"""The UnpaidOrderExpiry function's entry (template.yaml): cancel the late orders, those that missed their
deposit's or their payment's deadline (domain.orders.holds), giving their units of stock and promo uses
back and marking their card payments to be refunded (domain.orders.expiry), every minute."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from data import outbox, outbox_requests
from domain.orders.expiry import expire_late
from domain.payments.cancellations import card_refunds


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The scheduled entry point (EventBridge Scheduler)."""
    outbox_requests.start_request()
    expired = expire_late(card_refunds)
    outbox.flush()  # the cancellations' events; the outbox publisher delivers any left
    metrics.add_metric(name="OrdersExpired", unit=MetricUnit.Count, value=len(expired))
    return {"expired": [order.contract_number for order in expired]}
