"""Domain events on Amazon EventBridge, so dealer systems can follow orders and payments.

Events are not sent from here directly: a state change writes its event to the outbox in the same
transaction (`data.outbox`), and the outbox publisher hands them to `deliver`. Deployed, they go to
the bus named by EVENT_BUS_NAME. Locally (STAGE=local) there is no AWS account, so events are written
to the log instead, unless EVENT_PUBLISHER=eventbridge says otherwise (tests do, with moto).

EventBridge has no field for a producer's id: every event's `detail` carries `eventId` (the outbox
entry's id, the same on every delivery of it) and `sequence` (its order within its order or payment).
Delivery is at least once, so consumers drop an `eventId` they have already handled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from core.observability import logger, metrics
from core.serialization import to_json
from core.settings import get_settings
from data import aws

SOURCE = "car-retail-api"
MAX_ENTRIES_PER_CALL = 10  # PutEvents takes at most 10 entries


@dataclass(frozen=True)
class Event:
    id: str
    detail_type: str
    detail: dict[str, Any]  # with eventId and sequence
    time: datetime


def deliver(batch: list[Event]) -> list[bool]:
    """Put up to 10 events on the bus with one PutEvents call; for each, whether EventBridge took it.
    A failure is logged and counted, never raised: the outbox keeps the event for the next try."""
    if len(batch) > MAX_ENTRIES_PER_CALL:
        raise ValueError(f"at most {MAX_ENTRIES_PER_CALL} events per call")
    if not batch:
        return []
    settings = get_settings()
    if settings.effective_event_publisher == "log":
        for event in batch:
            logger.info(
                "domain event",
                extra={
                    "detail_type": event.detail_type,
                    "event_id": event.id,
                    "detail": json.loads(to_json(event.detail)),
                },
            )
        return [True] * len(batch)
    entries = [
        {
            "Source": SOURCE,
            "DetailType": event.detail_type,
            "Detail": to_json(event.detail),
            "EventBusName": settings.event_bus_name,
            "Time": event.time,
        }
        for event in batch
    ]
    try:
        results = aws.client("events").put_events(Entries=entries).get("Entries", [])
    except Exception:
        logger.exception("event publishing failed", extra={"event_ids": [event.id for event in batch]})
        results = []
    # PutEvents answers one result per entry, in order; an entry it took has an EventId and no ErrorCode.
    accepted = [
        index < len(results) and bool(results[index].get("EventId")) and not results[index].get("ErrorCode")
        for index in range(len(batch))
    ]
    refused = [event for event, ok in zip(batch, accepted, strict=True) if not ok]
    for event in refused:
        logger.error(
            "event not accepted by EventBridge", extra={"detail_type": event.detail_type, "event_id": event.id}
        )
    if refused:
        metrics.add_metric(name="EventPublishFailures", unit=MetricUnit.Count, value=len(refused))
    return accepted
