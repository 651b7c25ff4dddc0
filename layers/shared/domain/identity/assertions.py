"""Login assertions of `assertion` partners: a JWT the partner's backend signs for the person it verified,
which the app sends in the login body (docs/INTERFACE.md, "Who the caller is").

Checked here: the signature, with the key registered for the partner and only its algorithm (never
`none`, never another); `aud` is `car-retail:<stage>`; `iat` and `exp` are present, they and `nbf` are JSON
numbers (RFC 7519's NumericDate: a string of digits is refused), `exp` is after now and at most
MAX_LIFETIME_SECONDS after `iat`, and neither `iat` nor `nbf` is in the future (CLOCK_SKEW_SECONDS
allowed); `jti` is a string, used once per partner (a replay is refused); and the `phone` and `pin` the
login names are the ones the assertion vouches for (each one the login names must be in it).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any, NamedTuple

import jwt

from core import clock
from core.errors import NotAuthenticated
from core.settings import get_settings
from domain.identity import store
from domain.identity.tokens import numeric_date
from domain.partners.login import verification_key
from domain.partners.store import PartnerLogin

MAX_LIFETIME_SECONDS = 300
CLOCK_SKEW_SECONDS = 30
MAX_ASSERTION_CHARS = 8192
MAX_JTI_CHARS = 200


class Vouched(NamedTuple):
    """Whom an assertion vouches for."""

    phone: str | None
    pin: str | None


def audience() -> str:
    return f"car-retail:{get_settings().stage}"


def check(assertion: str, login: PartnerLogin | None, *, partner: str, phone: str | None, pin: str | None) -> Vouched:
    """The person a valid assertion vouches for, once; NotAuthenticated for any defect."""
    key = None if login is None else login["assertionKey"]
    if key is None or len(assertion) > MAX_ASSERTION_CHARS:
        raise NotAuthenticated("ASSERTION_INVALID")
    try:
        claims: dict[str, Any] = jwt.decode(
            assertion,
            verification_key(key),
            algorithms=[key["alg"]],
            audience=audience(),
            # The times are checked below, against our clock (PyJWT reads the system's) and as JSON numbers
            # (PyJWT's check is `int(value)`, which takes "1700000000"; no documented option makes it strict).
            options={
                "require": ["aud", "iat", "exp", "jti"],
                "verify_exp": False,
                "verify_iat": False,
                "verify_nbf": False,
            },
        )
    except (jwt.PyJWTError, ValueError, TypeError) as exc:
        raise NotAuthenticated("ASSERTION_INVALID") from exc
    issued, expires = _time(claims["iat"]), _time(claims["exp"])
    not_before = _time(claims["nbf"]) if "nbf" in claims else issued
    now = clock.now()
    if expires <= now or max(issued, not_before) > now + timedelta(seconds=CLOCK_SKEW_SECONDS):
        raise NotAuthenticated("ASSERTION_EXPIRED")
    if expires - issued > timedelta(seconds=MAX_LIFETIME_SECONDS):
        raise NotAuthenticated("ASSERTION_INVALID")
    jti = claims["jti"]
    if not isinstance(jti, str) or not jti or len(jti) > MAX_JTI_CHARS:
        raise NotAuthenticated("ASSERTION_INVALID")
    vouched = Vouched(phone=_text(claims.get("phone")), pin=_text(claims.get("pin")))
    if (phone is not None and vouched.phone != phone) or (pin is not None and vouched.pin != pin):
        raise NotAuthenticated("ASSERTION_OTHER_PERSON")
    used = hashlib.sha256(f"{partner}\n{jti}".encode()).hexdigest()
    if not store.use_assertion(used, at=now, expires_at=expires + timedelta(seconds=CLOCK_SKEW_SECONDS)):
        raise NotAuthenticated("ASSERTION_REPLAYED")
    return vouched


def _time(value: Any) -> datetime:
    moment = numeric_date(value)
    if moment is None:
        raise NotAuthenticated("ASSERTION_INVALID")
    return moment


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
