"""`python -m local invoke FUNCTION -e events/FILE.json`: one event through one handler, like
`sam local invoke`, without Docker.

Event files for JWT routes carry `Bearer ${DEMO_ACCESS_TOKEN}` (and the refresh sample
`${DEMO_REFRESH_TOKEN}`): they are replaced by fresh tokens of the seeded demo user, since a token
written into a file would expire in 15 minutes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from local.context import LocalLambdaContext
from local.gateway import load_handler
from local.template import load_template

ACCESS_PLACEHOLDER = "${DEMO_ACCESS_TOKEN}"
REFRESH_PLACEHOLDER = "${DEMO_REFRESH_TOKEN}"


def load_event(path: Path, *, user_id: str | None = None) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if ACCESS_PLACEHOLDER in text or REFRESH_PLACEHOLDER in text:
        from domain.identity.sessions import issue_pair
        from local.seed.core import DEMO_PARTNER, DEMO_USER_ID

        # The sample events carry the demo partner's key (`client`): the tokens are bound to it.
        pair = issue_pair(user_id or str(DEMO_USER_ID), partner=DEMO_PARTNER)
        text = text.replace(ACCESS_PLACEHOLDER, pair.access_token).replace(REFRESH_PLACEHOLDER, pair.refresh_token)
    event: dict[str, Any] = json.loads(text)
    return event


def handler_name(function: str) -> str:
    resources = load_template()["Resources"]
    resource = resources.get(f"{function}Function") or resources.get(function)
    if resource is None or resource.get("Type") != "AWS::Serverless::Function":
        names = sorted(name.removesuffix("Function") for name, r in resources.items() if r["Type"].endswith("Function"))
        raise SystemExit(f"unknown function {function!r}; one of: {', '.join(names)}")
    return str(resource["Properties"]["Handler"])


def invoke(function: str, event: dict[str, Any]) -> dict[str, Any]:
    handler = load_handler(handler_name(function))
    return handler(event, LocalLambdaContext(function_name=function))
