"""HTTP to an identity provider, for the MyID and OneID adapters (standard library, no dependency).

Every answer must be a JSON object. 5xx answers, timeouts and connection errors are retried with
exponential backoff, bounded by a retry count and by one time budget for the whole verification, itself
within the request's budget for partner calls (core.deadline: the Lambda must answer before its own
timeout); each request is bounded as a whole, not per socket read, so a provider trickling its answer
cannot hold the request past its budget. A 4xx is never retried: it is handed to the adapter as
`Refused`, for it to say what the provider's refusal means. Nothing of a request or an answer is logged
but the step, the status and the provider's error name: codes, tokens, secrets and people stay out.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import Request, urlopen

from core import deadline as budgets
from core.observability import logger
from core.serialization import json_object
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
    data = urlencode({name: value for name, value in fields.items() if value is not None}).encode()
    return _request(url, data=data, content_type="application/x-www-form-urlencoded")


def json_request(url: str, body: Mapping[str, Any], *, bearer: str = "") -> Request:
    authorization = f"Bearer {bearer}" if bearer else ""
    return _request(url, data=json.dumps(body).encode(), content_type="application/json", authorization=authorization)


def get_request(url: str, *, bearer: str) -> Request:
    return _request(url, authorization=f"Bearer {bearer}")


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
                allowed = budgets.bounded(min(self.timeout_seconds, remaining))
            except budgets.DeadlineExceeded:
                failure = "request budget spent"
                break
            try:
                raw = budgets.call_within(lambda: _read(request, allowed), allowed)  # noqa: B023 (called at once)
                return _json_object(step, raw)
            except HTTPError as exc:
                with exc:
                    if exc.code < 500:
                        raise Refused(step, exc.code, _error_body(exc)) from None
                failure = f"HTTP {exc.code}"
            except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out, cut short
                failure = type(exc).__name__
            delay = self.backoff_seconds * 2**attempt
            attempt += 1
            if attempt > self.max_retries or self.monotonic() + delay >= deadline:
                break
            self.sleep(delay)
        logger.warning("identity provider unavailable", extra={"step": step, "attempts": attempt, "failure": failure})
        raise ProviderUnavailable()


def _read(request: Request, timeout: float) -> bytes:
    with urlopen(request, timeout=timeout) as response:  # noqa: S310 (configured http(s) URL)
        body: bytes = response.read()
        return body


def _request(url: str, *, data: bytes | None = None, content_type: str = "", authorization: str = "") -> Request:
    headers = {"Accept": "application/json", "Content-Type": content_type, "Authorization": authorization}
    return Request(  # noqa: S310 (http(s) only, checked by ProviderClient)
        url, data=data, headers={name: value for name, value in headers.items() if value}
    )


def _json_object(step: str, raw: bytes) -> dict[str, Any]:
    value = json_object(raw)
    if value is None:
        logger.warning("identity provider answered with something other than a JSON object", extra={"step": step})
        raise ProviderUnavailable()
    return value


def _error_body(exc: HTTPError) -> dict[str, Any]:
    """A 4xx's JSON body, or nothing: the status alone must be enough to decide."""
    try:
        value = json.loads(exc.read())
    except (ValueError, OSError, http.client.HTTPException):  # not JSON, or cut short
        return {}
    return value if isinstance(value, dict) else {}
