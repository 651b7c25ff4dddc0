"""Secrets from Secrets Manager (moto), and the database being unreachable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.invoke import invoke
from tests.databases import reset_process_state
from tests.factories import api_event


def test_deployed_functions_read_the_jwt_key_and_mongo_uri_from_secrets_manager(
    secretsmanager: Any, mongo_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a deployed stage whose secrets live in Secrets Manager, not in the environment
    jwt_arn = secretsmanager.create_secret(Name="car-retail/dev/jwt", SecretString="k" * 64)["ARN"]
    secretsmanager.create_secret(Name="car-retail/dev/mongodb-uri", SecretString=mongo_uri)
    monkeypatch.setenv("STAGE", "dev")
    monkeypatch.setenv("ASSETS_BASE_URL", "https://assets.dev.example.uz")  # the template passes it
    monkeypatch.delenv("JWT_SECRET")
    monkeypatch.delenv("MONGODB_URI", raising=False)
    monkeypatch.setenv("JWT_SECRET_ARN", jwt_arn)
    monkeypatch.setenv("MONGODB_URI_SECRET_ID", "car-retail/dev/mongodb-uri")  # by name, as the template
    monkeypatch.setenv("MONGODB_DB", "secrets_test")
    reset_process_state()
    from core import secrets
    from data.mongo import get_client
    from domain.identity import tokens
    from domain.partners.store import register_partner

    try:
        register_partner("dev-partner-key", "Dev partner")  # the demo key opens nothing outside local
        # When a user signs in
        login = api_event(
            "POST", "/api/v1/auth/login", body={"phone": "+998901112233"}, headers={"client": "dev-partner-key"}
        )
        result = invoke("Auth", login)
        # Then the tokens are signed with the key from Secrets Manager
        assert result["statusCode"] == 201
        assert secrets.jwt_secret() == "k" * 64
        assert tokens.verify(json.loads(result["body"])["data"]["accessToken"], "access").sub
    finally:
        get_client().drop_database("secrets_test")
        reset_process_state()


def test_outside_local_a_missing_jwt_key_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAGE", "prod")
    monkeypatch.delenv("JWT_SECRET")
    reset_process_state()
    from core import secrets

    try:
        with pytest.raises(RuntimeError, match="JWT_SECRET"):
            secrets.jwt_secret()
    finally:
        reset_process_state()


def test_an_unreachable_database_is_503_with_a_generic_message(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a database address where nothing listens
    monkeypatch.setenv("MONGODB_URI", "mongodb://127.0.0.1:9/?directConnection=true")
    monkeypatch.setenv("MONGODB_SERVER_SELECTION_TIMEOUT_MS", "200")
    reset_process_state()
    try:
        # When a request needs it
        result = invoke("Auth", api_event("POST", "/api/v1/auth/login", body={"phone": "+998901112233"}))
    finally:
        reset_process_state()
    # Then the caller gets a 503 in the envelope, without internals
    assert result["statusCode"] == 503
    body = json.loads(result["body"])
    assert body["message"] == "Service temporarily unavailable, try again later"
    assert "127.0.0.1" not in result["body"]
