"""The template carries what deploying and operating the API needs. Most tests read the template as
CloudFormation receives it: translated by aws-sam-translator, the library `sam deploy`'s transform runs,
so they judge every function, alias and role SAM generates, including functions added later."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any, get_args

import pytest
from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse

from local.scheduler import WEBHOOKS_EVERY, local_schedule
from local.template import ROOT, TEMPLATE, load_template
from tests.route_table import FUNCTIONS

SECRET_SUFFIX = "-??????"  # the six random characters Secrets Manager appends to a secret's name in its ARN


class _NoManagedPolicies:
    """The translator looks up managed policies given by name; this template names none."""

    def load(self) -> dict[str, str]:
        return {}


def translate(parameters: dict[str, str]) -> dict[str, Any]:
    """template.yaml as CloudFormation receives it after `sam package` (code in S3) and the SAM transform."""
    template = yaml_parse(TEMPLATE.read_text(encoding="utf-8"))
    for resource in template["Resources"].values():
        for key in ("CodeUri", "ContentUri"):
            if key in resource.get("Properties", {}):
                resource["Properties"][key] = f"s3://artifacts/{resource['Properties'][key]}.zip"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("AWS_DEFAULT_REGION", "eu-central-1")
        translated: dict[str, Any] = transform(template, parameters, _NoManagedPolicies())
    return translated


@pytest.fixture(scope="module")
def cloudformation() -> dict[str, Any]:
    return translate({"Stage": "prod"})


@pytest.fixture(scope="module")
def resources() -> dict[str, Any]:
    template: dict[str, Any] = load_template()
    return template["Resources"]


def of_type(resources: dict[str, Any], kind: str) -> dict[str, Any]:
    return {name: r for name, r in resources.items() if r["Type"] == kind}


def lambda_functions(cloudformation: dict[str, Any]) -> dict[str, Any]:
    return of_type(cloudformation["Resources"], "AWS::Lambda::Function")


def test_every_function_logs_to_its_own_log_group_with_retention_per_stage(cloudformation: dict[str, Any]) -> None:
    # Given every function of the translated template (SnapStart's first version must not create the
    # group itself, without retention, before the template's group exists)
    resources = cloudformation["Resources"]
    for name, function in lambda_functions(cloudformation).items():
        # Then it logs to a log group of the template, named after the function, with the stage's retention
        reference = function["Properties"]["LoggingConfig"]["LogGroup"]
        group = resources[reference["Ref"]]
        assert group["Type"] == "AWS::Logs::LogGroup", name
        function_name = function["Properties"]["FunctionName"]["Fn::Sub"]
        assert group["Properties"]["LogGroupName"] == {"Fn::Sub": f"/aws/lambda/{function_name}"}, name
        retention = group["Properties"]["RetentionInDays"]
        assert retention == {"Fn::FindInMap": ["StageSettings", {"Ref": "Stage"}, "LogRetentionDays"]}, name


def test_the_account_logging_role_is_created_behind_its_parameter_before_the_stage(
    cloudformation: dict[str, Any],
) -> None:
    resources = cloudformation["Resources"]
    # Given the account setting API Gateway's access log needs
    account = resources["ApiGatewayAccount"]
    assert account["Type"] == "AWS::ApiGateway::Account"
    assert account["Properties"]["CloudWatchRoleArn"] == {"Fn::GetAtt": ["ApiGatewayCloudWatchRole", "Arn"]}
    # Then the stack creates it only when asked, for an account that lacks it
    assert account["Condition"] == resources["ApiGatewayCloudWatchRole"]["Condition"] == "CreatesApiGatewayAccountRole"
    condition = cloudformation["Conditions"]["CreatesApiGatewayAccountRole"]
    assert condition == {"Fn::Equals": [{"Ref": "CreateApiGatewayAccountRole"}, "true"]}
    assert cloudformation["Parameters"]["CreateApiGatewayAccountRole"]["Default"] == "false"
    # And the API (so its stage and access log) waits for it, and for the database indexes
    prerequisites = resources[resources["Api"]["DependsOn"]]
    assert prerequisites["Metadata"] == {
        "AccountRole": {"Fn::If": ["CreatesApiGatewayAccountRole", {"Ref": "ApiGatewayAccount"}, ""]},
        "Indexes": {"Ref": "DatabaseIndexes"},
    }
    assert resources["DatabaseIndexes"]["Properties"]["ServiceToken"] == {
        "Fn::GetAtt": ["PreTrafficHookFunction", "Arn"]
    }


def _substituted(resource: Any) -> Any:
    """A policy template's `{"Fn::Sub": ["${secretArn}", {"secretArn": X}]}` as the X it stands for."""
    sub = resource.get("Fn::Sub") if isinstance(resource, dict) else None
    if isinstance(sub, list) and re.fullmatch(r"\$\{\w+\}", sub[0]):
        return sub[1][sub[0][2:-1]]
    return resource


