"""Powertools Logger, Tracer and Metrics shared by every function (service name from the environment)."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger(service="car-retail-api", utc=True)
tracer = Tracer(service="car-retail-api")
metrics = Metrics(namespace="CarRetail", service="car-retail-api")
