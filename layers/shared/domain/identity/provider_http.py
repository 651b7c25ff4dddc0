"""HTTP to an identity provider, for the MyID and OneID adapters, through the outbound port (`core.outbound`).

Every answer must be a JSON object. 5xx answers, timeouts and connection errors are retried with
exponential backoff, bounded by a retry count and by one time budget for the whole verification, itself
within the request's budget for partner calls (core.deadline: the Lambda must answer before its own
timeout); each request is bounded as a whole, not per socket read, so a provider trickling its answer
cannot hold the request past its budget. A 4xx is never retried: it is handed to the adapter as
`Refused`, for it to say what the provider's refusal means. Nothing of a request or an answer is logged
but the step, the status and the provider's error name: codes, tokens, secrets and people stay out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core import deadline as budgets
from core import outbound
from core.observability import logger
from core.outbound import Request
from domain.identity.provider import ProviderUnavailable
from domain.identity.settings import IdentitySettings, identity_client_secret


class Refused(Exception):
    """The provider answered 4xx: the adapter decides whether the code, the person or our client is at fault."""

    def __init__(self, step: str, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{step}: HTTP {status}")
        self.step = step
        self.status = status
        self.body = body

    @property
    def error(self) -> str:
        """The provider's own name for the error, short enough to log (never a person's data)."""
        return str(self.body.get("error") or self.body.get("code") or "")[:64]


def form_request(url: str, fields: Mapping[str, str | None]) -> Request:
    return outbound.form_request(url, fields)


def json_request(url: str, body: Mapping[str, Any], *, bearer: str = "") -> Request:
    return outbound.json_request("POST", url, body, headers=_bearer(bearer))


def get_request(url: str, *, bearer: str) -> Request:
    return outbound.json_request("GET", url, headers=_bearer(bearer))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class ProviderClient:
    """Where the provider is and who we are to it: the stage's registration with MyID or OneID."""

    url: str
    client_id: str
    client_secret: str = field(repr=False)

    def __post_init__(self) -> None:
        if not self.url.startswith(("https://", "http://")):
            raise RuntimeError("IDENTITY_PROVIDER_URL must be an http(s) URL")
        self.url = self.url.rstrip("/")

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> ProviderClient:
        if not (settings.identity_provider_url and settings.identity_client_id):
            raise RuntimeError(
                "IDENTITY_PROVIDER_URL and IDENTITY_CLIENT_ID must be set "
                f"when IDENTITY_PROVIDER={settings.identity_provider}"
            )
        return cls(settings.identity_provider_url, settings.identity_client_id, identity_client_secret())


@dataclass
class ProviderHttp:
    timeout_seconds: float = 3.0
    max_retries: int = 2
    backoff_seconds: float = 0.25
    deadline_seconds: float = 8.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    monotonic: Callable[[], float] = field(default=time.monotonic, repr=False)

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> ProviderHttp:
        return cls(
            timeout_seconds=settings.identity_timeout_seconds,
            max_retries=settings.identity_max_retries,
            backoff_seconds=settings.identity_retry_backoff_seconds,
            deadline_seconds=settings.identity_deadline_seconds,
        )

    def deadline(self) -> float:
        """When the verification starting now must have its answer."""
        return self.monotonic() + self.deadline_seconds

    def call(self, step: str, request: Request, deadline: float) -> dict[str, Any]:
        """The JSON object the provider answers; raises Refused on a 4xx, ProviderUnavailable otherwise."""
        attempt, failure = 0, "time budget spent"
        while (remaining := deadline - self.monotonic()) > 0:
            try:
                reply = outbound.exchange(request, timeout=min(self.timeout_seconds, remaining))
            except outbound.DeadlineExceeded:
                failure = "out of time"
                if budgets.remaining() == 0:  # the request's budget is spent: no retry can answer in time
                    break
            except outbound.Unreachable as exc:  # refused, reset, cut short
                failure = str(exc)
            else:
                if reply.status < 400:
                    return _json_object(step, reply.body)
                if reply.status < 500:
                    raise Refused(step, reply.status, reply.body if isinstance(reply.body, dict) else {})
                failure = f"HTTP {reply.status}"
            delay = self.backoff_seconds * 2**attempt
            attempt += 1
            if attempt > self.max_retries or self.monotonic() + delay >= deadline:
                break
            self.sleep(delay)
        logger.warning("identity provider unavailable", extra={"step": step, "attempts": attempt, "failure": failure})
        raise ProviderUnavailable()


def _json_object(step: str, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        logger.warning("identity provider answered with something other than a JSON object", extra={"step": step})
        raise ProviderUnavailable()
    return body
