"""Reads template.yaml the way `sam local` does: each function's handler, its API events and its schedules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "template.yaml"


class _CloudFormationLoader(yaml.SafeLoader):
    """Accepts the short intrinsic-function tags (!Ref, !Sub, !GetAtt...) as plain values."""


def _intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node)
    else:
        value = loader.construct_mapping(node)  # type: ignore[arg-type]
    return {suffix: value}


_CloudFormationLoader.add_multi_constructor("!", _intrinsic)


@dataclass(frozen=True)
class ApiRoute:
    function: str
    handler: str
    method: str
    path: str  # API Gateway resource template, e.g. /api/v1/cars/{id}

    @property
    def werkzeug_rule(self) -> str:
        return re.sub(r"\{(\w+)\}", r"<\1>", self.path)


def load_template(path: Path = TEMPLATE) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_CloudFormationLoader)  # noqa: S506 (SafeLoader subclass)


def api_routes(template: dict[str, Any] | None = None) -> list[ApiRoute]:
    template = template or load_template()
    routes = []
    for name, resource in template["Resources"].items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        properties = resource["Properties"]
        for event in (properties.get("Events") or {}).values():
            if event.get("Type") == "Api":
                routes.append(
                    ApiRoute(
                        function=name.removesuffix("Function"),
                        handler=properties["Handler"],
                        method=event["Properties"]["Method"].upper(),
                        path=event["Properties"]["Path"],
                    )
                )
    return routes


# What the schedules of the template use; anything else is refused when `make run` starts (UnsupportedSchedule).
SCHEDULE_EVENTS = ("Schedule", "ScheduleV2")
_RATE = re.compile(r"rate\((\d+) (minute|minutes|hour|hours)\)")
_UNIT = {"minute": timedelta(minutes=1), "hour": timedelta(hours=1)}


class UnsupportedSchedule(ValueError):
    """A schedule expression the local scheduler does not read; the message names the function."""


@dataclass(frozen=True)
class ScheduledFunction:
    function: str  # e.g. UnpaidOrderExpiry
    handler: str  # e.g. orders.expiry.lambda_handler
    schedule: str  # the event's name in the template, e.g. EveryMinute
    expression: str  # e.g. rate(1 minute)
    every: timedelta
    timeout_seconds: int


def parse_rate(expression: object) -> timedelta:
    """`rate(N minute|minutes|hour|hours)`, the only kind the template uses (a cron, days or an intrinsic
    function are refused). EventBridge Scheduler's own rule holds too: a unit is singular for 1 only."""
    match = _RATE.fullmatch(expression) if isinstance(expression, str) else None
    if match is None:
        raise UnsupportedSchedule(f"{expression!r} is not rate(N minute|minutes|hour|hours)")
    value, unit = int(match.group(1)), match.group(2)
    if value == 0 or (value == 1) != (not unit.endswith("s")):
        raise UnsupportedSchedule(f"{expression!r}: a rate is rate(1 minute|hour) or rate(N minutes|hours), N > 1")
    return value * _UNIT[unit.removesuffix("s")]


def scheduled_functions(template: dict[str, Any] | None = None) -> list[ScheduledFunction]:
    """Every schedule of every function of the template, in the template's order; UnsupportedSchedule
    for an expression the local scheduler cannot keep."""
    template = template or load_template()
    default_timeout = int(template.get("Globals", {}).get("Function", {}).get("Timeout", 3))
    scheduled = []
    for name, resource in template["Resources"].items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        properties = resource["Properties"]
        function = name.removesuffix("Function")
        for event_name, event in (properties.get("Events") or {}).items():
            if event.get("Type") not in SCHEDULE_EVENTS:
                continue
            expression = event["Properties"]["ScheduleExpression"]
            try:
                every = parse_rate(expression)
            except UnsupportedSchedule as why:
                raise UnsupportedSchedule(f"{function} ({event_name}): {why}") from None
            scheduled.append(
                ScheduledFunction(
                    function=function,
                    handler=properties["Handler"],
                    schedule=event_name,
                    expression=expression,
                    every=every,
                    timeout_seconds=int(properties.get("Timeout", default_timeout)),
                )
            )
    return scheduled
