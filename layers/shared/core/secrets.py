"""Secrets: Secrets Manager (cached by Powertools `parameters`) when deployed, env vars locally.

The JWT key and the MongoDB URI are read here; the secrets of a domain package's own settings (the card
processor's credentials, the identity provider's client secret, the webhook signing key) are read by
its settings module with the functions below (`configured`, `required`, `or_local_default`)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import time
from typing import Any, NamedTuple

from core.errors import Unavailable
from core.settings import LOCAL_JWT_SECRET, get_settings

SECRET_MAX_AGE_SECONDS = 300
# A token naming a key this instance does not know makes it read the key again, at most this often: right
# after a rotation, instances still holding the old key meet tokens signed with the new one.
KEY_REFRESH_INTERVAL_SECONDS = 30


class SettingMissing(RuntimeError):
    """A setting this process needs is not configured; the message names the variables."""


class SecretMissing(SettingMissing):
    """A key or credential this process needs is not configured (its value, or its secret's name)."""


def from_secrets_manager(arn: str, *, force_fetch: bool = False) -> str:
    """The value of a Secrets Manager secret (cached for SECRET_MAX_AGE_SECONDS); Unavailable if empty."""
    # Imported here: boto3 and the parameters utility are only paid for by deployed cold starts.
    from aws_lambda_powertools.utilities import parameters

    value = parameters.get_secret(arn, max_age=SECRET_MAX_AGE_SECONDS, force_fetch=force_fetch)
    if not isinstance(value, str) or not value:
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return value


class SigningKey(NamedTuple):
    """A token signing key and its id, the `kid` of the tokens it signs: derived from the key (so nothing
    is stored beside it) and telling nothing about it."""

    kid: str
    secret: str

    @classmethod
    def of(cls, secret: str) -> SigningKey:
        return cls(kid=_kid_of(secret), secret=secret)


# Derived once per key (the current and the previous one), not for every token signed or verified.
@functools.lru_cache(maxsize=8)
def _kid_of(secret: str) -> str:
    return hmac.new(secret.encode(), b"car-retail/kid", hashlib.sha256).hexdigest()[:16]


def jwt_secret(*, force_fetch: bool = False) -> str:
    """The current signing key. Deployed, Powertools caches it for SECRET_MAX_AGE_SECONDS, so a rotated key
    reaches warm instances within minutes; meanwhile the previous key still verifies (jwt_verification_key)."""
    settings = get_settings()
    return or_local_default(
        configured(settings.jwt_secret, settings.jwt_secret_arn, force_fetch=force_fetch),
        LOCAL_JWT_SECRET,
        "JWT_SECRET or JWT_SECRET_ARN must be set outside the local stage",
    )


def jwt_signing_key() -> SigningKey:
    return SigningKey.of(jwt_secret())


def jwt_verification_key(kid: str | None) -> SigningKey | None:
    """The key that signed a token naming `kid`: the current one or the previous one (Secrets Manager's
    AWSPREVIOUS version; JWT_PREVIOUS_SECRET locally), so a rotation logs no one out. A token without a
    kid (signed before tokens carried one) is checked with the current key. None: no key of ours."""
    current = jwt_signing_key()
    if kid is None or kid == current.kid:
        return current
    previous = _previous_jwt_key()
    if previous is not None and kid == previous.kid:
        return previous
    if time.monotonic() - _jwt_keys.refreshed_at < KEY_REFRESH_INTERVAL_SECONDS:
        return None
    _jwt_keys.refreshed_at = time.monotonic()
    refreshed = SigningKey.of(jwt_secret(force_fetch=True))
    return refreshed if kid == refreshed.kid else None


class _JwtKeyMemo:
    """What this instance remembers of the keys besides Powertools' cache of the current one."""

    def __init__(self) -> None:
        self.refreshed_at = float("-inf")  # when an unknown kid last made it read the current key again
        self.previous: SigningKey | None = None
        self.previous_read_at = float("-inf")
        self.previous_versions: Any = None  # a SecretsProvider of its own: Powertools caches by name only


_jwt_keys = _JwtKeyMemo()


def _previous_jwt_key() -> SigningKey | None:
    settings = get_settings()
    if settings.jwt_secret or not settings.jwt_secret_arn:
        return SigningKey.of(settings.jwt_previous_secret) if settings.jwt_previous_secret else None
    if time.monotonic() - _jwt_keys.previous_read_at < SECRET_MAX_AGE_SECONDS:
        return _jwt_keys.previous
    from aws_lambda_powertools.utilities import parameters

    if _jwt_keys.previous_versions is None:
        _jwt_keys.previous_versions = parameters.SecretsProvider()
    try:
        value = _jwt_keys.previous_versions.get(
            settings.jwt_secret_arn, max_age=SECRET_MAX_AGE_SECONDS, VersionStage="AWSPREVIOUS"
        )
    except parameters.exceptions.GetParameterError:
        value = None  # a secret never rotated has no previous version
    _jwt_keys.previous = SigningKey.of(value) if isinstance(value, str) and value else None
    _jwt_keys.previous_read_at = time.monotonic()
    return _jwt_keys.previous


def keyed_hash(purpose: str, value: str) -> str:
    """HMAC-SHA256 of `value` under a key derived from the JWT key for one purpose (card lookup, OTP).

    Values with few possibilities (a 6-digit code, a card whose mask is known) must only ever be stored
    this way: without the key they cannot be guessed, and each purpose has its own key."""
    return hmac.new(_purpose_key(jwt_secret(), purpose), value.encode(), hashlib.sha256).hexdigest()


def keyed_hashes(purpose: str, value: str) -> tuple[str, ...]:
    """`keyed_hash` under the current key, then under the previous one when there is one (a rotation's
    AWSPREVIOUS; JWT_PREVIOUS_SECRET locally): a hash kept before the key was rotated is still recognized."""
    previous = _previous_jwt_key()
    current = keyed_hash(purpose, value)
    if previous is None:
        return (current,)
    again = hmac.new(_purpose_key(previous.secret, purpose), value.encode(), hashlib.sha256).hexdigest()
    return (current,) if again == current else (current, again)


@functools.lru_cache(maxsize=32)  # a few purposes per key: derived once, not per value hashed
def _purpose_key(secret: str, purpose: str) -> bytes:
    return hmac.new(secret.encode(), f"car-retail/{purpose}".encode(), hashlib.sha256).digest()


def configured(value: str | None, secret_arn: str | None, *, force_fetch: bool = False) -> str | None:
    """A secret given in clear (locally) or by the ARN of its Secrets Manager secret (deployed)."""
    if value:
        return value
    if secret_arn:
        return from_secrets_manager(secret_arn, force_fetch=force_fetch)
    return None


def or_local_default(value: str | None, local_default: str, missing: str) -> str:
    """A configured key, or its development default on a laptop; outside `local`, SecretMissing(missing)."""
    if value is not None:
        return value
    if get_settings().is_local:
        return local_default
    raise SecretMissing(missing)


def required(value: str | None, secret_arn: str | None, missing: str, *, secret: bool = True) -> str:
    """A secret that must be configured, in clear or by its ARN; else SecretMissing (`secret=False`: SettingMissing)."""
    found = configured(value, secret_arn)
    if found is None:
        raise SecretMissing(missing) if secret else SettingMissing(missing)
    return found


def mongodb_uri() -> str:
    settings = get_settings()
    return required(
        settings.mongodb_uri,
        settings.mongodb_uri_secret_id,
        "MONGODB_URI or MONGODB_URI_SECRET_ID must be set",
        secret=False,
    )


def reset_secrets() -> None:
    """Forget cached secret values (tests switch configurations within one process)."""
    global _jwt_keys  # noqa: PLW0603 (a fresh memo, as a fresh process would have)
    from aws_lambda_powertools.utilities import parameters

    parameters.clear_caches()
    _jwt_keys = _JwtKeyMemo()
