"""Identity verification: the caller redeems an identity provider's authorization code once, and the
person it vouches for is recorded on their account; with MyID, the app first starts MyID's SDK with a
session this service opens under its own MyID registration (`start_sdk_session`). Both run within the
request's budget for partner calls (core.deadline)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from aws_lambda_powertools.metrics import MetricUnit

from core import deadline
from core.errors import Conflict, Unavailable
from core.observability import logger, metrics
from core.settings import get_settings
from data import rate_limit
from domain.identity import codes, users
from domain.identity.provider import IdentityProvider, SdkSession, VerifiedPerson, mask_pin
from domain.identity.records import User
from domain.identity.sandbox import SandboxIdentityProvider
from domain.identity.settings import get_identity_settings


def get_provider() -> IdentityProvider:
    """The configured adapter (`IDENTITY_PROVIDER`): MyID, OneID, or else the sandbox."""
    settings = get_identity_settings()
    # Each real adapter is imported only where it is configured: the sandbox path pays for neither.
    if settings.identity_provider == "myid":
        from domain.identity.myid import MyIdProvider

        return MyIdProvider.from_settings(settings)
    if settings.identity_provider == "oneid":
        from domain.identity.oneid import OneIdProvider

        return OneIdProvider.from_settings(settings)
    if get_settings().stage == "prod":
        # The sandbox verifies anyone who knows its codes: it must never unlock real purchase limits.
        logger.error("the sandbox identity provider is refused in prod; set IDENTITY_PROVIDER=myid or oneid")
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return SandboxIdentityProvider()


@runtime_checkable
class SdkSessions(Protocol):
    """A provider whose SDK the partner app starts with a session from us (MyID, and the sandbox)."""

    def start_session(self) -> SdkSession: ...


@deadline.within_request_budget
def start_sdk_session(user_id: str) -> SdkSession:
    """A session for the app to start the provider's SDK with (409 when the stage's provider has none)."""
    provider = get_provider()
    if not isinstance(provider, SdkSessions):
        raise Conflict("IDENTITY_SDK_NOT_OFFERED")
    settings = get_identity_settings()
    rate_limit.hit(
        f"identity-session:user:{user_id}",
        limit=settings.myid_session_rate_limit,
        window_seconds=settings.myid_session_rate_window_seconds,
        error_code="TOO_MANY_IDENTITY_SESSIONS",
    )
    session = provider.start_session()
    logger.info("identity SDK session started", extra={"userId": user_id})
    return session


@deadline.within_request_budget
def verify_identity(user_id: str, code: str, *, redirect_uri: str | None = None) -> tuple[User, VerifiedPerson]:
    """Verify the user through the identity provider; on any failure the user and the code are untouched.
    `redirect_uri`: the one OneID issued the code for, when the partner app has its own."""
    provider = get_provider()  # a configuration error surfaces before the code is claimed
    claim = codes.claim(code, user_id)
    try:
        person = provider.verify(code, redirect_uri=redirect_uri)
        user = users.apply_verification(user_id, person)
    except Exception:
        codes.release(claim)
        raise
    codes.mark_used(claim)
    metrics.add_metric(name="IdentityVerifications", unit=MetricUnit.Count, value=1)
    logger.info("identity verified", extra={"userId": user_id, "pin": mask_pin(person.pin)})
    return user, person
