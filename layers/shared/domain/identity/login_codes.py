"""One-time login codes of `otp` partners: 6 digits sent by SMS to the phone a login names.

A phone has one code at a time, stored as a keyed hash (`core.secrets.keyed_hash`, its own purpose) under
the phone's keyed hash: a copy of the table reveals neither. A code is valid LOGIN_CODE_TTL_SECONDS, and
a new one is sent no sooner than LOGIN_CODE_RESEND_SECONDS after the last (a login asking sooner is told
of the code already sent). A right code works once.

Guessing is bounded per phone, not per code, so asking for new codes buys no guesses: at most
LOGIN_CODE_GUESSES_PER_PHONE answers are checked against a phone's codes in any
LOGIN_CODE_GUESS_WINDOW_SECONDS, and at most LOGIN_CODE_GUESSES_PER_ADDRESS of them from one source
address, so a stranger at one address spends at most that many of the phone's (docs/DECISIONS.md). A right
answer, or an answer with no code to check, is given back. Codes are never logged; the SMS gateway is
the configured adapter (`domain.identity.sms`).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import NamedTuple

from aws_lambda_powertools.metrics import MetricUnit

from core import clock
from core.deadline import within_request_budget
from core.errors import InvalidInput, TooManyAttempts, Unavailable
from core.observability import logger, metrics
from core.secrets import keyed_hash
from core.settings import get_settings
from domain.identity import store
from domain.identity.settings import get_identity_settings
from domain.identity.sms import SandboxSms, SmsGateway
from domain.identity.store import Guess, LoginCode, LoginGuesses

CODE_DIGITS = 6


class SentLoginCode(NamedTuple):
    expires_at: datetime
    resend_at: datetime


def get_gateway() -> SmsGateway:
    """The configured SMS gateway (`SMS_PROVIDER`): Eskiz, or else the sandbox. The sandbox and an Eskiz test
    account (`ESKIZ_TEST_ACCOUNT`), whose code is the sandbox's, are refused in prod: anyone knowing the
    code would log in as anyone."""
    settings = get_identity_settings()
    if settings.sms_provider == "eskiz" and not (settings.eskiz_test_account and get_settings().stage == "prod"):
        from domain.identity.eskiz import EskizGateway  # imported only where configured

        return EskizGateway.from_settings(settings)
    if get_settings().stage == "prod":
        logger.error("the sandbox SMS gateway and an Eskiz test account are refused in prod (their code is fixed)")
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return SandboxSms()


def _phone_key(phone: str) -> str:
    return keyed_hash("login-code-phone", phone)


def _code_hash(phone: str, code: str) -> str:
    return keyed_hash("login-code", f"{phone}\n{code}")


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, int((moment - now).total_seconds() + 0.999))


def _guess_keys(phone: str, source_ip: str) -> tuple[str, str]:
    """The keys of the phone's guess budgets: from this address, and from all."""
    return keyed_hash("login-code-guesses", f"{phone}\n{source_ip}"), _phone_guesses_key(phone)


def _phone_guesses_key(phone: str) -> str:
    return keyed_hash("login-code-guesses", phone)


def _locked(key: str, budget: int, now: datetime) -> TooManyAttempts:
    """429 until the oldest guess of the spent budget leaves the window."""
    window = timedelta(seconds=get_identity_settings().login_code_guess_window_seconds)
    record = store.find_login_guesses(key)
    guesses = record["guesses"][-budget:] if record else []
    until = guesses[0]["at"] + window if len(guesses) >= budget else now + timedelta(seconds=1)
    return TooManyAttempts("LOGIN_CODE_LOCKED", retry_after=_seconds_until(until, now))


def _left(record: LoginGuesses, budget: int, window_start: datetime) -> int:
    return budget - sum(guess["at"] > window_start for guess in record["guesses"])


