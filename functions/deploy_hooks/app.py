"""The deploy hooks CodeDeploy runs around every shift of a function's alias `live` to a new version
(template.yaml: DeploymentPreference Hooks), and the stack's first index step.

`pre_traffic` (BeforeAllowTraffic, and the custom resource DatabaseIndexes when the stack is created):
creates the indexes declared in code, as `python -m ops indexes` does, before a version takes traffic.
`post_traffic` (AfterAllowTraffic): a smoke check through the real API. Each reports its outcome to
CodeDeploy; a failure stops the deployment and rolls the alias back.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from core.observability import logger
from data.mongo import create_indexes
from deploy_hooks import codedeploy, custom_resource, smoke


@logger.inject_lambda_context(clear_state=True)
def pre_traffic(event: dict[str, Any], context: LambdaContext) -> None:
    if custom_resource.is_request(event):
        custom_resource.answer(event, context, _create_indexes)
        return
    codedeploy.run_hook(event, _create_indexes)


@logger.inject_lambda_context(clear_state=True)
def post_traffic(event: dict[str, Any], context: LambdaContext) -> None:
    codedeploy.run_hook(event, smoke.check_deployed_api)


def _create_indexes() -> str:
    # Imported here: every store's module, boto3 among what they import, is paid for by a run, not at init.
    from domain.indexes import ALL_INDEXES

    created = create_indexes(ALL_INDEXES)
    logger.info("indexes ok", extra={"indexes": created})
    return f"{len(created)} indexes ok"
