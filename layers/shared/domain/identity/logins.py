"""`POST /api/v1/auth/login` by the partner's login policy (`domain.partners.login`):

- `trusted`: the partner's key vouches for the phone; a PINFL is a claim (`users.login_user`);
- `assertion`: the partner's signed assertion vouches for the phone and/or PINFL (`assertions`);
- `otp`: without `otp` a code is sent to the phone (`SentLoginCode`, answered 202); with it, the code proves
  the phone (`login_codes`).

Every login, whatever its policy, counts against the limits of `users.limit_logins` first; an `otp`
answer then against the phone's guess budgets (`login_codes.check_code`).
"""

from __future__ import annotations

from core.errors import InvalidInput, NotAuthenticated
from domain.identity import assertions, login_codes, users
from domain.identity.login_codes import SentLoginCode
from domain.identity.records import User
from domain.partners.login import login_of, policy_of


def login(
    *,
    phone: str | None,
    pin: str | None,
    first_name: str | None,
    last_name: str | None,
    assertion: str | None,
    otp: str | None,
    partner: str,
    source_ip: str,
    device: str,
    language: str,
) -> User | SentLoginCode:
    """The signed-in user, or, for an `otp` partner's login without a code, the code sent (its SMS in
    `language`, the caller's locale)."""
    users.limit_logins(phone=phone, pin=pin, source_ip=source_ip, device=device, partner=partner)
    login = login_of(partner)
    policy = policy_of(login)
    pin_vouched = False
    if policy == "assertion":
        if assertion is None:
            raise NotAuthenticated("ASSERTION_REQUIRED")
        vouched = assertions.check(assertion, login, partner=partner, phone=phone, pin=pin)
        pin_vouched = vouched.pin is not None
    elif policy == "otp":
        if phone is None:
            raise InvalidInput.field("phone", "PHONE_REQUIRED_FOR_CODE")
        if otp is None:
            return login_codes.send_code(phone, language=language)
        login_codes.check_code(phone, otp, source_ip=source_ip)
    return users.login_user(phone=phone, pin=pin, first_name=first_name, last_name=last_name, pin_vouched=pin_vouched)
