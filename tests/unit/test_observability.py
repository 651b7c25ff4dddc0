"""Custom metrics name their stage, so one environment's alarms and dashboard read only its own."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from core.observability import metrics


def test_every_custom_metric_carries_the_stage() -> None:
    # Given a metric a function adds (the outbox publisher's, which an alarm watches)
    metrics.add_metric(name="OutboxOldestPendingSeconds", unit=MetricUnit.Seconds, value=0)
    try:
        # When it is written as CloudWatch's embedded metric format
        blob: dict[str, Any] = dict(metrics.serialize_metric_set())
    finally:
        metrics.clear_metrics()
    # Then it is recorded under the service and the stage (the tests run as `local`), as the alarms ask
    [directive] = blob["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "CarRetail"
    assert [sorted(dimensions) for dimensions in directive["Dimensions"]] == [["service", "stage"]]
    assert (blob["service"], blob["stage"]) == ("car-retail-api", "local")
