"""Rotating the token signing key logs no one out: tokens name their key (`kid`), the service signs with
the current key and verifies with the current and the previous one (Secrets Manager's AWSPREVIOUS)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jwt
import pytest

from core.clock import FrozenClock
from core.errors import NotAuthenticated
from core.secrets import SigningKey
from tests.databases import reset_process_state

USER_ID = "65a000000000000000000001"
OLD_KEY = "o" * 64
NEW_KEY = "n" * 64
NEWER_KEY = "w" * 64


@pytest.fixture
def fresh_instance() -> Iterator[None]:
    reset_process_state()
    yield
    reset_process_state()


def _access_token() -> str:
    from domain.identity import sessions

    return sessions.issue_pair(USER_ID).access_token


def _verify(token: str) -> str:
    from domain.identity import tokens

    return tokens.verify(token, "access").sub


def test_tokens_name_the_current_key_and_survive_one_rotation(
    db: Any, monkeypatch: pytest.MonkeyPatch, fresh_instance: None
) -> None:
    # Given a token signed before the rotation
    monkeypatch.setenv("JWT_SECRET", OLD_KEY)
    reset_process_state()
    old_token = _access_token()
    assert jwt.get_unverified_header(old_token)["kid"] == SigningKey.of(OLD_KEY).kid
    # When the key is rotated (the old one kept as the previous key)
    monkeypatch.setenv("JWT_SECRET", NEW_KEY)
    monkeypatch.setenv("JWT_PREVIOUS_SECRET", OLD_KEY)
    reset_process_state()
    # Then the old token still verifies, and new tokens are signed with the new key
    assert _verify(old_token) == USER_ID
    new_token = _access_token()
    assert jwt.get_unverified_header(new_token)["kid"] == SigningKey.of(NEW_KEY).kid
    jwt.decode(new_token, NEW_KEY, algorithms=["HS256"], options={"verify_signature": True, "verify_exp": False})
    # And after a second rotation the oldest key is gone: its tokens are refused
    monkeypatch.setenv("JWT_SECRET", NEWER_KEY)
    monkeypatch.setenv("JWT_PREVIOUS_SECRET", NEW_KEY)
    reset_process_state()
    assert _verify(new_token) == USER_ID
    with pytest.raises(NotAuthenticated):
        _verify(old_token)


def test_a_kid_of_no_key_of_ours_and_a_forged_signature_are_refused(
    db: Any, monkeypatch: pytest.MonkeyPatch, fresh_instance: None
) -> None:
    from core.settings import get_settings

    token = _access_token()
    claims = jwt.decode(token, options={"verify_signature": False})
    # A token naming an unknown key, and one naming our key but signed with another
    unknown = jwt.encode(claims, "x" * 64, algorithm="HS256", headers={"kid": "0123456789abcdef"})
    ours = SigningKey.of(get_settings().jwt_secret or "").kid
    forged = jwt.encode(claims, "x" * 64, algorithm="HS256", headers={"kid": ours})
    for bad in (unknown, forged):
        with pytest.raises(NotAuthenticated):
            _verify(bad)


@pytest.fixture
def deployed_key(db: Any, secretsmanager: Any, monkeypatch: pytest.MonkeyPatch, fresh_instance: None) -> str:
    """A deployed instance whose signing key (OLD_KEY) lives in Secrets Manager: the secret's ARN."""
    arn: str = secretsmanager.create_secret(Name="car-retail/dev/jwt", SecretString=OLD_KEY)["ARN"]
    monkeypatch.delenv("JWT_SECRET")
    monkeypatch.setenv("JWT_SECRET_ARN", arn)
    reset_process_state()
    return arn


def test_deployed_the_previous_secret_version_verifies_and_a_fresh_key_is_read_when_a_token_names_it(
    deployed_key: str, secretsmanager: Any
) -> None:
    # Given a token a deployed instance signed
    old_token = _access_token()
    # When an operator rotates the secret (put-secret-value: the old value becomes AWSPREVIOUS)
    secretsmanager.put_secret_value(SecretId=deployed_key, SecretString=NEW_KEY)
    # Then this warm instance, still caching the old key, accepts a token another instance signed with the new one
    claims = jwt.decode(old_token, options={"verify_signature": False})
    new_token = jwt.encode(claims, NEW_KEY, algorithm="HS256", headers={"kid": SigningKey.of(NEW_KEY).kid})
    assert _verify(new_token) == USER_ID
    # And a new instance (current: the new key) still accepts the token signed before the rotation
    reset_process_state()
    assert _verify(old_token) == USER_ID
    assert jwt.get_unverified_header(_access_token())["kid"] == SigningKey.of(NEW_KEY).kid


def test_deployed_a_never_rotated_secret_has_no_previous_key(deployed_key: str) -> None:
    # Given a secret with one version, and a token signed with a key that is not it
    claims = {"sub": USER_ID, "typ": "access", "jti": "1", "iat": 1, "exp": 2**40, "iss": "car-retail-api"}
    stranger = jwt.encode(claims, NEW_KEY, algorithm="HS256", headers={"kid": SigningKey.of(NEW_KEY).kid})
    with pytest.raises(NotAuthenticated):
        _verify(stranger)


def test_a_verified_token_is_trusted_for_a_minute_at_most_and_never_past_its_expiry(
    db: Any, monkeypatch: pytest.MonkeyPatch, fresh_instance: None, frozen_clock: FrozenClock
) -> None:
    # Given a token this instance has verified, signed with a key that is then withdrawn
    monkeypatch.setenv("JWT_SECRET", OLD_KEY)
    reset_process_state()
    from core import clock

    clock.set_clock(frozen_clock)
    token = _access_token()
    assert _verify(token) == USER_ID
    monkeypatch.setenv("JWT_SECRET", NEW_KEY)
    from core.secrets import reset_secrets
    from core.settings import reset_settings

    reset_settings()
    reset_secrets()  # what the instance knows of the keys, not the tokens it verified
    # When it comes again within the minute, it is taken as verified (no signature check per request)
    frozen_clock.advance(seconds=59)
    assert _verify(token) == USER_ID
    # Then after the minute it is checked again, and the withdrawn key refuses it
    frozen_clock.advance(seconds=2)
    with pytest.raises(NotAuthenticated):
        _verify(token)


def test_a_cached_token_expires_with_its_token(db: Any, fresh_instance: None, frozen_clock: FrozenClock) -> None:
    from core.settings import get_settings

    # Given a token verified a few seconds before its expiry
    token = _access_token()
    frozen_clock.advance(seconds=get_settings().access_token_ttl_seconds - 5)
    assert _verify(token) == USER_ID
    # When it is presented after its expiry, within the minute the cache would trust it
    frozen_clock.advance(seconds=10)
    # Then it is refused as expired
    with pytest.raises(NotAuthenticated) as refused:
        _verify(token)
    assert refused.value.code == "TOKEN_EXPIRED"