@within_request_budget
def send_code(phone: str, *, language: str) -> SentLoginCode:
    """Send a new code to `phone` within the request's budget for partner calls, or, while the last
    one's cooldown runs, tell of that one (the phone holds it); 429 while the phone's guesses are spent (a
    code could not be checked), 400 for a number the gateway refuses, 503 when the gateway is down or out
    of time (the person may then ask again at once)."""
    settings = get_identity_settings()
    gateway = get_gateway()  # a configuration error surfaces before anything is stored
    now = clock.now()
    window_start = now - timedelta(seconds=settings.login_code_guess_window_seconds)
    phone_guesses = _phone_guesses_key(phone)
    spent = store.find_login_guesses(phone_guesses)
    if spent is not None and _left(spent, settings.login_code_guesses_per_phone, window_start) <= 0:
        raise _locked(phone_guesses, settings.login_code_guesses_per_phone, now)
    code = gateway.code_for(f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}")
    resend = timedelta(seconds=settings.login_code_resend_seconds)
    record = LoginCode(
        _id=_phone_key(phone),
        codeHash=_code_hash(phone, code),
        sentAt=now,
        expiresAt=now + timedelta(seconds=settings.login_code_ttl_seconds),
        purgeAt=now + max(timedelta(seconds=settings.login_code_ttl_seconds), resend),
    )
    blocking = store.start_login_code(record, resend_before=now - resend)
    if blocking is not None:
        if blocking["expiresAt"] > now:  # the code sent a moment ago is on the phone
            return SentLoginCode(expires_at=blocking["expiresAt"], resend_at=blocking["sentAt"] + resend)
        raise TooManyAttempts("LOGIN_CODE_TOO_EARLY", retry_after=_seconds_until(blocking["sentAt"] + resend, now))
    try:
        gateway.send(phone, gateway.text_for(code, language))
    except Exception:
        store.forget_login_code(record["_id"], record["codeHash"])
        raise
    metrics.add_metric(name="LoginCodesSent", unit=MetricUnit.Count, value=1)
    return SentLoginCode(expires_at=record["expiresAt"], resend_at=now + resend)


def check_code(phone: str, code: str, *, source_ip: str) -> None:
    """Accept the phone's code once. Each answer first takes a guess from the phone's budget at this
    address, then from its budget at all: a spent one is 429 (the right code too), a wrong answer 400 with
    the guesses left, the last one 429."""
    settings = get_identity_settings()
    now = clock.now()
    window_start = now - timedelta(seconds=settings.login_code_guess_window_seconds)
    guess = Guess(at=now, id=secrets.token_hex(8))
    taken: list[tuple[str, int, int]] = []  # key, budget, guesses left
    budgets = (settings.login_code_guesses_per_address, settings.login_code_guesses_per_phone)
    for key, budget in zip(_guess_keys(phone, source_ip), budgets, strict=True):
        counted = store.take_login_guess(key, guess, budget=budget, window_start=window_start)
        if counted is None:
            _give_back(taken, guess)
            raise _locked(key, budget, now)
        taken.append((key, budget, _left(counted, budget, window_start)))
    key = _phone_key(phone)
    record = store.find_login_code(key)
    if record is None or record["expiresAt"] <= now:
        _give_back(taken, guess)
        raise InvalidInput("LOGIN_CODE_EXPIRED")
    if secrets.compare_digest(_code_hash(phone, code), record["codeHash"]):
        _give_back(taken, guess)
        if store.use_login_code(key, record["codeHash"], record["sentAt"]):
            return
        raise InvalidInput("LOGIN_CODE_EXPIRED")  # a racing request used it first
    metrics.add_metric(name="LoginCodesWrong", unit=MetricUnit.Count, value=1)
    for key, budget, left in taken:
        if left <= 0:
            raise _locked(key, budget, now)
    raise InvalidInput("LOGIN_CODE_WRONG", details={"attemptsLeft": min(left for _, _, left in taken)})


def _give_back(taken: list[tuple[str, int, int]], guess: Guess) -> None:
    for key, _, _ in taken:
        store.give_back_login_guess(key, guess["id"])
