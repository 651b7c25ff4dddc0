"""Auth logic: login, token refresh, the caller's profile, identity verification."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit

from auth import identity, identity_codes, users
from auth.models import LoginBody, Profile, Tokens, VerifiedProfile
from common import rate_limit, tokens
from common.errors import Unauthorized
from common.observability import logger, metrics
from common.settings import get_settings
from common.tokens import TokenPair


def _tokens(pair: TokenPair) -> Tokens:
    return Tokens(accessToken=pair.access_token, refreshToken=pair.refresh_token)


def login(body: LoginBody, *, fingerprint: str) -> Tokens:
    settings = get_settings()
    rate_limit.hit(
        f"login:{fingerprint}",
        limit=settings.login_rate_limit,
        window_seconds=settings.login_rate_window_seconds,
        message="Too many login attempts from this device, try again later",
    )
    user = users.upsert_from_login(phone=body.phone, pin=body.pin, first_name=body.firstName, last_name=body.lastName)
    metrics.add_metric(name="Logins", unit=MetricUnit.Count, value=1)
    return _tokens(tokens.issue_pair(str(user["_id"])))


def refresh(refresh_token: str) -> Tokens:
    claims = tokens.verify(refresh_token, "refresh")
    if users.find_by_id(claims.sub) is None:
        raise Unauthorized("User not found")
    family = tokens.consume_refresh(claims)
    return _tokens(tokens.issue_pair(claims.sub, family=family))


def profile(user_id: str) -> Profile:
    user = users.find_by_id(user_id)
    if user is None:
        raise Unauthorized("User not found")
    return Profile(**_profile_fields(user))


def _profile_fields(user: users.User) -> dict[str, object]:
    return {
        "_id": user["_id"],
        "firstName": user.get("firstName", ""),
        "lastName": user.get("lastName", ""),
        "phone": user.get("phone"),
        "balance": user.get("balance", 0),
        "verified": bool(user.get("verified", False)),
    }


def verify_identity(user_id: str, code: str) -> VerifiedProfile:
    """Verify the caller through the identity provider; on any failure the user and the code are untouched."""
    provider = identity.get_provider()  # a configuration error surfaces before the code is claimed
    claim = identity_codes.claim(code, user_id)
    try:
        person = provider.verify(code)
        user = users.apply_verification(user_id, person)
    except Exception:
        identity_codes.release(claim)
        raise
    identity_codes.mark_used(claim)
    metrics.add_metric(name="IdentityVerifications", unit=MetricUnit.Count, value=1)
    logger.info("identity verified", extra={"userId": user_id, "pin": identity.mask_pin(person.pin)})
    return VerifiedProfile.model_validate(
        {
            **_profile_fields(user),
            "middleName": user.get("middleName"),
            "pin": identity.mask_pin(person.pin),
            "birthDate": user.get("birthDate"),
            "verifiedAt": user.get("verifiedAt"),
            "limit": get_settings().verified_purchase_limit,
        }
    )