def _secrets_manager_resources(node: Any) -> Iterator[Any]:
    """The Resource values of every IAM statement allowing a secretsmanager: action, wherever it is."""
    if isinstance(node, dict):
        actions = node.get("Action")
        actions = [actions] if isinstance(actions, str) else actions or []
        if "Resource" in node and any(str(action).startswith("secretsmanager:") for action in actions):
            resource = node["Resource"]
            yield from (_substituted(r) for r in (resource if isinstance(resource, list) else [resource]))
        for value in node.values():
            yield from _secrets_manager_resources(value)
    elif isinstance(node, list):
        for value in node:
            yield from _secrets_manager_resources(value)


def test_every_secret_a_policy_grants_matches_a_real_secret_arn(cloudformation: dict[str, Any]) -> None:
    resources = cloudformation["Resources"]
    secrets_of_the_stack = {name for name, r in resources.items() if r["Type"] == "AWS::SecretsManager::Secret"}
    granted = list(_secrets_manager_resources(resources))
    assert granted
    for resource in granted:
        # Then it is a secret this stack creates (its Ref is its full ARN) ...
        if isinstance(resource, dict) and "Ref" in resource:
            assert resource["Ref"] in secrets_of_the_stack, resource
            continue
        # ... or a secret named by convention, with the random suffix Secrets Manager adds to every ARN
        arn = resource["Fn::Sub"]
        assert isinstance(arn, str), resource
        assert arn.startswith("arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:"), arn
        assert arn.endswith(SECRET_SUFFIX), arn
        assert "*" not in arn, arn


def test_no_reserved_concurrency_is_a_bare_number(cloudformation: dict[str, Any]) -> None:
    # A new account's default concurrency quota leaves nothing to reserve: a fixed number fails its deploy
    parameters = cloudformation["Parameters"]
    for name, function in lambda_functions(cloudformation).items():
        reserved = function["Properties"].get("ReservedConcurrentExecutions")
        if reserved in (None, {"Ref": "AWS::NoValue"}):
            continue
        assert not isinstance(reserved, (int, str)), name
        condition, value, otherwise = reserved["Fn::If"]
        assert otherwise == {"Ref": "AWS::NoValue"}, name
        # Then it is a per-environment parameter where 0 (the default) means unreserved
        parameter = value["Ref"]
        assert parameters[parameter]["Default"] == 0, name
        assert cloudformation["Conditions"][condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": parameter}, "0"]}]}


def test_every_custom_metric_alarm_is_of_its_stage(cloudformation: dict[str, Any]) -> None:
    alarms = of_type(cloudformation["Resources"], "AWS::CloudWatch::Alarm")
    custom = {name: alarm for name, alarm in alarms.items() if alarm["Properties"].get("Namespace") == "CarRetail"}
    assert custom
    for name, alarm in custom.items():
        assert {"Name": "stage", "Value": {"Ref": "Stage"}} in alarm["Properties"]["Dimensions"], name
    # And an alarm on a Metrics Insights query of ours (the busiest partner's logins) reads its stage only
    queries = {
        name: metric["Expression"]["Fn::Sub"]
        for name, alarm in alarms.items()
        for metric in alarm["Properties"].get("Metrics", [])
        if "Expression" in metric and "CarRetail" in str(metric["Expression"])
    }
    assert queries
    for name, query in queries.items():
        assert "WHERE stage = '${Stage}'" in query, name


def test_every_aliased_function_gets_its_indexes_before_traffic_and_a_smoke_check_after(
    cloudformation: dict[str, Any],
) -> None:
    resources = cloudformation["Resources"]
    aliases = of_type(resources, "AWS::Lambda::Alias")
    api_functions = {f"{function}Function" for function in FUNCTIONS}
    assert {alias["Properties"]["FunctionName"]["Ref"] for alias in aliases.values()} >= api_functions
    for name, alias in aliases.items():
        update = alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]
        # Then CodeDeploy runs the pre-traffic hook (the indexes) before shifting any traffic
        assert update["BeforeAllowTrafficHook"] == {"Ref": "PreTrafficHookFunction"}, name
        # And a function serving the API is smoke-checked through the API after
        if alias["Properties"]["FunctionName"]["Ref"] in api_functions:
            assert update["AfterAllowTrafficHook"] == {"Ref": "PostTrafficHookFunction"}, name
    # And CodeDeploy's role may invoke the hooks (SAM's role allows functions named CodeDeployHook_*)
    for hook in ("PreTrafficHookFunction", "PostTrafficHookFunction"):
        assert resources[hook]["Properties"]["FunctionName"]["Fn::Sub"].startswith("CodeDeployHook_")


