"""Auth: calls domain.identity with what the request carries and builds the response models."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit

from auth.models import IdentitySession, LoginBody, LoginCodeSent, Profile, Tokens, VerifiedProfile
from core.observability import metrics
from domain.identity import logins, sessions, users, verification
from domain.identity.login_codes import SentLoginCode
from domain.identity.provider import mask_pin
from domain.identity.records import User
from domain.identity.sessions import TokenPair
from domain.identity.settings import get_identity_settings


def _tokens(pair: TokenPair) -> Tokens:
    return Tokens(accessToken=pair.access_token, refreshToken=pair.refresh_token)


def login(body: LoginBody, *, source_ip: str, partner: str, fingerprint: str, language: str) -> Tokens | LoginCodeSent:
    """The tokens of the person logged in, or (an `otp` partner's login without a code) the code sent."""
    outcome = logins.login(
        phone=body.phone,
        pin=body.pin,
        first_name=body.firstName,
        last_name=body.lastName,
        assertion=body.assertion,
        otp=body.otp,
        partner=partner,
        source_ip=source_ip,
        device=fingerprint,
        language=language,
    )
    if isinstance(outcome, SentLoginCode):
        return LoginCodeSent(codeSent=True, expiresAt=outcome.expires_at, resendAt=outcome.resend_at)
    metrics.add_metric(name="Logins", unit=MetricUnit.Count, value=1)
    return _tokens(sessions.issue_pair(str(outcome["_id"]), partner=partner))


def refresh(refresh_token: str, *, partner: str, fingerprint: str) -> Tokens:
    client = sessions.refresh_client(partner, fingerprint)
    return _tokens(sessions.rotate(refresh_token, client=client, partner=partner))


def profile(user_id: str) -> Profile:
    return Profile(**_profile_fields(users.get_user(user_id)))


def _profile_fields(user: User) -> dict[str, object]:
    return {
        "_id": user["_id"],
        "firstName": user.get("firstName", ""),
        "lastName": user.get("lastName", ""),
        "phone": user.get("phone"),
        "balance": user.get("balance", 0),
        "verified": bool(user.get("verified", False)),
    }


def start_identity_session(user_id: str) -> IdentitySession:
    session = verification.start_sdk_session(user_id)
    return IdentitySession(
        sessionId=session.session_id,
        clientHash=session.client_hash,
        clientHashId=session.client_hash_id,
        expiresIn=session.expires_in,
    )


def verify_identity(user_id: str, code: str, redirect_uri: str | None = None) -> VerifiedProfile:
    """Verify the caller through the identity provider; on any failure the user and the code are untouched."""
    user, person = verification.verify_identity(user_id, code, redirect_uri=redirect_uri)
    return VerifiedProfile.model_validate(
        {
            **_profile_fields(user),
            "middleName": user.get("middleName"),
            "pin": mask_pin(person.pin),
            "birthDate": user.get("birthDate"),
            "verifiedAt": user.get("verifiedAt"),
            "limit": get_identity_settings().verified_purchase_limit,
        }
    )
