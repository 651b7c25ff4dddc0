"""Powertools Logger and Metrics shared by every function (service name from the environment).

No Powertools Tracer: it imports the AWS X-Ray SDK and botocore at init (about 40% of a cold start) and
that SDK is in maintenance mode. Lambda's active tracing (`Tracing: Active`) still records each
invocation's segments, and every log line carries the correlation id and the X-Ray trace id.
"""

from __future__ import annotations

import warnings

from aws_lambda_powertools.logging import Logger
from aws_lambda_powertools.logging.formatter import BasePowertoolsFormatter
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


class InvocationKeys:
    """The keys Powertools' `inject_lambda_context` puts on every log line (function name, memory, ARN,
    request id, cold start) and the correlation id, for the API's functions, at a sixth of its cost per
    request (`make bench ARGS=--instructions`): the function's keys once per instance, the invocation's on
    each. No module appends keys of its own (tests/unit/architecture/test_architecture.py), so replacing the
    invocation's keys is all the clearing a new invocation needs. The logger's formatter, which holds
    the keys, is looked up once: `Logger.append_keys` finds it through its handler on every call."""

    def __init__(self) -> None:
        self.formatter: BasePowertoolsFormatter | None = None  # set by the instance's first invocation

    def start(self, context: LambdaContext, correlation_id: str | None) -> bool:
        """Put the invocation's keys on; whether it is the instance's first (its cold start)."""
        cold_start = self.formatter is None
        if self.formatter is None:
            self.formatter = logger.registered_formatter
            self.formatter.append_keys(
                function_name=context.function_name,
                function_memory_size=context.memory_limit_in_mb,
                function_arn=context.invoked_function_arn,
            )
        self.formatter.append_keys(
            function_request_id=context.aws_request_id, correlation_id=correlation_id, cold_start=cold_start
        )
        return cold_start
