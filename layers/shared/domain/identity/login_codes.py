"""One-time sign-in codes of `otp` partners: 6 digits sent by SMS to the phone a login names.

A phone has one code at a time, stored as a keyed hash (`core.secrets.keyed_hash`, its own purpose) under
the phone's keyed hash: a copy of the table reveals neither. A code is valid LOGIN_CODE_TTL_SECONDS, a
new one is sent no sooner than LOGIN_CODE_RESEND_SECONDS after the last, and LOGIN_CODE_MAX_ATTEMPTS
wrong codes lock the phone's sign-in by code for LOGIN_CODE_LOCK_SECONDS. A right code works once.
Codes are never logged; the SMS gateway is the configured adapter (`domain.identity.sms`).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import NamedTuple

from aws_lambda_powertools.metrics import MetricUnit

from core import clock
from core.errors import InvalidInput, TooManyAttempts, Unavailable
from core.observability import logger, metrics
from core.secrets import keyed_hash
from core.settings import get_settings
from domain.identity import store
from domain.identity.settings import get_identity_settings
from domain.identity.sms import SandboxSms, SmsGateway
from domain.identity.store import LoginCode

CODE_DIGITS = 6


class CodeSent(NamedTuple):
    expires_at: datetime
    resend_at: datetime


def get_gateway() -> SmsGateway:
    """The configured SMS gateway (`SMS_PROVIDER`): Eskiz, or else the sandbox, which is refused in prod:
    anyone knowing its code would sign in as anyone."""
    settings = get_identity_settings()
    if settings.sms_provider == "eskiz":
        from domain.identity.eskiz import EskizGateway  # imported only where configured

        return EskizGateway.from_settings(settings)
    if get_settings().stage == "prod":
        logger.error("the sandbox SMS gateway is refused in prod; set SMS_PROVIDER=eskiz")
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return SandboxSms()


def _phone_key(phone: str) -> str:
    return keyed_hash("login-code-phone", phone)


def _code_hash(phone: str, code: str) -> str:
    return keyed_hash("login-code", f"{phone}\n{code}")


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, int((moment - now).total_seconds() + 0.999))


def send_code(phone: str) -> CodeSent:
    """Send a new code to `phone`; 429 while the last one's cooldown runs or the phone is locked, 400 for
    a number the gateway refuses, 503 when the gateway is down (the person may then ask again at once)."""
    settings = get_identity_settings()
    gateway = get_gateway()  # a configuration error surfaces before anything is stored
    now = clock.now()
    code = gateway.code_for(f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}")
    record = LoginCode(
        _id=_phone_key(phone),
        codeHash=_code_hash(phone, code),
        sentAt=now,
        expiresAt=now + timedelta(seconds=settings.login_code_ttl_seconds),
        attempts=0,
        lockedUntil=None,
        purgeAt=now + timedelta(seconds=max(settings.login_code_ttl_seconds, settings.login_code_resend_seconds)),
    )
    blocking = store.start_login_code(record, resend_before=now - timedelta(seconds=settings.login_code_resend_seconds))
    if blocking is not None:
        locked = blocking.get("lockedUntil")
        if locked is not None and locked > now:
            raise TooManyAttempts("LOGIN_CODE_LOCKED", retry_after=_seconds_until(locked, now))
        resend = blocking["sentAt"] + timedelta(seconds=settings.login_code_resend_seconds)
        raise TooManyAttempts("LOGIN_CODE_TOO_EARLY", retry_after=_seconds_until(resend, now))
    try:
        gateway.send(phone, settings.login_code_message.replace("{code}", code))
    except Exception:
        store.forget_login_code(record["_id"], record["codeHash"])
        raise
    metrics.add_metric(name="LoginCodesSent", unit=MetricUnit.Count, value=1)
    return CodeSent(
        expires_at=record["expiresAt"], resend_at=now + timedelta(seconds=settings.login_code_resend_seconds)
    )


def check_code(phone: str, code: str) -> None:
    """Accept the phone's code once; a wrong one counts, the last wrong one locks the phone (429)."""
    settings = get_identity_settings()
    now = clock.now()
    key = _phone_key(phone)
    counted = store.count_login_code_attempt(key, now=now, max_attempts=settings.login_code_max_attempts)
    if counted is None:
        _refuse_unusable(store.find_login_code(key), now)
    assert counted is not None  # _refuse_unusable always raises
    given = _code_hash(phone, code)
    if secrets.compare_digest(given, counted["codeHash"]):
        if store.use_login_code(key, counted["codeHash"], counted["sentAt"]):
            return
        raise InvalidInput("LOGIN_CODE_EXPIRED")  # a racing request used it first
    left = settings.login_code_max_attempts - counted["attempts"]
    metrics.add_metric(name="LoginCodesWrong", unit=MetricUnit.Count, value=1)
    if left <= 0:
        until = now + timedelta(seconds=settings.login_code_lock_seconds)
        store.lock_login_code(key, until=until)
        raise TooManyAttempts("LOGIN_CODE_LOCKED", retry_after=settings.login_code_lock_seconds)
    raise InvalidInput("LOGIN_CODE_WRONG", details={"attemptsLeft": left})


def _refuse_unusable(record: LoginCode | None, now: datetime) -> None:
    if record is not None:
        locked = record.get("lockedUntil")
        if locked is not None and locked > now:
            raise TooManyAttempts("LOGIN_CODE_LOCKED", retry_after=_seconds_until(locked, now))
    raise InvalidInput("LOGIN_CODE_EXPIRED")
