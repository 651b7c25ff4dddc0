"""Webhook delivery, run by Lambda off the partner webhook FIFO queue (data.webhook_queue): POSTs each
queued event to its partner's endpoint, signed, within WEBHOOK_TIMEOUT_SECONDS for the whole attempt
(domain.partners.delivery).

- In order per order: the queue's message group is the order, and SQS gives a group's next message
  only once the one before it is deleted (delivered) or dead-lettered.
- Retries with exponential backoff: a failed attempt makes its message invisible for
  WEBHOOK_RETRY_BASE_SECONDS x 2^(attempt - 1), at most WEBHOOK_RETRY_MAX_SECONDS, and no sooner than
  the endpoint's `Retry-After` (ChangeMessageVisibility), and reports it failed, so SQS offers it again
  then; the order's later events wait behind it. After the queue's maxReceiveCount attempts (about
  three days of them) it goes to the dead-letter queue (an alarm fires) and the order's next event goes
  out.
- An endpoint answering 410 Gone is disabled: its message is consumed, and so are the ones after it,
  unsent, until the operator enables it again.
- At least once: a delivery whose answer is lost is sent again with the same `webhook-id` (and
  `eventId` in the body); partners drop an id they have handled.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes import SQSEvent
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger, metrics
from core.settings import get_settings
from data import aws
from data.webhook_queue import EVENT_ID_ATTRIBUTE, PARTNER_ATTRIBUTE
from domain.partners import delivery


def _attribute(record: SQSRecord, name: str) -> str | None:
    attribute = record.message_attributes[name]
    return attribute.string_value if attribute else None


def deliver_record(record: SQSRecord) -> bool:
    """Deliver one message; when the endpoint does not take it, set its backoff and return False."""
    partner, event_id = _attribute(record, PARTNER_ATTRIBUTE), _attribute(record, EVENT_ID_ATTRIBUTE)
    if not partner or not event_id:
        logger.error("webhook message without partner or event id: dropped", extra={"message_id": record.message_id})
        return True
    attempt = delivery.deliver(partner, event_id, record.body)
    if attempt.delivered:
        if attempt.status == 410:
            metrics.add_metric(name="WebhookEndpointsDisabled", unit=MetricUnit.Count, value=1)
        elif attempt.status is not None:
            metrics.add_metric(name="WebhooksDelivered", unit=MetricUnit.Count, value=1)
        return True
    metrics.add_metric(name="WebhookDeliveryFailures", unit=MetricUnit.Count, value=1)
    tries = int(record.attributes.approximate_receive_count)
    delay = delivery.retry_delay_seconds(tries, attempt.retry_after_seconds)
    aws.client("sqs").change_message_visibility(
        QueueUrl=get_settings().webhook_queue_url, ReceiptHandle=record.receipt_handle, VisibilityTimeout=delay
    )
    logger.warning(
        "webhook retry scheduled",
        extra={
            "partner": partner,
            "event_id": event_id,
            "attempt": tries,
            "reason": attempt.reason,
            "retry_in_seconds": delay,
        },
    )
    return False


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Deliver the batch's messages in order; report the ones not delivered (ReportBatchItemFailures).
    After a failure the same order's later messages are not tried: they go back behind it, in order. An
    endpoint's failure is not the function's: only a broken invocation (the database down) raises."""
    failed_groups: set[str] = set()
    failures: list[dict[str, str]] = []
    for record in SQSEvent(event).records:
        group = record.attributes.message_group_id or record.message_id
        if group in failed_groups or not deliver_record(record):
            failed_groups.add(group)
            failures.append({"itemIdentifier": record.message_id})
    return {"batchItemFailures": failures}
