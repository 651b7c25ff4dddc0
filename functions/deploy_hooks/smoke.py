"""The post-traffic smoke check: what a partner app does first, through the deployed API (API Gateway,
the functions' alias, the database): a login, the profile with its token, a catalog read and a
dictionary read.

It signs in as the partner key and phone of the secret SMOKE_CHECK_SECRET_ID, JSON {"client", "phone"}:
a partner registered for it and a number kept for it (docs/OPERATIONS.md, First deploy)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from core import outbound

REQUEST_TIMEOUT_SECONDS = 10
FINGERPRINT = "deploy-smoke-check"


class SmokeCheckFailed(RuntimeError):
    """The API did not answer a step as a healthy deployment does; the message says which and how."""


@dataclass(frozen=True)
class Caller:
    client: str
    phone: str


def check_deployed_api() -> str:
    """The smoke check of this stack's API (found by its name) as the configured caller."""
    return check(api_url(os.environ["API_NAME"]), smoke_caller(os.environ["SMOKE_CHECK_SECRET_ID"]))


def check(base_url: str, caller: Caller) -> str:
    """Sign in and read the profile with the token, the brands and the contacts; raise SmokeCheckFailed at
    the first unexpected answer."""
    headers = {"client": caller.client, "fingerprint": FINGERPRINT, "Content-Type": "application/json"}
    tokens = _call(base_url, "POST", "/api/v1/auth/login", headers, {"phone": caller.phone}, expect=201)
    headers["Authorization"] = f"Bearer {tokens['data']['accessToken']}"
    _call(base_url, "GET", "/api/v1/auth/me", headers, None, expect=200)
    _call(base_url, "GET", "/api/v1/brands", headers, None, expect=200)
    _call(base_url, "GET", "/api/v1/dictionaries/contacts", headers, None, expect=200)
    return f"login, catalog and dictionary answered at {base_url}"


def _call(base_url: str, method: str, path: str, headers: dict[str, str], body: Any, *, expect: int) -> Any:
    request = outbound.json_request(method, f"{base_url}{path}", body, headers=headers)
    try:
        reply = outbound.exchange(request, timeout=REQUEST_TIMEOUT_SECONDS)
    except OSError as exc:  # out of time (DeadlineExceeded) or unreachable
        raise SmokeCheckFailed(f"{method} {path}: no answer ({type(exc).__name__})") from exc
    if reply.status != expect:
        raise SmokeCheckFailed(f"{method} {path} answered {reply.status}, expected {expect}: {str(reply.body)[:300]}")
    return reply.body


def api_url(api_name: str) -> str:
    """The stage URL of the REST API named `api_name` (its stage is the Stage, also in the name's end)."""
    import boto3  # here, not at init (tests/unit/costs/test_cold_start.py)

    client = boto3.client("apigateway")
    stage = os.environ["STAGE"]
    for page in client.get_paginator("get_rest_apis").paginate():
        for api in page["items"]:
            if api["name"] == api_name:
                return f"https://{api['id']}.execute-api.{client.meta.region_name}.amazonaws.com/{stage}"
    raise SmokeCheckFailed(f"no REST API named {api_name}")


def smoke_caller(secret_id: str) -> Caller:
    import boto3

    try:
        secret = json.loads(boto3.client("secretsmanager").get_secret_value(SecretId=secret_id)["SecretString"])
        return Caller(client=str(secret["client"]), phone=str(secret["phone"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise SmokeCheckFailed(f'secret {secret_id} must be JSON {{"client": partner key, "phone": number}}') from exc
