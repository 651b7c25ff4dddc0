"""Auth logic: login, token refresh, the caller's profile, identity verification."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit

from auth import identity, identity_codes, users
from auth.models import LoginBody, Profile, Tokens, VerifiedProfile
from core.errors import NotAuthenticated
from core.observability import logger, metrics
from core.secrets import keyed_hash
from core.settings import get_settings
from data import rate_limit
from domain.identity import tokens
from domain.identity.tokens import TokenPair


def _tokens(pair: TokenPair) -> Tokens:
    return Tokens(accessToken=pair.access_token, refreshToken=pair.refresh_token)


def login(body: LoginBody, *, source_ip: str, partner: str) -> Tokens:
    _limit_logins(body, source_ip=source_ip, partner=partner)
    user = users.upsert_from_login(phone=body.phone, pin=body.pin, first_name=body.firstName, last_name=body.lastName)
    metrics.add_metric(name="Logins", unit=MetricUnit.Count, value=1)
    return _tokens(tokens.issue_pair(str(user["_id"])))


def _limit_logins(body: LoginBody, *, source_ip: str, partner: str) -> None:
    """Count the login against what its caller cannot choose freely: the person it signs in (phone,
    PINFL), the network address it comes from (API Gateway's source IP), and the partner's budget.
    The fingerprint header is the caller's to choose, so a limit on it limits nothing."""
    settings = get_settings()
    window = settings.login_rate_window_seconds
    for kind, value in (("phone", body.phone), ("pin", body.pin)):
        if value is not None:
            rate_limit.hit(
                f"login:{kind}:{keyed_hash('login-rate-limit', value)}",
                limit=settings.login_rate_limit,
                window_seconds=window,
                message="Too many login attempts for this person, try again later",
            )
    rate_limit.hit(
        f"login:ip:{source_ip}",
        limit=settings.login_ip_rate_limit,
        window_seconds=window,
        message="Too many login attempts from this network address, try again later",
    )
    rate_limit.hit(
        f"login:partner:{keyed_hash('login-rate-limit', partner)}",
        limit=settings.login_partner_rate_limit,
        window_seconds=window,
        message="Too many login attempts through this partner, try again later",
    )


def refresh(refresh_token: str, *, partner: str, fingerprint: str) -> Tokens:
    claims = tokens.verify(refresh_token, "refresh")
    if users.find_by_id(claims.sub) is None:
        raise NotAuthenticated("User not found")
    family = tokens.consume_refresh(claims, client=tokens.refresh_client(partner, fingerprint))
    return _tokens(tokens.issue_pair(claims.sub, family=family))


def profile(user_id: str) -> Profile:
    user = users.find_by_id(user_id)
    if user is None:
        raise NotAuthenticated("User not found")
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
