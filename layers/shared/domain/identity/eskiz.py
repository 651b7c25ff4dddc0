"""The Eskiz SMS gateway (notify.eskiz.uz), as Eskiz's published API describes it
(https://documenter.getpostman.com/view/663428/RzfmES4z):

- `POST /api/auth/login`, form fields `email` and `password` (the API password from my.eskiz.uz) ->
  `{"message": "token_generated", "data": {"token": ...}, "token_type": "bearer"}`;
- `PATCH /api/auth/refresh` with `Authorization: Bearer <token>` -> the same shape, a new token;
- `POST /api/message/sms/send` with the token, form fields `mobile_phone` (digits, no `+`: 998901234567),
  `message`, `from` (the approved sender name; Eskiz's default is 4546) -> `{"id", "message": "Waiting for
  SMS provider", "status": "waiting"}`. A token Eskiz no longer honours is 401: it is refreshed, or taken
  again when refreshing fails, and the message sent once more.

The text is the template the operator registered with Eskiz for the person's language
(`ESKIZ_LOGIN_TEMPLATE_UZ|RU|EN`, `{code}` marking the code's place), rendered exactly: Eskiz sends only
texts its moderators approved, character for character. A test account sends only Eskiz's fixed test
phrases ("This is test from Eskiz", "Bu Eskiz dan test", "Это тест от Eskiz": the public integrations
listed in tests/fake_eskiz.py agree), so with `ESKIZ_TEST_ACCOUNT` the phrase `ESKIZ_TEST_TEXT` is sent
and the code is the sandbox's (refused in prod). A refused text is told apart from a refused number
(`_refusal`). Delivery reports are not recorded: integrations send an optional `callback_url`, but the
body Eskiz posts to it is published nowhere found and the integrations receiving it disagree on its
fields, with nothing to authenticate it by (docs/OPERATIONS.md, "Before going live with Eskiz").

Forms are sent as `multipart/form-data`, as the documentation's examples do. The token is kept per
process (Eskiz's tokens live for days); credentials come from one secret (`ESKIZ_CREDENTIALS_SECRET_ID`,
the JSON {"email", "password"}). A send is never retried after a 5xx or a timeout: the message may have
gone, and the person can ask for another code after the cooldown. Nothing of a message, a number or a
token is logged: only the step and the status.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from core import outbound
from core.locale import DEFAULT_LOCALE, LOCALES
from core.observability import logger, metrics
from domain.identity.settings import CODE_MARK, IdentitySettings, eskiz_credentials
from domain.identity.sms import SANDBOX_CODE, SmsRefused, SmsTextRefused, SmsUnavailable

LOGIN_PATH = "/api/auth/login"
REFRESH_PATH = "/api/auth/refresh"
SEND_PATH = "/api/message/sms/send"
TEXT_REFUSED_METRIC = "SmsTextNotApproved"  # the alarm car-retail-<stage>-sms-text-not-approved watches it
UZBEK_PREFIX = "+998"  # /send delivers to Uzbek numbers; others would need /send-global


class _Unauthorized(Exception):
    """Eskiz answered 401: the token (or the credentials) is not honoured."""


@dataclass
class _TokenHolder:
    """The process's Eskiz token, shared by every gateway object of one account."""

    token: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


_tokens: dict[tuple[str, str], _TokenHolder] = {}


def forget_tokens() -> None:
    """Drop the kept tokens (tests start each with a fresh process's state)."""
    _tokens.clear()


