"""Secrets: Secrets Manager (cached by Powertools `parameters`) when deployed, env vars locally."""

from __future__ import annotations

import hashlib
import hmac
import json

from core.errors import Unavailable
from core.settings import LOCAL_JWT_SECRET, LOCAL_WEBHOOK_SIGNING_KEY, get_settings

SECRET_MAX_AGE_SECONDS = 300


def _from_secrets_manager(arn: str) -> str:
    # Imported here: boto3 and the parameters utility are only paid for by deployed cold starts.
    from aws_lambda_powertools.utilities import parameters

    value = parameters.get_secret(arn, max_age=SECRET_MAX_AGE_SECONDS)
    if not isinstance(value, str) or not value:
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return value


def jwt_secret() -> str:
    """The signing key. Deployed, Powertools caches it for SECRET_MAX_AGE_SECONDS, so a rotated key reaches
    warm instances within minutes (tokens signed with the old key are then refused: users sign in again)."""
    settings = get_settings()
    return _or_local_default(
        _configured(settings.jwt_secret, settings.jwt_secret_arn),
        LOCAL_JWT_SECRET,
        "JWT_SECRET or JWT_SECRET_ARN must be set outside the local stage",
    )


def webhook_signing_key() -> str:
    """The key every partner's webhook signing secret is derived from (`domain.partners.webhooks`).
    Deployed it is a secret of its own (the template generates it): rotating it changes every partner's
    secret, so it is rotated only after a compromise, with every partner told its new secret."""
    settings = get_settings()
    return _or_local_default(
        _configured(settings.webhook_signing_key, settings.webhook_signing_key_arn),
        LOCAL_WEBHOOK_SIGNING_KEY,
        "WEBHOOK_SIGNING_KEY or WEBHOOK_SIGNING_KEY_ARN must be set outside the local stage",
    )


def keyed_hash(purpose: str, value: str) -> str:
    """HMAC-SHA256 of `value` under a key derived from the JWT key for one purpose (card lookup, OTP).

    Values with few possibilities (a 6-digit code, a card whose mask is known) must only ever be stored
    this way: without the key they cannot be guessed, and each purpose has its own key."""
    key = hmac.new(jwt_secret().encode(), f"car-retail/{purpose}".encode(), hashlib.sha256).digest()
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def card_processor_credentials(*names: str) -> dict[str, str]:
    """The card processor's credentials by their setting names (`ATMOS_CONSUMER_KEY`, ...): the env vars
    locally, the same keys of the JSON secret PAYMENT_PROCESSOR_SECRET_ID names deployed."""
    settings = get_settings()
    configured = {name: getattr(settings, name.lower()) for name in names}
    if all(configured.values()):
        return configured
    if settings.payment_processor_secret_id:
        try:
            secret = json.loads(_from_secrets_manager(settings.payment_processor_secret_id))
            return {name: str(secret[name]) for name in names}
        except (ValueError, KeyError, TypeError) as exc:
            raise Unavailable("SERVICE_NOT_CONFIGURED") from exc
    raise Unavailable("SERVICE_NOT_CONFIGURED")


def _configured(value: str | None, secret_arn: str | None) -> str | None:
    """A secret given in clear (locally) or by the ARN of its Secrets Manager secret (deployed)."""
    if value:
        return value
    if secret_arn:
        return _from_secrets_manager(secret_arn)
    return None


def _or_local_default(configured: str | None, local_default: str, missing: str) -> str:
    """A configured key, or its development default on a laptop; outside `local`, RuntimeError(missing)."""
    if configured is not None:
        return configured
    if get_settings().is_local:
        return local_default
    raise RuntimeError(missing)


def _required(value: str | None, secret_arn: str | None, missing: str) -> str:
    configured = _configured(value, secret_arn)
    if configured is None:
        raise RuntimeError(missing)
    return configured


def mongodb_uri() -> str:
    settings = get_settings()
    return _required(
        settings.mongodb_uri, settings.mongodb_uri_secret_arn, "MONGODB_URI or MONGODB_URI_SECRET_ARN must be set"
    )


def identity_client_secret() -> str:
    """The client secret of the identity provider the stage uses (MyID or OneID)."""
    settings = get_settings()
    return _required(
        settings.identity_client_secret,
        settings.identity_client_secret_arn,
        "IDENTITY_CLIENT_SECRET or IDENTITY_CLIENT_SECRET_ARN must be set when IDENTITY_PROVIDER is myid or oneid",
    )


def reset_secrets() -> None:
    """Forget cached secret values (tests switch configurations within one process)."""
    from aws_lambda_powertools.utilities import parameters

    parameters.clear_caches()
