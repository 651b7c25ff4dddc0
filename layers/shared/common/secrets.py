"""Secrets: Secrets Manager (cached by Powertools `parameters`) when deployed, env vars locally."""

from __future__ import annotations

from functools import lru_cache

from common.errors import ServiceUnavailable
from common.settings import LOCAL_JWT_SECRET, get_settings

SECRET_MAX_AGE_SECONDS = 300


def _from_secrets_manager(arn: str) -> str:
    # Imported here: boto3 and the parameters utility are only paid for by deployed cold starts.
    from aws_lambda_powertools.utilities import parameters

    value = parameters.get_secret(arn, max_age=SECRET_MAX_AGE_SECONDS)
    if not isinstance(value, str) or not value:
        raise ServiceUnavailable("Configuration secret is empty")
    return value


@lru_cache(maxsize=1)
def jwt_secret() -> str:
    settings = get_settings()
    if settings.jwt_secret:
        return settings.jwt_secret
    if settings.jwt_secret_arn:
        return _from_secrets_manager(settings.jwt_secret_arn)
    if settings.is_local:
        return LOCAL_JWT_SECRET
    raise RuntimeError("JWT_SECRET or JWT_SECRET_ARN must be set outside the local stage")


def mongodb_uri() -> str:
    settings = get_settings()
    if settings.mongodb_uri:
        return settings.mongodb_uri
    if settings.mongodb_uri_secret_arn:
        return _from_secrets_manager(settings.mongodb_uri_secret_arn)
    raise RuntimeError("MONGODB_URI or MONGODB_URI_SECRET_ARN must be set")


def oneid_client_secret() -> str:
    settings = get_settings()
    if settings.oneid_client_secret:
        return settings.oneid_client_secret
    if settings.oneid_client_secret_arn:
        return _from_secrets_manager(settings.oneid_client_secret_arn)
    raise RuntimeError("ONEID_CLIENT_SECRET or ONEID_CLIENT_SECRET_ARN must be set when IDENTITY_PROVIDER=http")


def reset_secrets() -> None:
    jwt_secret.cache_clear()