@dataclass
class EskizGateway:
    url: str
    email: str
    password: str = field(repr=False)
    sender: str = "4546"
    timeout_seconds: float = 5.0
    templates: Mapping[str, str] = field(default_factory=lambda: dict.fromkeys(LOCALES, f"Code: {CODE_MARK}"))
    test_text: str | None = None  # a test account's fixed phrase: sent instead of any template

    def __post_init__(self) -> None:
        if not self.url.startswith(("https://", "http://")):
            raise RuntimeError("ESKIZ_URL must be an http(s) URL")
        self.url = self.url.rstrip("/")

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> EskizGateway:
        try:
            credentials = json.loads(eskiz_credentials())
            email, password = str(credentials["email"]), str(credentials["password"])
        except (ValueError, KeyError, TypeError) as exc:
            raise RuntimeError('the Eskiz credentials must be the JSON {"email": ..., "password": ...}') from exc
        return cls(
            settings.eskiz_url,
            email,
            password,
            sender=settings.eskiz_from,
            timeout_seconds=settings.sms_timeout_seconds,
            templates={language: settings.login_template(language) for language in LOCALES},
            test_text=settings.eskiz_test_text if settings.eskiz_test_account else None,
        )

    def code_for(self, generated: str) -> str:
        """The generated code; on a test account, whose phrase carries none, the sandbox's fixed code."""
        return SANDBOX_CODE if self.test_text is not None else generated

    def text_for(self, code: str, language: str) -> str:
        """The template registered with Eskiz for `language` with the code in its marked place, exactly (a
        character more or less is a text Eskiz did not approve); a test account's fixed phrase."""
        if self.test_text is not None:
            return self.test_text
        template = self.templates.get(language) or self.templates[DEFAULT_LOCALE]
        return template.replace(CODE_MARK, code)

    def send(self, phone: str, text: str) -> None:
        if not phone.startswith(UZBEK_PREFIX):
            raise SmsRefused()
        fields = {"mobile_phone": phone.removeprefix("+"), "message": text, "from": self.sender}
        holder = _tokens.setdefault((self.url, self.email), _TokenHolder())
        token = holder.token or self._take_token(holder, stale=None)
        try:
            answer = self._call("send", "POST", SEND_PATH, fields, token=token)
        except _Unauthorized:
            token = self._take_token(holder, stale=token)
            try:
                answer = self._call("send", "POST", SEND_PATH, fields, token=token)
            except _Unauthorized:
                logger.error("Eskiz refused a fresh token", extra={"step": "send"})
                raise SmsUnavailable() from None
        if str(answer.get("status", "")).lower() in ("error", "fail"):
            raise _refusal(answer)

    def _take_token(self, holder: _TokenHolder, *, stale: str | None) -> str:
        """A token Eskiz honours: the one another request just took, a refresh of `stale`, or a new login."""
        with holder.lock:
            if holder.token is not None and holder.token != stale:
                return holder.token
            token = None
            if stale is not None:
                try:
                    token = _token_of(self._call("refresh", "PATCH", REFRESH_PATH, None, token=stale))
                except _Unauthorized:
                    token = None
            if token is None:
                try:
                    answer = self._call("login", "POST", LOGIN_PATH, {"email": self.email, "password": self.password})
                except _Unauthorized:
                    logger.error("Eskiz refused our credentials", extra={"step": "login"})
                    raise SmsUnavailable() from None
                token = _token_of(answer)
            holder.token = token
            return token

    def _call(
        self, step: str, method: str, path: str, fields: dict[str, str] | None, *, token: str | None = None
    ) -> dict[str, Any]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        request = (
            outbound.json_request(method, self.url + path, headers=headers)
            if fields is None
            else outbound.multipart_request(method, self.url + path, fields, headers=headers)
        )
        try:
            reply = outbound.exchange(request, timeout=self.timeout_seconds)
        except (outbound.DeadlineExceeded, outbound.Unreachable) as exc:  # out of time, refused, reset, cut short
            logger.warning("Eskiz unavailable", extra={"step": step, "failure": type(exc).__name__})
            raise SmsUnavailable() from None
        if reply.status == 401:
            raise _Unauthorized()
        if 400 <= reply.status < 500 and step == "send":
            raise _refusal(reply.body if isinstance(reply.body, dict) else {}, status=reply.status)
        if reply.status >= 400:
            logger.warning("Eskiz unavailable", extra={"step": step, "status": reply.status})
            raise SmsUnavailable()
        return _json_object(step, reply.body)


def _refusal(answer: dict[str, Any], *, status: int = 200) -> SmsRefused | SmsTextRefused:
    """What a refused send means. Eskiz's documentation names no error code for it; public integrations
    show a refused number as a validation error of `mobile_phone` (`{"status": "error", "message":
    {"mobile_phone": [...]}}`), the buyer's to correct. Any other refusal is of what we sent (a text its
    moderators did not approve, a test account's text other than its phrases, our sender name): ours to
    fix, never blamed on the buyer, and an alarm."""
    message = answer.get("message")
    if isinstance(message, dict) and "mobile_phone" in message:
        logger.info("Eskiz refused the number", extra={"step": "send", "status": status})
        return SmsRefused()
    logger.error(
        "Eskiz refused the sign-in SMS's text: ESKIZ_LOGIN_TEMPLATE_* must be the text Eskiz approved, "
        "character for character (on a test account, ESKIZ_TEST_TEXT one of its phrases)",
        extra={"step": "send", "status": status, "alarm": TEXT_REFUSED_METRIC},
    )
    metrics.add_metric(name=TEXT_REFUSED_METRIC, unit=MetricUnit.Count, value=1)
    return SmsTextRefused()


def _token_of(answer: dict[str, Any]) -> str:
    data = answer.get("data")
    token = data.get("token") if isinstance(data, dict) else None
    if not isinstance(token, str) or not token:
        logger.warning("Eskiz answered without a token")
        raise SmsUnavailable()
    return token


def _json_object(step: str, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        logger.warning("Eskiz answered something other than a JSON object", extra={"step": step})
        raise SmsUnavailable()
    return body
