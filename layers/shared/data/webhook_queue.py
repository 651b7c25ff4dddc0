"""The partner webhook queue: an Amazon SQS FIFO queue between the outbox and the webhook delivery
function (functions/webhooks).

The outbox hands over each webhook once its change is committed (`data.outbox`), one order's in
sequence, one at a time; the message group is the order, so SQS gives the delivery function one
order's events in that order and holds back the group's later events while one is being retried. The
deduplication id is the event id: a webhook the outbox hands over twice within SQS's five-minute
deduplication interval is queued once (later duplicates reach the partner, who drops a seen event id).

Deployed, WEBHOOK_QUEUE_URL names the queue; an operator command run from a laptop without it leaves
its webhooks in the outbox for the deployed publisher. On a laptop (STAGE=local) there is no queue: the
local runtime registers a consumer (`use_local_consumer`): `make run`'s workers one that takes nothing
(their requests never wait on an endpoint), its serving process and single-process commands one that
delivers in-process (`local.webhooks`); a local process without one writes them to the log, as it
does events.
"""

from collections.abc import Callable
from typing import NamedTuple

from aws_lambda_powertools.metrics import MetricUnit

from core.observability import logger, metrics
from core.settings import get_settings
from data import aws

MAX_MESSAGES_PER_CALL = 10  # SendMessageBatch takes at most 10 messages
PARTNER_ATTRIBUTE = "partner"
# The event id travels as an attribute too: a FIFO dead-letter queue replaces the deduplication id with
# the message id, and a redriven webhook must keep its event id.
EVENT_ID_ATTRIBUTE = "eventId"


class QueuedWebhook(NamedTuple):
    event_id: str
    partner: str  # whose endpoint it goes to
    group: str  # what it is ordered within (an order's id)
    body: str  # the JSON the partner receives, exactly
    # SQS's deduplication id: the event id, but a replay's own (a replay within SQS's five-minute
    # deduplication interval of the first delivery must not be dropped as its duplicate)
    deduplication_id: str = ""


type LocalConsumer = Callable[[list[QueuedWebhook]], list[bool]]

_local_consumer: LocalConsumer | None = None


def use_local_consumer(consumer: LocalConsumer | None) -> None:
    """On a laptop (no WEBHOOK_QUEUE_URL): hand webhooks to `consumer` instead of a queue."""
    global _local_consumer  # noqa: PLW0603 (set once by the local runtime)
    _local_consumer = consumer


def send(batch: list[QueuedWebhook]) -> list[bool]:
    """Queue up to 10 webhooks with one SendMessageBatch call; for each, whether SQS took it. A failure
    is logged and counted, never raised: the outbox keeps the webhook for the next try."""
    if len(batch) > MAX_MESSAGES_PER_CALL:
        raise ValueError(f"at most {MAX_MESSAGES_PER_CALL} webhooks per call")
    if not batch:
        return []
    settings = get_settings()
    if settings.webhook_queue_url is None:
        if _local_consumer is not None:
            return _local_consumer(batch)
        if settings.is_local:  # a local process without the local runtime (a test): like events, to the log
            for webhook in batch:
                logger.info("partner webhook", extra={"partner": webhook.partner, "event_id": webhook.event_id})
            return [True] * len(batch)
        logger.warning(
            "no webhook queue here (WEBHOOK_QUEUE_URL): the outbox publisher delivers these",
            extra={"event_ids": [webhook.event_id for webhook in batch]},
        )
        return [False] * len(batch)
    entries = [
        {
            "Id": str(index),
            "MessageBody": webhook.body,
            "MessageGroupId": webhook.group,
            "MessageDeduplicationId": webhook.deduplication_id or webhook.event_id,
            "MessageAttributes": {
                PARTNER_ATTRIBUTE: {"DataType": "String", "StringValue": webhook.partner},
                EVENT_ID_ATTRIBUTE: {"DataType": "String", "StringValue": webhook.event_id},
            },
        }
        for index, webhook in enumerate(batch)
    ]
    try:
        answer = aws.client("sqs").send_message_batch(QueueUrl=settings.webhook_queue_url, Entries=entries)
        taken = {entry["Id"] for entry in answer.get("Successful", [])}
    except Exception:
        logger.exception("webhook queueing failed", extra={"event_ids": [webhook.event_id for webhook in batch]})
        taken = set()
    accepted = [str(index) in taken for index in range(len(batch))]
    refused = [webhook.event_id for webhook, ok in zip(batch, accepted, strict=True) if not ok]
    if refused:
        logger.error("webhooks not accepted by SQS", extra={"event_ids": refused})
        metrics.add_metric(name="WebhookQueueFailures", unit=MetricUnit.Count, value=len(refused))
    return accepted
