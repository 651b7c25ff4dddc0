"""A CloudFormation custom resource's contract: run a step on Create and Update (nothing to undo on
Delete), then PUT the outcome as JSON to the request's pre-signed ResponseURL, which CloudFormation waits
on (the stack fails, and rolls back, on FAILED)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from core import outbound
from core.observability import logger

RESPONSE_TIMEOUT_SECONDS = 30


def is_request(event: dict[str, Any]) -> bool:
    return "RequestType" in event and "ResponseURL" in event


def answer(event: dict[str, Any], context: LambdaContext, step: Callable[[], str]) -> str:
    """Run `step` unless the resource is being deleted, and send CloudFormation the outcome."""
    status, reason = "SUCCESS", "nothing to do on Delete"
    if event["RequestType"] != "Delete":
        try:
            reason = step()
        except Exception as exc:
            logger.exception("custom resource failed", extra={"resource": event.get("LogicalResourceId")})
            status, reason = "FAILED", f"{type(exc).__name__}: {exc}"[:500]
    body = json.dumps(
        {
            "Status": status,
            "Reason": f"{reason} (log stream {context.log_stream_name})",
            # The same physical id on every update: CloudFormation never replaces (and deletes) it.
            "PhysicalResourceId": event.get("PhysicalResourceId") or event["LogicalResourceId"],
            "StackId": event["StackId"],
            "RequestId": event["RequestId"],
            "LogicalResourceId": event["LogicalResourceId"],
        }
    ).encode()
    # The pre-signed URL wants no content type (it is part of the signature).
    request = outbound.Request("PUT", event["ResponseURL"], body, {"Content-Type": ""})
    reply = outbound.exchange(request, timeout=RESPONSE_TIMEOUT_SECONDS)
    if not 200 <= reply.status < 300:
        raise RuntimeError(f"CloudFormation's response URL answered HTTP {reply.status}")
    return status
