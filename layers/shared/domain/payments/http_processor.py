"""The HTTP card-processor adapter: a processor whose flow matches ours (create, pre-apply, apply).

Its API, JSON over HTTPS, amounts in tiyin:

    POST /auth/token              {login, password}               -> {accessToken, expiresIn}
    POST /payments                {amount, reference, card {number, expiry: "YYMM"}} -> {id, cardToken}
    POST /payments/{id}/pre-apply {}                              -> {}  sends the SMS code (again on resend)
    POST /payments/{id}/apply     {otp}                           -> {state: "CONFIRMED"} (idempotent)
    POST /payments/{id}/cancel    {}                              -> {}  void or refund
    GET  /payments/{id}                                           -> {state, error? {code}}
         state: CREATED | OTP_SENT (not debited), CONFIRMED, DECLINED (error.code says why), CANCELLED
    errors: 4xx {error: {code, message}}; 401 when the bearer token has expired

The bearer token is cached per process until shortly before it expires, and fetched again once when
the processor answers 401. Credentials come from core.secrets (env locally, Secrets Manager
deployed). Timeouts and 5xx are `ProcessorUnavailable` (503). Request bodies and the processor's
messages are never logged: they may hold card data.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from core import clock
from core.observability import logger
from core.secrets import payment_processor_credentials
from domain.payments.processor import (
    CARD_BLOCKED,
    CARD_DECLINED,
    INSUFFICIENT_FUNDS,
    CardDetails,
    OtpExpired,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorError,
    ProcessorPayment,
    ProcessorUnavailable,
    WrongOtp,
)

TOKEN_REFRESH_MARGIN_SECONDS = 30

# The processor's error codes we understand; any other refusal is an outage to us (503).
ERRORS: dict[str, Callable[[], ProcessorError]] = {
    "OTP_INVALID": WrongOtp,
    "OTP_EXPIRED": OtpExpired,
    "INSUFFICIENT_FUNDS": partial(PaymentDeclined, INSUFFICIENT_FUNDS),
    "CARD_BLOCKED": partial(PaymentDeclined, CARD_BLOCKED),
    "CARD_EXPIRED": partial(PaymentDeclined, CARD_DECLINED),
    "CARD_INVALID": partial(PaymentDeclined, CARD_DECLINED),
}


STATES = {
    "CREATED": PaymentState.NOT_CHARGED,
    "OTP_SENT": PaymentState.NOT_CHARGED,
    "CONFIRMED": PaymentState.CHARGED,
    "DECLINED": PaymentState.DECLINED,
    "CANCELLED": PaymentState.CANCELLED,
}


class _Expired(Exception):
    """The processor refused our bearer token (401)."""


class HttpCardProcessor:
    name = "http"

    def __init__(self, base_url: str, *, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._lock = threading.Lock()
        self._token: tuple[str, datetime] | None = None

    def create(self, card: CardDetails, amount_tiyin: int, reference: str) -> ProcessorPayment:
        expiry = f"{card.expiry_year % 100:02d}{card.expiry_month:02d}"
        answer = self._call(
            "/payments",
            {"amount": amount_tiyin, "reference": reference, "card": {"number": card.number, "expiry": expiry}},
        )
        try:
            return ProcessorPayment(processor_id=str(answer["id"]), token=str(answer["cardToken"]))
        except KeyError as exc:
            raise self._unreadable("/payments") from exc

    def send_otp(self, payment: ProcessorPayment) -> str | None:
        self._call(self._payment_path(payment, "pre-apply"), {})
        return None  # the processor verifies the code itself

    def confirm(self, payment: ProcessorPayment, otp: str) -> None:
        answer = self._call(self._payment_path(payment, "apply"), {"otp": otp})
        if answer.get("state") != "CONFIRMED":
            raise self._unreadable("/payments/{id}/apply")

    def cancel(self, payment: ProcessorPayment) -> None:
        self._call(self._payment_path(payment, "cancel"), {})

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        path = f"/payments/{urllib.parse.quote(payment.processor_id, safe='')}"
        answer = self._call(path, None)
        state = STATES.get(str(answer.get("state")))
        if state is None:
            raise self._unreadable("/payments/{id}")
        if state is not PaymentState.DECLINED:
            return PaymentStatus(state)
        error = answer.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        known = ERRORS.get(code) if isinstance(code, str) else None
        declined = known() if known else None
        return PaymentStatus(state, declined.reason if isinstance(declined, PaymentDeclined) else CARD_DECLINED)

    @staticmethod
    def _payment_path(payment: ProcessorPayment, action: str) -> str:
        return f"/payments/{urllib.parse.quote(payment.processor_id, safe='')}/{action}"

    def _call(self, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        """POST `body` to `path`, or GET it when `body` is None."""
        try:
            return self._send(path, body, self._bearer())
        except _Expired:
            self._forget_token()
            try:
                return self._send(path, body, self._bearer())
            except _Expired as exc:
                raise self._unreadable(path, "bearer token refused twice") from exc

    def _bearer(self) -> str:
        with self._lock:
            now = clock.now()
            if self._token is None or self._token[1] <= now:
                login, password = payment_processor_credentials()
                answer = self._send("/auth/token", {"login": login, "password": password}, None)
                try:
                    token, lifetime = str(answer["accessToken"]), int(answer["expiresIn"])
                except (KeyError, TypeError, ValueError) as exc:
                    raise self._unreadable("/auth/token") from exc
                refresh_at = now + timedelta(seconds=max(0, lifetime - TOKEN_REFRESH_MARGIN_SECONDS))
                self._token = (token, refresh_at)
            return self._token[0]

    def _forget_token(self) -> None:
        with self._lock:
            self._token = None

    def _send(self, path: str, body: dict[str, Any] | None, token: str | None) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(  # noqa: S310 (the base URL is configuration, https when deployed)
            self.base_url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers=headers,
            method="GET" if body is None else "POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                return self._json(response.read(), path)
        except urllib.error.HTTPError as error:
            with error:
                raise self._error(path, error.code, error.read()) from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            logger.warning("card processor unreachable", extra={"path": path, "error": type(exc).__name__})
            raise ProcessorUnavailable("processor unreachable") from exc

    def _error(self, path: str, status: int, payload: bytes) -> Exception:
        if status == 401 and path != "/auth/token":
            return _Expired()
        code = None
        if 400 <= status < 500:
            try:
                code = json.loads(payload)["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = None
        known = ERRORS.get(code) if isinstance(code, str) else None
        logger.warning("card processor refused", extra={"path": path, "status": status, "code": code})
        return known() if known else ProcessorUnavailable(f"processor answered {status}")

    def _json(self, payload: bytes, path: str) -> dict[str, Any]:
        try:
            answer = json.loads(payload or b"{}")
        except ValueError as exc:
            raise self._unreadable(path) from exc
        if not isinstance(answer, dict):
            raise self._unreadable(path)
        return answer

    @staticmethod
    def _unreadable(path: str, why: str = "unreadable answer") -> ProcessorUnavailable:
        logger.error("card processor answer not understood", extra={"path": path, "why": why})
        return ProcessorUnavailable(why)
