"""A CodeDeploy lifecycle hook's contract: run a step, then report Succeeded or Failed for the event's
deployment and hook execution (PutLifecycleEventHookExecutionStatus). CodeDeploy waits for the report
(up to an hour) and rolls the deployment back on Failed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from core.observability import logger


def run_hook(event: dict[str, Any], step: Callable[[], str]) -> Literal["Succeeded", "Failed"]:
    """Run `step` and report its outcome; any exception fails the deployment (and is logged with its reason)."""
    status: Literal["Succeeded", "Failed"]
    try:
        outcome = step()
    except Exception:
        logger.exception("deploy hook failed", extra={"deployment": event.get("DeploymentId")})
        status = "Failed"
    else:
        logger.info("deploy hook succeeded", extra={"deployment": event.get("DeploymentId"), "outcome": outcome})
        status = "Succeeded"
    import boto3  # here, not at init (tests/unit/costs/test_cold_start.py)

    boto3.client("codedeploy").put_lifecycle_event_hook_execution_status(
        deploymentId=event["DeploymentId"],
        lifecycleEventHookExecutionId=event["LifecycleEventHookExecutionId"],
        status=status,
    )
    return status