def test_a_deployment_rolls_back_on_the_errors_of_the_new_version_only(cloudformation: dict[str, Any]) -> None:
    resources = cloudformation["Resources"]
    groups = of_type(resources, "AWS::CodeDeploy::DeploymentGroup")
    assert groups
    for name, group in groups.items():
        for alarm in group["Properties"]["AlarmConfiguration"]["Alarms"]:
            dimensions = {d["Name"]: d["Value"] for d in resources[alarm["Name"]["Ref"]]["Properties"]["Dimensions"]}
            function = dimensions["FunctionName"]["Ref"]
            assert dimensions["Resource"] == {"Fn::Sub": f"${{{function}}}:live"}, name
            version = dimensions["ExecutedVersion"]["Fn::GetAtt"]
            assert resources[version[0]]["Type"] == "AWS::Lambda::Version", name


def test_alarms_reach_someone_and_a_dashboard_shows_every_function(cloudformation: dict[str, Any]) -> None:
    resources = cloudformation["Resources"]
    subscription = resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail"
    assert subscription["Properties"] == {
        "TopicArn": {"Ref": "AlarmTopic"},
        "Protocol": "email",
        "Endpoint": {"Ref": "AlarmEmail"},
    }
    body = resources["Dashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    widgets = json.loads(re.sub(r"\$\{[^}]+\}", "x", body))["widgets"]
    expressions = [m[0]["expression"] for w in widgets for m in w["properties"]["metrics"] if "expression" in m[0]]
    searched = {re.findall(r'MetricName="(\w+)"', expression)[0] for expression in expressions}
    assert searched == {"Invocations", "Errors", "Throttles", "Duration", "ConcurrentExecutions"}
    # The searches find functions by the words car-retail and the stage: every function name has both
    for name, function in lambda_functions(cloudformation).items():
        assert re.search(r"car-retail-.*\$\{Stage\}", function["Properties"]["FunctionName"]["Fn::Sub"]), name


def test_functions_run_on_the_architecture_parameter_and_in_the_vpc_when_given(cloudformation: dict[str, Any]) -> None:
    for name, function in lambda_functions(cloudformation).items():
        assert function["Properties"]["Architectures"] == [{"Ref": "Architecture"}], name
        assert function["Properties"]["VpcConfig"]["Fn::If"][0] == "InVpc", name
    assert cloudformation["Parameters"]["Architecture"]["Default"] == "arm64"


