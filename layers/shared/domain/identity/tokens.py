"""JWTs: HS256 access (15 min) and refresh (30 days) tokens with claims sub, typ, jti, iat, exp, iss, signed
(`encode`) and verified (`verify`) here; a login's pair is issued and a refresh token rotated by
`domain.identity.sessions`, which only the auth routes import (every function's gate verifies).

Each names its key in the header (`kid`): signed with the current key, verified with the current or the
previous one, so rotating the key (docs/OPERATIONS.md, Key rotation) logs no one out. Which key is ours to
choose (`_named_kid`); the checks are PyJWT's `jwt.decode` (the token's form, signature, algorithm,
required claims, issuer, string `sub` and `jti`), but for the times: see `numeric_date`.
"""

import base64
import functools
import json
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, NamedTuple

import jwt
from bson import ObjectId
from jwt.algorithms import HMACAlgorithm

from core import clock
from core.errors import NotAuthenticated
from core.secrets import jwt_signing_key, jwt_verification_key
from core.settings import get_settings
from data.caches import BoundedCache

TokenType = Literal["access", "refresh"]
ALGORITHM = "HS256"
REQUIRED_CLAIMS = ("sub", "typ", "jti", "iat", "exp", "iss")
CLOCK_SKEW_SECONDS = 30
# How long this instance trusts an access token it has verified without checking its signature again: a
# client sends the same token with every request of its 15 minutes (docs/DECISIONS.md). Bounded so that a
# key withdrawn after a rotation, or a previous key read again, stops being honoured within this time.
VERIFIED_ACCESS_SECONDS = 60


class Claims(NamedTuple):
    sub: str
    typ: TokenType
    jti: str
    iat: datetime
    exp: datetime
    partner: str | None = None  # `ptn`: the partner app it was issued to; None for a token issued before


def encode(
    subject: str, token_type: TokenType, jti: str, issued: datetime, ttl_seconds: int, *, partner: str | None
) -> str:
    payload: dict[str, Any] = {
        "sub": subject,
        "typ": token_type,
        "jti": jti,
        "iat": int(issued.timestamp()),
        "exp": int((issued + timedelta(seconds=ttl_seconds)).timestamp()),
        "iss": get_settings().jwt_issuer,
    }
    if partner is not None:
        payload["ptn"] = partner
    key = jwt_signing_key()
    # The claims as PyJWT's `jwt.encode` writes them, signed by our JWS.
    claims = json.dumps(payload, separators=(",", ":")).encode()
    return _jws.encode(claims, key.secret, algorithm=ALGORITHM, headers={"kid": key.kid})


class _OurKeysHS256(HMACAlgorithm):
    """PyJWT's HS256, checking each key once: PyJWT checks a key on every token it signs (is it an
    asymmetric key, PEM, SSH, DER or JSON, given as an HMAC secret?); ours is the current signing key,
    which only changes with a rotation (docs/DECISIONS.md)."""

    def __init__(self) -> None:
        super().__init__(HMACAlgorithm.SHA256)

    def prepare_key(self, key: str | bytes) -> bytes:
        return _prepared_key(key)


@functools.lru_cache(maxsize=8)
def _prepared_key(key: str | bytes) -> bytes:
    return HMACAlgorithm(HMACAlgorithm.SHA256).prepare_key(key)


def prepare_current_key() -> None:
    """Read the current signing key and prepare it for HS256, as signing a token would: a SnapStart restore
    does (`data.caches` loader), so that its first request does not fetch the key, nor check it to sign."""
    _prepared_key(jwt_signing_key().secret)


# Our own JWS to sign, knowing only our HS256: PyJWT's global `jwt.encode`/`jwt.decode` stay as shipped, and
# `jwt.decode` verifies.
_jws = jwt.PyJWS(algorithms=[])
_jws.register_algorithm(ALGORITHM, _OurKeysHS256())

_verified_access: BoundedCache[Claims] = BoundedCache(max_entries=10_000)


