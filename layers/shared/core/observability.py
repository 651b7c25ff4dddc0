"""Powertools Logger and Metrics shared by every function (service name from the environment).

No Powertools Tracer: it imports the AWS X-Ray SDK and botocore at init, a large part of every cold start
(docs/DECISIONS.md, "No Powertools Tracer"), and that SDK is in maintenance mode. Lambda's active tracing
(`Tracing: Active`) still records each invocation's segments, and every log line carries the correlation
id and the X-Ray trace id.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.logging import Logger
from aws_lambda_powertools.metrics import Metrics
from aws_lambda_powertools.utilities.typing import LambdaContext

from core.settings import Settings, from_env

logger = Logger(service="car-retail-api", utc=True)
metrics = Metrics(namespace="CarRetail", service="car-retail-api")
# Every custom metric names its stage: the alarms and the dashboard of one environment read its own only.
# Read without caching the settings: a command may still set its stage after importing this (ops, local).
metrics.set_default_dimensions(stage=from_env(Settings).stage)
# Most invocations of the scheduled functions add no business metric, and Powertools' `log_metrics`
# warns about it on every one (printed once per process); not a defect. Its documented way to silence it.
warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)


def flush_metrics() -> None:
    """Publish the metrics this request added, if any: what Powertools' `log_metrics` does after each
    invocation, without building and filtering its warning on every request that added none (most)."""
    if metrics.metric_set:
        metrics.flush_metrics()


ApiHandler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]


def log_keys_of_invocation(handler: ApiHandler) -> ApiHandler:
    """An API function's handler through Powertools' `inject_lambda_context`: every log line of an
    invocation carries the Lambda context's keys (function name, memory, ARN, request id, cold start) and
    API Gateway's request id as its correlation id, read from the event directly rather than through a
    `correlation_id_path` (a JMESPath query on every invocation).

    The invocation's keys replace the previous invocation's without clearing the others: no module but
    this one appends keys to every log line (tests/unit/architecture/test_architecture.py)."""

    @logger.inject_lambda_context
    @functools.wraps(handler)
    def with_log_keys(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        logger.set_correlation_id((event.get("requestContext") or {}).get("requestId"))
        return handler(event, context)

    return with_log_keys
