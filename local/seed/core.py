"""Core demo data: the demo partners' keys and a demo user."""

from __future__ import annotations

from core import clock
from domain.identity.records import User
from domain.identity.store import insert_user_if_missing
from domain.partners.store import DEMO_KEY, DEMO_OTP_KEY, PartnerLogin, key_registered, register_partner
from local.seed.support import stable_id

DEMO_PARTNER_KEY = DEMO_KEY  # accepted in STAGE=local only (domain.partners.store)
DEMO_PARTNER = "Demo partner"  # `trusted`: its key alone signs a phone in
DEMO_OTP_PARTNER_KEY = DEMO_OTP_KEY  # local only too
DEMO_OTP_PARTNER = "Demo OTP partner"  # `otp`: a login is a code by SMS (the sandbox's is 666666), then the tokens
DEMO_USER_ID = stable_id("user:demo")
DEMO_USER_PHONE = "+998901234567"


def seed() -> int:
    """Register the demo partners' keys and store the demo user if missing; how many users were stored."""
    register_partner(DEMO_PARTNER_KEY, DEMO_PARTNER)
    register_partner(DEMO_OTP_PARTNER_KEY, DEMO_OTP_PARTNER, login=PartnerLogin(policy="otp", assertionKey=None))
    now = clock.now()
    user = User(
        _id=DEMO_USER_ID,
        phone=DEMO_USER_PHONE,
        firstName="Aziz",
        lastName="Karimov",
        balance=0,
        verified=False,
        createdAt=now,
        updatedAt=now,
    )
    return int(insert_user_if_missing(user))


def seeded_here() -> bool:
    """Whether this seed loaded the database: it registers the demo partner before the demo data file,
    which an operator's import of the same file never does."""
    return key_registered(DEMO_PARTNER_KEY)
