"""The PaymentReconciliation function's entry (template.yaml): one pass of the payment reconciliation
(domain.payments.reconciliation) every 5 minutes."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from data import outbox, outbox_requests
from domain.payments.reconciliation import reconcile


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The scheduled entry point (EventBridge Scheduler)."""
    outbox_requests.start_request()
    report = reconcile()
    outbox.flush()  # the events of what was finished; the outbox publisher delivers any left
    return report.summary()
