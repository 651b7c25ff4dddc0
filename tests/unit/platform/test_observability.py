"""Custom metrics name their stage, so one environment's alarms and dashboard read only its own; an API
request's log lines name the function, the invocation and the request."""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.logging import logger as powertools_logging
from aws_lambda_powertools.metrics import MetricUnit

from core.observability import logger, metrics
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

    def verify_access_token(self, token: str, partner: str) -> str:
        raise NotImplementedError


def test_a_log_line_of_an_api_request_carries_the_function_the_request_and_the_service(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a new instance of a function whose route logs a line
    monkeypatch.setattr(powertools_logging, "is_cold_start", True)
    app = create_app(callers=Partners())

    @app.get("/api/v1/things", middlewares=[PUBLIC])
    def things() -> Response[Envelope[int]]:
        logger.warning("thing served")
        return responses.ok(1)

    handler = lambda_entry(app)
    event = api_event("GET", "/api/v1/things")
    event["requestContext"]["requestId"] = "gateway-1"
    context: Any = LocalLambdaContext(function_name="Things", memory_limit_in_mb=1024, aws_request_id="lambda-1")
    # When a request comes, and then another
    with written_lines() as lines:
        handler(event, context)
        handler({**event, "requestContext": {**event["requestContext"], "requestId": "gateway-2"}}, context)
    # Then its line names the function, the invocation, the API Gateway request and the service
    first, second = (line for line in lines() if line["message"] == "thing served")
    assert {key: value for key, value in first.items() if key not in ("timestamp", "xray_trace_id")} == {
        "level": "WARNING",
        "location": first["location"],
        "message": "thing served",
        "service": "car-retail-api",
        "cold_start": True,
        "function_name": "Things",
        "function_memory_size": 1024,
        "function_arn": "arn:aws:lambda:local:000000000000:function:Things",
        "function_request_id": "lambda-1",
        "correlation_id": "gateway-1",
    }
    assert first["location"].startswith("things:")
    # And the next request's line is no cold start, with its own correlation id
    assert (second["cold_start"], second["correlation_id"]) == (False, "gateway-2")


@contextlib.contextmanager
def written_lines() -> Iterator[Callable[[], list[dict[str, Any]]]]:
    """The log lines as the function writes them, read as JSON."""
    written = io.StringIO()
    lines_of = logging.StreamHandler(written)
    lines_of.setFormatter(logger.registered_formatter)
    function_logger = logging.getLogger(logger.name)  # Powertools logs through the logger of its service name
    function_logger.addHandler(lines_of)
    try:
        yield lambda: [json.loads(line) for line in written.getvalue().splitlines()]
    finally:
        function_logger.removeHandler(lines_of)
