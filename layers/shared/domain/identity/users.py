"""Users: signing in by phone or PINFL, and recording a verified identity (the `users` collection is
domain.identity.store's)."""

from __future__ import annotations

from core import clock
from core.errors import Conflict, NotAuthenticated
from core.secrets import keyed_hash
from data import rate_limit
from domain.identity import store
from domain.identity.provider import VerifiedPerson
from domain.identity.records import LoginChanges, User, Verification
from domain.identity.settings import get_identity_settings


def get_user(user_id: str) -> User:
    """The signed-in user; an access token outlives a deleted account, which is then not authenticated."""
    user = store.find_user(user_id)
    if user is None:
        raise NotAuthenticated("USER_NOT_FOUND")
    return user


def sign_in(
    *, phone: str | None, pin: str | None, first_name: str | None, last_name: str | None, source_ip: str, partner: str
) -> User:
    """The person a login names, found by pin and/or phone and updated, or created. One atomic write.

    A login adds an identifier the account lacks; it never replaces one (409), and it never renames a
    verified person, whose names come from the identity provider."""
    limit_logins(phone=phone, pin=pin, source_ip=source_ip, partner=partner)
    by_pin = store.find_user_by_pin(pin) if pin else None
    by_phone = store.find_user_by_phone(phone) if phone else None
    if by_pin and by_phone and by_pin["_id"] != by_phone["_id"]:
        raise Conflict("PHONE_AND_PIN_OF_DIFFERENT_USERS")
    existing = by_pin or by_phone
    changes = LoginChanges(updatedAt=clock.now())
    if phone is not None:
        changes["phone"] = phone
    if pin is not None:
        changes["pin"] = pin
    names_fixed = existing is not None and existing.get("verified", False)
    if first_name is not None and not names_fixed:
        changes["firstName"] = first_name
    if last_name is not None and not names_fixed:
        changes["lastName"] = last_name
    if existing is None:
        return store.create_user_on_login(changes)
    user = store.update_user_on_login(existing["_id"], changes)
    if user is None:
        raise Conflict("ACCOUNT_IDENTIFIER_FIXED")
    return user


def limit_logins(*, phone: str | None, pin: str | None, source_ip: str, partner: str) -> None:
    """Count the login against what its caller cannot choose freely: the person it signs in (phone,
    PINFL), the network address it comes from (API Gateway's source IP), and the partner's budget.
    The fingerprint header is the caller's to choose, so a limit on it limits nothing."""
    settings = get_identity_settings()
    window = settings.login_rate_window_seconds
    for kind, value in (("phone", phone), ("pin", pin)):
        if value is not None:
            rate_limit.hit(
                f"login:{kind}:{keyed_hash('login-rate-limit', value)}",
                limit=settings.login_rate_limit,
                window_seconds=window,
                error_code="TOO_MANY_LOGINS_FOR_PERSON",
            )
    rate_limit.hit(
        f"login:ip:{source_ip}",
        limit=settings.login_ip_rate_limit,
        window_seconds=window,
        error_code="TOO_MANY_LOGINS_FROM_ADDRESS",
    )
    rate_limit.hit(
        f"login:partner:{keyed_hash('login-rate-limit', partner)}",
        limit=settings.login_partner_rate_limit,
        window_seconds=window,
        error_code="TOO_MANY_LOGINS_FOR_PARTNER",
    )


def apply_verification(user_id: str, person: VerifiedPerson) -> User:
    """Record a verified person on the user: one conditional write that changes nothing when it fails.

    The account may already carry a PINFL (a login by pin); then it must be the verified person's.
    """
    now = clock.now()
    user = store.record_verification(
        user_id,
        Verification(
            pin=person.pin,
            firstName=person.first_name,
            lastName=person.last_name,
            middleName=person.middle_name,
            birthDate=person.birth_date.isoformat() if person.birth_date else None,
            verified=True,
            verifiedAt=now,
            updatedAt=now,
        ),
    )
    if user is not None:
        return user
    get_user(user_id)  # a user deleted meanwhile is not authenticated
    raise Conflict("VERIFIED_PINFL_DIFFERS")
