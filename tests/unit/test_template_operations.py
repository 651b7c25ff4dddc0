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