def verify(token: str, expected: TokenType) -> Claims:
    """Decode and check a token; any defect is a 401 with a message that does not echo the token. An
    access token verified in the last minute is taken from the cache until it expires."""
    now = clock.now()
    if expected == "access":
        cached = _verified_access.get(token, now)  # an entry lives no longer than its token
        if cached is not None:
            return cached.value
    claims = _verify_signed(token, expected, now)
    if expected == "access":
        until = min(claims.exp, now + timedelta(seconds=VERIFIED_ACCESS_SECONDS))
        _verified_access.put(token, claims, expires=until, now=now)
    return claims


def _named_kid(token: str) -> str | None:
    """The key a token names in its header (`kid`), to choose the one that verifies it; a header that names
    none, or that `jwt.decode` will refuse, chooses the current key. Read here: PyJWT's
    `get_unverified_header` decodes and checks every segment of the token, which `jwt.decode` does again."""
    segment = token.partition(".")[0]
    try:
        header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (ValueError, RecursionError):
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return kid if isinstance(kid, str) else None


def _verify_signed(token: str, expected: TokenType, now: datetime) -> Claims:
    key = jwt_verification_key(_named_kid(token))
    if key is None:  # it names no key of ours
        raise NotAuthenticated("TOKEN_INVALID")
    try:
        payload: dict[str, Any] = jwt.decode(
            token,
            key.secret,
            algorithms=[ALGORITHM],  # never "none", never a key-confusion algorithm
            issuer=get_settings().jwt_issuer,
            # The times are checked below, against our clock (PyJWT reads the system's) and as JSON numbers.
            options={"require": list(REQUIRED_CLAIMS), "verify_exp": False, "verify_iat": False, "verify_nbf": False},
        )
    except jwt.PyJWTError as exc:
        raise NotAuthenticated("TOKEN_INVALID") from exc
    if payload["typ"] != expected:
        raise NotAuthenticated("TOKEN_WRONG_TYPE", expected=expected)
    issued = _timestamp(payload["iat"])
    expires = _timestamp(payload["exp"])
    if expires <= now:
        raise NotAuthenticated("TOKEN_EXPIRED")
    if issued > now + timedelta(seconds=CLOCK_SKEW_SECONDS):
        raise NotAuthenticated("TOKEN_INVALID")
    if not ObjectId.is_valid(payload["sub"]):  # a string, as PyJWT checked: our user's id
        raise NotAuthenticated("TOKEN_INVALID")
    partner = payload.get("ptn")
    if partner is not None and not isinstance(partner, str):
        raise NotAuthenticated("TOKEN_INVALID")
    return Claims(sub=payload["sub"], typ=expected, jti=payload["jti"], iat=issued, exp=expires, partner=partner)


def check_partner(claims: Claims, partner: str) -> None:
    """A token works only with the key of the partner it was issued to (`ptn`): a token of a disabled
    partner, whose own key is refused, is not taken with another's. A token without `ptn` was issued
    before tokens were bound (docs/DECISIONS.md, "Tokens belong to their partner")."""
    if claims.partner is not None and claims.partner != partner:
        raise NotAuthenticated("TOKEN_OTHER_PARTNER")


def _timestamp(value: Any) -> datetime:
    """A NumericDate claim as a time; a value no calendar holds (1e20, NaN) or no JSON number (a string) is
    an invalid token."""
    moment = numeric_date(value)
    if moment is None:
        raise NotAuthenticated("TOKEN_INVALID")
    return moment


def numeric_date(value: Any) -> datetime | None:
    """RFC 7519's NumericDate as a time: a JSON number that a calendar holds; None otherwise. Ours because
    PyJWT's check is `int(value)`, which takes a string of digits ("1767225600") and a boolean, and none of
    its documented options (`verify_exp`, `verify_iat`, `verify_nbf`, `require`) makes it strict."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return datetime.fromtimestamp(int(value), tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None
