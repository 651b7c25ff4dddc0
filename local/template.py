"""Reads template.yaml the way `sam local` does: each function's handler and its API events."""

from __future__ import annotations

import re
from dataclasses import dataclass
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
