"""Powertools Logger and Metrics shared by every function (service name from the environment).

No Powertools Tracer: it imports the AWS X-Ray SDK and botocore at init (about 40% of a cold start) and
that SDK is in maintenance mode. Lambda's active tracing (`Tracing: Active`) still records each
invocation's segments, and every log line carries the correlation id and the X-Ray trace id.
"""

from __future__ import annotations

import warnings

from aws_lambda_powertools.logging import Logger
from aws_lambda_powertools.metrics import Metrics

from core.settings import Settings

logger = Logger(service="car-retail-api", utc=True)
metrics = Metrics(namespace="CarRetail", service="car-retail-api")
# Every custom metric names its stage: the alarms and the dashboard of one environment read its own only.
# Read without caching the settings: a command may still set its stage after importing this (ops, local).
metrics.set_default_dimensions(stage=Settings.from_env().stage)
# Most requests add no business metric, and Powertools warns about it on every one (printed once per
# process, on its first request); not a defect. Powertools' documented way to silence it.
warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)
