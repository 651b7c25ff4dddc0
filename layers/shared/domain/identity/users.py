"""Users: the user a login names (by phone or PINFL), and recording a verified identity (the `users`
collection is domain.identity.store's)."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit, single_metric

from core import clock
from core.errors import Conflict, NotAuthenticated
from core.observability import metrics
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


def login_user(
    *,
    phone: str | None,
    pin: str | None,
    first_name: str | None,
    last_name: str | None,
    pin_vouched: bool = False,
) -> User:
    """The person a login names, found by pin and/or phone and updated, or created. One atomic write.

    A login adds an identifier the account lacks; it never replaces one (409), and it never renames a
    verified person, whose names come from the identity provider. A PINFL nobody vouched for (no
    partner's assertion carried it) is a claim: it never logs in to a verified account unless the
    login's phone is that account's (409 `PINFL_NEEDS_ACCOUNT_PHONE`)."""
    by_pin = store.find_user_by_pin(pin) if pin else None
    by_phone = store.find_user_by_phone(phone) if phone else None
    if by_pin and by_phone and by_pin["_id"] != by_phone["_id"]:
        raise Conflict("PHONE_AND_PIN_OF_DIFFERENT_USERS")
    if by_pin and by_pin.get("verified", False) and not pin_vouched and by_phone is None:
        raise Conflict("PINFL_NEEDS_ACCOUNT_PHONE")
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


def limit_logins(*, phone: str | None, pin: str | None, source_ip: str, device: str, partner: str) -> None:
    """Count the login against the network address it comes from (API Gateway's source IP), then the
    device (the fingerprint header), then the person it logs in (phone, PINFL) at that address. A request
    refused by one limit counts against none after it, and the person's limit is theirs at one address:
    a stranger hammering a person's phone from elsewhere spends only their own address's and device's
    limits, never the person's. None is shared by a partner's users, so nobody can exhaust it for
    everyone else. The partner's rate is a metric, `LoginsByPartner`, which an alarm watches
    (template.yaml), never a refusal."""
    settings = get_identity_settings()
    window = settings.login_rate_window_seconds
    rate_limit.hit(
        f"login:ip:{source_ip}",
        limit=settings.login_ip_rate_limit,
        window_seconds=window,
        error_code="TOO_MANY_LOGINS_FROM_ADDRESS",
    )
    rate_limit.hit(
        f"login:device:{keyed_hash('login-rate-limit', device)}",
        limit=settings.login_device_rate_limit,
        window_seconds=window,
        error_code="TOO_MANY_LOGINS_FROM_DEVICE",
    )
    for kind, value in (("phone", phone), ("pin", pin)):
        if value is not None:
            rate_limit.hit(
                f"login:{kind}:{keyed_hash('login-rate-limit', f'{value}\n{source_ip}')}",
                limit=settings.login_rate_limit,
                window_seconds=window,
                error_code="TOO_MANY_LOGINS_FOR_PERSON",
            )
    with single_metric(
        name="LoginsByPartner",
        unit=MetricUnit.Count,
        value=1,
        namespace=metrics.namespace,
        default_dimensions=metrics.default_dimensions,
    ) as metric:
        metric.add_dimension(name="partner", value=partner[:250] or "-")


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
