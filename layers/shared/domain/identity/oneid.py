"""The OneID adapter of the identity-provider port: OAuth2 authorization code over HTTP (standard library).

1. POST the token endpoint, form-encoded: grant_type=authorization_code, code, client_id, client_secret,
   redirect_uri -> {"access_token": ...}.
2. GET the profile endpoint with `Authorization: Bearer <access_token>` -> the person, in OneID's field
   names: pin, first_name, sur_name, mid_name, birth_date, pport_no (and `valid`).

5xx answers, timeouts and connection errors are retried with exponential backoff, bounded by a retry
count and by one time budget for the whole verification (the Lambda must answer before its own
timeout). A 4xx is never retried. The code, the tokens, the client secret and the PINFL are never logged.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import Request, urlopen

from core.observability import logger
from core.pinfl import pinfl_is_valid
from core.secrets import oneid_client_secret
from core.settings import Settings
from domain.identity.provider import CodeRejected, ProviderUnavailable, VerifiedPerson

Step = Literal["token", "profile"]
NAME_MAX_LENGTH = 100
BIRTH_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y")


@dataclass
class OneIdProvider:
    token_url: str
    profile_url: str
    client_id: str
    client_secret: str = field(repr=False)
    redirect_uri: str | None = None
    timeout_seconds: float = 3.0
    max_retries: int = 2
    backoff_seconds: float = 0.25
    deadline_seconds: float = 8.0
    sleep: Callable[[float], None] = time.sleep
    monotonic: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        for url in (self.token_url, self.profile_url):
            if not url.startswith(("https://", "http://")):
                raise RuntimeError("ONEID_TOKEN_URL and ONEID_PROFILE_URL must be http(s) URLs")

    @classmethod
    def from_settings(cls, settings: Settings) -> OneIdProvider:
        if not (settings.oneid_token_url and settings.oneid_profile_url and settings.oneid_client_id):
            raise RuntimeError(
                "ONEID_TOKEN_URL, ONEID_PROFILE_URL and ONEID_CLIENT_ID must be set when IDENTITY_PROVIDER=http"
            )
        return cls(
            token_url=settings.oneid_token_url,
            profile_url=settings.oneid_profile_url,
            client_id=settings.oneid_client_id,
            client_secret=oneid_client_secret(),
            redirect_uri=settings.oneid_redirect_uri,
            timeout_seconds=settings.oneid_timeout_seconds,
            max_retries=settings.oneid_max_retries,
            backoff_seconds=settings.oneid_retry_backoff_seconds,
            deadline_seconds=settings.oneid_deadline_seconds,
        )

    def verify(self, code: str) -> VerifiedPerson:
        deadline = self.monotonic() + self.deadline_seconds
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": self.client_id,
            "client_secret": self.client_secret,
        }
        if self.redirect_uri:
            form["redirect_uri"] = self.redirect_uri
        token_request = _request(
            self.token_url, data=urlencode(form).encode(), content_type="application/x-www-form-urlencoded"
        )
        access_token = self._call("token", token_request, deadline).get("access_token")
        if not isinstance(access_token, str) or not access_token:
            logger.warning("identity provider token response without an access token")
            raise ProviderUnavailable()
        profile_request = _request(self.profile_url, authorization=f"Bearer {access_token}")
        return parse_profile(self._call("profile", profile_request, deadline))

    def _call(self, step: Step, request: Request, deadline: float) -> dict[str, Any]:
        attempt, failure = 0, "time budget spent"
        while (remaining := deadline - self.monotonic()) > 0:
            try:
                with urlopen(request, timeout=min(self.timeout_seconds, remaining)) as response:  # noqa: S310 (configured URL)
                    return _json_object(response.read())
            except HTTPError as exc:
                with exc:
                    if exc.code < 500:
                        try:
                            body = _json_object(exc.read(), strict=False)
                        except (OSError, http.client.HTTPException):  # the error body itself was cut short
                            body = {}
                        raise _client_error(step, exc.code, body) from None
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


def _request(url: str, *, data: bytes | None = None, content_type: str = "", authorization: str = "") -> Request:
    headers = {"Accept": "application/json", "Content-Type": content_type, "Authorization": authorization}
    return Request(  # noqa: S310 (http(s) only, checked in OneIdProvider.__post_init__)
        url, data=data, headers={name: value for name, value in headers.items() if value}
    )


def _json_object(raw: bytes, *, strict: bool = True) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value
    if strict:
        logger.warning("identity provider answered with something other than a JSON object")
        raise ProviderUnavailable()
    return {}


def _client_error(step: Step, status: int, body: dict[str, Any]) -> Exception:
    error = str(body.get("error", ""))[:64]
    logger.info("identity provider refused the request", extra={"step": step, "status": status, "error": error})
    if step == "token" and (status == 401 or error == "invalid_client"):
        # Our own client id or secret is wrong: not the caller's fault, and retrying will not help them.
        logger.error("identity provider refused the client credentials; check ONEID_CLIENT_ID and the secret")
        return ProviderUnavailable()
    if step == "profile":
        return CodeRejected("IDENTITY_PROFILE_REFUSED")
    return CodeRejected()


def parse_profile(data: dict[str, Any]) -> VerifiedPerson:
    """OneID's profile fields -> VerifiedPerson; a profile the provider marks not valid is a 400."""
    if str(data.get("valid", "true")).lower() == "false":
        raise CodeRejected("IDENTITY_NOT_CONFIRMED")
    pin = _text(data.get("pin"))
    first_name, last_name = _text(data.get("first_name")), _text(data.get("sur_name"))
    if pin is None or not pinfl_is_valid(pin) or first_name is None or last_name is None:
        logger.warning("identity provider profile without a valid PINFL or names")
        raise ProviderUnavailable()
    return VerifiedPerson(
        pin=pin,
        first_name=first_name,
        last_name=last_name,
        middle_name=_text(data.get("mid_name")),
        birth_date=_birth_date(_text(data.get("birth_date"))),
        document=_text(data.get("pport_no")),
    )


def _text(value: Any) -> str | None:
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None
    text = str(value).strip()
    return text[:NAME_MAX_LENGTH] if text else None


def _birth_date(value: str | None) -> date | None:
    for pattern in BIRTH_DATE_FORMATS:
        try:
            return datetime.strptime(value or "", pattern).date()
        except ValueError:
            continue
    return None
