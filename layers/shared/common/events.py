"""Domain events on Amazon EventBridge, so dealer systems can follow orders and payments.

Deployed, events go to the bus named by EVENT_BUS_NAME. Locally (STAGE=local) there is no AWS account,
so events are written to the log instead, unless EVENT_PUBLISHER=eventbridge says otherwise (tests do,
with moto). Publishing happens after the database change it reports; a failure to publish is logged
and counted, never turned into a failed request for a change that already happened.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from common.observability import logger, metrics
from common.responses import to_json
from common.settings import get_settings

SOURCE = "car-retail-api"

_lock = threading.Lock()
_client: Any = None


def _events_client() -> Any:
    global _client  # noqa: PLW0603 (one client per process, created on first use)
    if _client is None:
        with _lock:
            if _client is None:
                import boto3  # imported here: only the functions that publish pay for boto3 at cold start

                _client = boto3.client("events")
    return _client


def reset_client() -> None:
    global _client  # noqa: PLW0603
    _client = None


def publish(detail_type: str, detail: dict[str, Any]) -> None:
    """Publish one event, e.g. publish("OrderStatusChanged", {"orderId": ..., "from": "NEW", "to": "PAID"})."""
    settings = get_settings()
    if settings.effective_event_publisher == "log":
        logger.info("domain event", extra={"detail_type": detail_type, "detail": json.loads(to_json(detail))})
        return
    try:
        response = _events_client().put_events(
            Entries=[
                {
                    "Source": SOURCE,
                    "DetailType": detail_type,
                    "Detail": to_json(detail),
                    "EventBusName": settings.event_bus_name,
                }
            ]
        )
        failed = response.get("FailedEntryCount", 0)
    except Exception:
        logger.exception("event publishing failed", extra={"detail_type": detail_type})
        failed = 1
    if failed:
        logger.error("event not accepted by EventBridge", extra={"detail_type": detail_type})
        metrics.add_metric(name="EventPublishFailures", unit=MetricUnit.Count, value=1)
