"""The deploy hooks: indexes before a version takes traffic (CodeDeploy's pre-traffic hook, and the custom
resource of a stack's creation), a smoke check through the real API after, each reporting its outcome."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from deploy_hooks import app, codedeploy, smoke
from pymongo.database import Database
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from local.context import LocalLambdaContext
from local.seed.core import DEMO_PARTNER_KEY

HOOK_EVENT = {"DeploymentId": "d-ABCDEF123", "LifecycleEventHookExecutionId": "eyJlbmNvZGVkIjoidHJ1ZSJ9"}
DEMO_PHONE = "+998901234567"
# What Lambda passes a handler (typed Any: the local stand-in is not Powertools' LambdaContext class)
HOOK_CONTEXT: Any = LocalLambdaContext(function_name="PreTrafficHook")


@pytest.fixture
def codedeploy_reports(aws_account: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """CodeDeploy's side of the hook contract: the status each run reports, checked against the service model."""
    client = boto3.client("codedeploy")
    stubber = Stubber(client)
    real_client = boto3.client
    monkeypatch.setattr(
        boto3, "client", lambda name, *a, **k: client if name == "codedeploy" else real_client(name, *a, **k)
    )

    def expect(status: str) -> None:
        stubber.add_response(
            "put_lifecycle_event_hook_execution_status",
            {"lifecycleEventHookExecutionId": HOOK_EVENT["LifecycleEventHookExecutionId"]},
            {
                "deploymentId": HOOK_EVENT["DeploymentId"],
                "lifecycleEventHookExecutionId": HOOK_EVENT["LifecycleEventHookExecutionId"],
                "status": status,
            },
        )

    with stubber:
        yield expect
        stubber.assert_no_pending_responses()


def _index_names(database: Database[dict[str, Any]]) -> set[str]:
    return {
        f"{name}.{index}" for name in database.list_collection_names() for index in database[name].index_information()
    }


def test_the_pre_traffic_hook_creates_the_indexes_and_reports_success(
    db: Database[dict[str, Any]], codedeploy_reports: Callable[[str], None]
) -> None:
    # Given a database without its indexes (a new environment, or a release that declares new ones)
    expected = _index_names(db)
    for name in db.list_collection_names():
        db[name].drop_indexes()
    assert _index_names(db) < expected
    codedeploy_reports("Succeeded")
    # When CodeDeploy runs the hook before shifting traffic
    app.pre_traffic(HOOK_EVENT, HOOK_CONTEXT)
    # Then every declared index exists again, and CodeDeploy was told it may shift traffic
    assert _index_names(db) == expected


def test_a_failing_step_fails_the_deployment(codedeploy_reports: Callable[[str], None]) -> None:
    codedeploy_reports("Failed")

    def unreachable_database() -> str:
        raise ConnectionError("no route to the cluster")

    assert codedeploy.run_hook(HOOK_EVENT, unreachable_database) == "Failed"


@pytest.fixture
def cloudformation_response_url() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A stand-in for the pre-signed S3 URL CloudFormation waits on: records what is PUT there."""
    received: list[dict[str, Any]] = []

    def s3(environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        assert request.method == "PUT"
        received.append(json.loads(request.get_data()))
        return Response("")(environ, start_response)

    server = make_server("127.0.0.1", 0, s3, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/cfn-response?X-Amz-Signature=abc", received
    server.shutdown()
    thread.join(timeout=30)


def _custom_resource_event(request_type: str, url: str) -> dict[str, Any]:
    return {
        "RequestType": request_type,
        "ResponseURL": url,
        "StackId": "arn:aws:cloudformation:eu-central-1:000000000000:stack/car-retail-api-dev/1",
        "RequestId": "req-1",
        "LogicalResourceId": "DatabaseIndexes",
        "ResourceType": "Custom::DatabaseIndexes",
        "ResourceProperties": {"ServiceToken": "arn:aws:lambda:eu-central-1:000000000000:function:x"},
    }


def test_a_new_stack_gets_its_indexes_before_its_api_exists(
    db: Database[dict[str, Any]], cloudformation_response_url: tuple[str, list[dict[str, Any]]]
) -> None:
    # Given a new stack's empty database
    url, received = cloudformation_response_url
    expected = _index_names(db)
    for name in db.list_collection_names():
        db[name].drop_indexes()
    # When CloudFormation creates the custom resource DatabaseIndexes
    app.pre_traffic(_custom_resource_event("Create", url), HOOK_CONTEXT)
    # Then the indexes exist and CloudFormation is told so (and goes on to create the API)
    assert _index_names(db) == expected
    [answer] = received
    assert answer["Status"] == "SUCCESS"
    assert answer["PhysicalResourceId"] == "DatabaseIndexes"
    assert (answer["StackId"], answer["RequestId"], answer["LogicalResourceId"]) == (
        "arn:aws:cloudformation:eu-central-1:000000000000:stack/car-retail-api-dev/1",
        "req-1",
        "DatabaseIndexes",
    )


def test_deleting_the_stack_leaves_the_indexes_and_answers_at_once(
    db: Database[dict[str, Any]], cloudformation_response_url: tuple[str, list[dict[str, Any]]]
) -> None:
    url, received = cloudformation_response_url
    before = _index_names(db)
    app.pre_traffic(_custom_resource_event("Delete", url), HOOK_CONTEXT)
    assert _index_names(db) == before
    assert received[0]["Status"] == "SUCCESS"


def test_the_smoke_check_signs_in_and_reads_the_catalog_and_a_dictionary(seeded_api: Any, api_server: str) -> None:
    # Given the API serving the demo data, and the demo partner and phone as the smoke check's caller
    # When the smoke check runs / Then it passes
    assert "login, catalog and dictionary answered" in smoke.check(
        api_server, smoke.Caller(DEMO_PARTNER_KEY, DEMO_PHONE)
    )


def test_the_smoke_check_fails_on_an_unexpected_answer(seeded_api: Any, api_server: str) -> None:
    # Given a partner key the API does not know
    with pytest.raises(smoke.SmokeCheckFailed, match=r"POST /api/v1/auth/login answered 403, expected 201"):
        smoke.check(api_server, smoke.Caller("no-such-partner", DEMO_PHONE))


def test_the_smoke_check_finds_its_api_and_caller_in_the_account(
    aws_account: None, secretsmanager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the stack's REST API and the smoke-check secret
    api_id = boto3.client("apigateway").create_rest_api(name="car-retail-api-dev")["id"]
    boto3.client("apigateway").create_rest_api(name="another-api")
    secretsmanager.create_secret(
        Name="car-retail/dev/smoke-check", SecretString=json.dumps({"client": "smoke-partner", "phone": DEMO_PHONE})
    )
    monkeypatch.setenv("STAGE", "dev")
    # Then the hook finds the stage's URL by the API's name, and its caller by the secret's name
    assert smoke.api_url("car-retail-api-dev") == f"https://{api_id}.execute-api.eu-central-1.amazonaws.com/dev"
    assert smoke.smoke_caller("car-retail/dev/smoke-check") == smoke.Caller("smoke-partner", DEMO_PHONE)
    secretsmanager.create_secret(Name="car-retail/dev/not-json", SecretString="plain")
    with pytest.raises(smoke.SmokeCheckFailed, match="must be JSON"):
        smoke.smoke_caller("car-retail/dev/not-json")
