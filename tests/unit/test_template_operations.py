"""The template carries what operating the API needs: log retention, tracing and alarms per function."""

from __future__ import annotations

from typing import Any

import pytest

from local.template import load_template
from tests.route_table import FUNCTIONS


@pytest.fixture(scope="module")
def resources() -> dict[str, Any]:
    template: dict[str, Any] = load_template()
    return template["Resources"]


def of_type(resources: dict[str, Any], kind: str) -> dict[str, Any]:
    return {name: r for name, r in resources.items() if r["Type"] == kind}


def test_every_function_has_a_log_group_with_retention_per_stage(resources: dict[str, Any]) -> None:
    groups = of_type(resources, "AWS::Logs::LogGroup")
    for function in FUNCTIONS:
        properties = groups[f"{function}FunctionLogGroup"]["Properties"]
        assert properties["LogGroupName"] == {"Sub": f"/aws/lambda/${{{function}Function}}"}
        assert properties["RetentionInDays"] == {"FindInMap": ["StageSettings", {"Ref": "Stage"}, "LogRetentionDays"]}


def test_every_function_is_traced_and_alarms_on_errors(resources: dict[str, Any]) -> None:
    template = load_template()
    assert template["Globals"]["Function"]["Tracing"] == "Active"
    assert resources["Api"]["Properties"]["TracingEnabled"] is True
    alarms = of_type(resources, "AWS::CloudWatch::Alarm")
    for function in FUNCTIONS:
        alarm = alarms[f"{function}FunctionErrorsAlarm"]["Properties"]
        assert alarm["MetricName"] == "Errors"
        assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": f"{function}Function"}}]


def test_the_api_alarms_on_5xx_and_latency_and_every_alarm_notifies_the_topic(resources: dict[str, Any]) -> None:
    alarms = of_type(resources, "AWS::CloudWatch::Alarm")
    assert alarms["Api5xxAlarm"]["Properties"]["MetricName"] == "5XXError"
    assert {
        alarms[name]["Properties"].get("ExtendedStatistic") for name in ("ApiLatencyP95Alarm", "ApiLatencyP99Alarm")
    } == {
        "p95",
        "p99",
    }
    for alarm in alarms.values():
        assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlarmTopic"}]


# The scheduled jobs: (schedule, handler); they serve no API route.
SCHEDULED_JOBS = {
    "OutboxPublisher": ("rate(1 minute)", "outbox_publisher.app.lambda_handler"),
    "PaymentReconciliation": ("rate(5 minutes)", "transactions.reconciliation.lambda_handler"),
    "UnpaidOrderExpiry": ("rate(15 minutes)", "orders.expiry.lambda_handler"),
}


@pytest.mark.parametrize("job", sorted(SCHEDULED_JOBS))
def test_a_scheduled_job_runs_on_its_schedule_with_a_failure_queue_and_only_what_it_needs(
    resources: dict[str, Any], job: str
) -> None:
    # Given the job's function in the template
    function = resources[f"{job}Function"]["Properties"]
    schedule, handler = SCHEDULED_JOBS[job]
    failures = {"GetAtt": "ScheduledJobsFailureQueue.Arn"}
    # Then EventBridge Scheduler runs it, and a run that fails lands in the failure queue either way
    assert function["Handler"] == handler
    [event] = function["Events"].values()
    assert event["Type"] == "ScheduleV2"
    assert event["Properties"]["ScheduleExpression"] == schedule
    assert event["Properties"]["DeadLetterConfig"] == {"Arn": failures}
    assert function["EventInvokeConfig"]["DestinationConfig"]["OnFailure"] == {"Type": "SQS", "Destination": failures}
    # And it may read the database secret, put events and queue partner webhooks, not read the JWT key
    policies = [next(iter(policy)) for policy in function["Policies"]]
    assert set(policies) == {
        "AWSSecretsManagerGetSecretValuePolicy",
        "EventBridgePutEventsPolicy",
        "SQSSendMessagePolicy",
    }
    assert {"SecretArn": {"Ref": "JwtSecret"}} not in [next(iter(p.values())) for p in function["Policies"]]
    # And it has its log retention and an errors alarm, like every function
    assert resources[f"{job}FunctionLogGroup"]["Type"] == "AWS::Logs::LogGroup"
    assert resources[f"{job}FunctionErrorsAlarm"]["Properties"]["MetricName"] == "Errors"


def test_stuck_events_payments_and_failed_runs_raise_alarms(resources: dict[str, Any]) -> None:
    alarms = of_type(resources, "AWS::CloudWatch::Alarm")
    # An event waiting 15 minutes, a payment unresolved for an hour (no data: the job is not running)
    assert alarms["OutboxStuckAlarm"]["Properties"]["MetricName"] == "OutboxOldestPendingSeconds"
    assert alarms["OutboxStuckAlarm"]["Properties"]["TreatMissingData"] == "breaching"
    assert alarms["PaymentsUnresolvedAlarm"]["Properties"]["MetricName"] == "PaymentsUnresolvedOverAnHour"
    assert alarms["PaymentsUnresolvedAlarm"]["Properties"]["TreatMissingData"] == "breaching"
    # And a run that failed after its retries
    assert alarms["ScheduledJobsFailureAlarm"]["Properties"]["Dimensions"] == [
        {"Name": "QueueName", "Value": {"GetAtt": "ScheduledJobsFailureQueue.QueueName"}}
    ]