def test_sam_local_can_set_every_variable_of_local_sam_env(cloudformation: dict[str, Any]) -> None:
    # `sam local --env-vars` sets only the variables a function declares
    settings = json.loads((ROOT / "local" / "sam-env.json").read_text(encoding="utf-8"))["Parameters"]
    for name, function in lambda_functions(cloudformation).items():
        declared = function["Properties"]["Environment"]["Variables"]
        assert set(settings) <= set(declared), (name, set(settings) - set(declared))


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
    "SaleAdmission": ("rate(1 minute)", "sales.admission.lambda_handler"),
    "UnpaidOrderExpiry": ("rate(1 minute)", "orders.expiry.lambda_handler"),
}
# What each may do besides reading the database secret: put events and queue partner webhooks (a job that
# changes orders), or write the fair openings' public files (an inline statement).
JOB_POLICIES = {
    "OutboxPublisher": {"EventBridgePutEventsPolicy", "SQSSendMessagePolicy"},
    "PaymentReconciliation": {"EventBridgePutEventsPolicy", "SQSSendMessagePolicy"},
    "SaleAdmission": {"Statement"},
    "UnpaidOrderExpiry": {"EventBridgePutEventsPolicy", "SQSSendMessagePolicy"},
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
    # And it may read the database secret and what its work needs (JOB_POLICIES), not read the JWT key
    policies = [next(iter(policy)) for policy in function["Policies"]]
    assert set(policies) == {"AWSSecretsManagerGetSecretValuePolicy", *JOB_POLICIES[job]}
    assert {"SecretArn": {"Ref": "JwtSecret"}} not in [next(iter(p.values())) for p in function["Policies"]]
    # And it has its log retention and an errors alarm, like every function
    assert resources[f"{job}FunctionLogGroup"]["Type"] == "AWS::Logs::LogGroup"
    assert resources[f"{job}FunctionErrorsAlarm"]["Properties"]["MetricName"] == "Errors"


def scheduled_targets(cloudformation: dict[str, Any]) -> list[tuple[str, str]]:
    """(function, expression) of every schedule CloudFormation creates (EventBridge Scheduler's and rules')."""
    found = []
    for kind, targets in (("AWS::Scheduler::Schedule", "Target"), ("AWS::Events::Rule", "Targets")):
        for schedule in of_type(cloudformation["Resources"], kind).values():
            properties = schedule["Properties"]
            if "ScheduleExpression" not in properties:
                continue
            for target in [properties[targets]] if kind == "AWS::Scheduler::Schedule" else properties[targets]:
                alias = re.fullmatch(r"(\w+)FunctionAlias\w+", target["Arn"]["Ref"])
                assert alias is not None, target
                found.append((alias.group(1), properties["ScheduleExpression"]))
    return sorted(found)


def test_make_run_runs_exactly_the_functions_the_template_schedules_at_their_rates(
    cloudformation: dict[str, Any],
) -> None:
    # Given the schedules CloudFormation creates from the template
    deployed = scheduled_targets(cloudformation)
    # When make run reads its schedule from the template
    jobs = local_schedule()
    # Then it runs exactly those functions, each with its handler, at the template's rate
    assert sorted((job.scheduled.function, job.scheduled.expression) for job in jobs) == deployed
    assert {job.scheduled.function: (job.scheduled.expression, job.scheduled.handler) for job in jobs} == SCHEDULED_JOBS
    assert {job.scheduled.function: job.every for job in jobs} == {
        "OutboxPublisher": WEBHOOKS_EVERY,  # more often than its minute: make run's webhook queue too
        "PaymentReconciliation": timedelta(minutes=5),
        "SaleAdmission": timedelta(minutes=1),  # its own thread: it steps through its minute
        "UnpaidOrderExpiry": timedelta(minutes=1),
    }


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


# The stage's method throttles: every method by default, then the routes a sale opening floods, each by
# its parameters (ResourcePath writes each "/" of the route as "~1").
THROTTLES = {
    ("/*", "*"): "Api",
    ("/~1api~1v1~1orders", "POST"): "Order",
    ("/~1api~1v1~1auth~1login", "POST"): "Login",
    ("/~1api~1v1~1sales~1{carId}~1entries", "POST"): "Registration",
}
ENVIRONMENTS = ("default", "dev", "staging", "prod")


def test_the_stage_throttles_every_method_and_the_routes_a_sale_floods_by_their_own_parameters(
    cloudformation: dict[str, Any],
) -> None:
    # Given the stage and the routes of the translated template
    [stage] = of_type(cloudformation["Resources"], "AWS::ApiGateway::Stage").values()
    [api] = of_type(cloudformation["Resources"], "AWS::ApiGateway::RestApi").values()
    paths = api["Properties"]["Body"]["paths"]
    settings = {(s["ResourcePath"], s["HttpMethod"]): s for s in stage["Properties"]["MethodSettings"]}
    # Then every method is throttled by the Api* parameters, POST orders and login by their own, each an
    # existing route's method, with its metrics
    assert set(settings) == set(THROTTLES)
    for (path, method), prefix in THROTTLES.items():
        setting = settings[(path, method)]
        assert setting["ThrottlingRateLimit"] == {"Ref": f"{prefix}ThrottleRate"}, path
        assert setting["ThrottlingBurstLimit"] == {"Ref": f"{prefix}ThrottleBurst"}, path
        assert setting["MetricsEnabled"] is True, path
        if method != "*":
            assert method.lower() in paths[path.removeprefix("/").replace("~1", "/")], path


def test_every_environment_sets_its_throttles_and_an_order_burst_its_functions_can_take() -> None:
    # Given the template's throttle parameters and each environment's deploy parameters
    parameters = load_template()["Parameters"]
    names = [f"{prefix}Throttle{kind}" for prefix in dict.fromkeys(THROTTLES.values()) for kind in ("Rate", "Burst")]
    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    for name in names:
        assert (parameters[name]["Type"], parameters[name]["MinValue"]) == ("Number", 1), name
    for environment in ENVIRONMENTS:
        given = config[environment]["deploy"]["parameters"]["parameter_overrides"]
        overrides = dict(item.split("=", 1) for item in shlex.split(given))
        # Then each gives all six; the routes a sale floods are throttled below the stage's default, and
        # where the functions' concurrency is reserved, their bursts fit in it (Lambda's own throttling
        # would reach a buyer as 500)
        throttles = {name: int(overrides[name]) for name in names}
        assert all(value >= 1 for value in throttles.values()), environment
        for prefix in ("Order", "Login", "Registration"):
            assert throttles[f"{prefix}ThrottleRate"] <= throttles["ApiThrottleRate"], environment
            assert throttles[f"{prefix}ThrottleBurst"] <= throttles["ApiThrottleBurst"], environment
            reserved = int(overrides["ReservedConcurrency"])
            assert reserved == 0 or throttles[f"{prefix}ThrottleBurst"] <= reserved, environment


def test_the_sign_in_sms_is_set_per_deploy_with_the_settings_defaults_and_prod_refuses_a_test_account(
    resources: dict[str, Any],
) -> None:
    from domain.identity.settings import IdentitySettings

    # Given the template's Eskiz parameters and the Auth function's environment
    template = load_template()
    parameters = template["Parameters"]
    variables = resources["AuthFunction"]["Properties"]["Environment"]["Variables"]
    fields = IdentitySettings.model_fields
    settings = {
        "EskizLoginTemplateUz": "eskiz_login_template_uz",
        "EskizLoginTemplateRu": "eskiz_login_template_ru",
        "EskizLoginTemplateEn": "eskiz_login_template_en",
        "EskizTestAccount": "eskiz_test_account",
        "EskizTestText": "eskiz_test_text",
    }
    for parameter, field in settings.items():
        # Then each reaches its setting, defaulting to the setting's own default
        default = fields[field].default
        assert variables[field.upper()] == {"Ref": parameter}, parameter
        assert parameters[parameter]["Default"] == (str(default).lower() if isinstance(default, bool) else default)
    # And a test account's phrases are the ones the setting takes
    assert parameters["EskizTestText"]["AllowedValues"] == list(get_args(fields["eskiz_test_text"].annotation))
    # And prod refuses an Eskiz test account (its code is the sandbox's 666666)
    prod = template["Rules"]["ProdUsesRealPartners"]["Assertions"]
    assert {"Equals": [{"Ref": "EskizTestAccount"}, "false"]} in [assertion["Assert"] for assertion in prod]
