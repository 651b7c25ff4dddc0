"""Custom metrics name their stage, so one environment's alarms and dashboard read only its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.metrics import MetricUnit

from core.observability import metrics
from edge import responses
from edge.access import PUBLIC
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from local.context import LocalLambdaContext
from tests.factories import api_event


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


def test_a_request_publishes_the_metrics_it_added_and_nothing_when_it_added_none(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")  # as deployed: `make run` keeps the console clear
    # Given a function whose route adds a metric when asked to, already past its cold start
    app = create_app(callers=Partners())

    @app.get("/api/v1/things", middlewares=[PUBLIC])
    def things(count: bool = False) -> Response[Envelope[int]]:
        if count:
            metrics.add_metric(name="ThingsCounted", unit=MetricUnit.Count, value=1)
        return responses.ok(1)

    handler = lambda_entry(app)
    context: Any = LocalLambdaContext(function_name="Things")
    handler(api_event("GET", "/api/v1/things"), context)
    capsys.readouterr()
    # When a request adds no metric, then nothing is published
    handler(api_event("GET", "/api/v1/things"), context)
    assert capsys.readouterr().out == ""
    # When one adds a metric, then it is published with that request, and not again with the next
    counted = api_event("GET", "/api/v1/things", query={"count": "true"})
    handler(counted, context)
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["ThingsCounted"] == [1.0]
    handler(api_event("GET", "/api/v1/things"), context)
    assert capsys.readouterr().out == ""


class Partners:
    """Any client key is a partner's; no user exists."""

    def partner_name(self, client_key: str) -> str | None:
        return "Demo partner"

    def user_exists(self, user_id: str) -> bool:
        return False

    def verify_access_token(self, token: str) -> str:
        raise NotImplementedError
