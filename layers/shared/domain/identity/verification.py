"""Identity verification: the caller redeems an identity provider's authorization code once, and the
person it vouches for is recorded on their account."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit

from core.errors import Unavailable
from core.observability import logger, metrics
from core.settings import get_settings
from domain.identity import codes, users
from domain.identity.provider import IdentityProvider, VerifiedPerson, mask_pin
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


def verify_identity(user_id: str, code: str) -> tuple[User, VerifiedPerson]:
    """Verify the user through the identity provider; on any failure the user and the code are untouched."""
    provider = get_provider()  # a configuration error surfaces before the code is claimed
    claim = codes.claim(code, user_id)
    try:
        person = provider.verify(code)
        user = users.apply_verification(user_id, person)
    except Exception:
        codes.release(claim)
        raise
    codes.mark_used(claim)
    metrics.add_metric(name="IdentityVerifications", unit=MetricUnit.Count, value=1)
    logger.info("identity verified", extra={"userId": user_id, "pin": mask_pin(person.pin)})
    return user, person
