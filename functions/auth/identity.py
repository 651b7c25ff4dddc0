"""The identity-provider port: turn an OAuth2 authorization code into a verified person.

Two adapters: `SandboxIdentityProvider` (the local default, below) and the OneID HTTP adapter
(`auth.oneid`, imported only when `IDENTITY_PROVIDER=http`, so the sandbox path pays nothing for it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from core.errors import InvalidInput, Unavailable
from core.observability import logger
from core.settings import get_settings
from edge.validation import pinfl_check_digit


@dataclass(frozen=True)
class VerifiedPerson:
    """What the provider vouches for. The identity document is read but never stored."""

    pin: str
    first_name: str
    last_name: str
    middle_name: str | None = None
    birth_date: date | None = None
    document: str | None = None


def mask_pin(pin: str) -> str:
    """A PINFL as the API shows and logs it: only the last 4 digits, e.g. **********1234."""
    return "*" * (len(pin) - 4) + pin[-4:]


class CodeRejected(InvalidInput):
    """The provider refused the code (unknown, expired, already redeemed) or did not confirm the person."""

    default_message = "The identity provider rejected the authorization code: it is invalid or expired"


class ProviderUnavailable(Unavailable):
    """The provider is down, slow or answered nonsense; the caller may retry with the same code."""

    default_message = "The identity provider is unavailable, try again later"


class IdentityProvider(Protocol):
    def verify(self, code: str) -> VerifiedPerson:
        """The person behind `code`; raises CodeRejected (400) or ProviderUnavailable (503)."""
        ...


# Sandbox codes (documented in README and docs/DECISIONS.md):
#   sandbox-verified                 person 1
#   sandbox-verified-<n>             person n (1..99999): another verified person per number
#   sandbox-verified-<n>-<anything>  person n again, under a code not used before
#   sandbox-rejected...              400, as a provider refusing an invalid or expired code
#   sandbox-outage...                503, as a provider that is down
#   anything else                    400, a code the provider does not know
SANDBOX_VERIFIED = re.compile(r"^sandbox-verified(?:-(?P<n>[1-9]\d{0,4})(?:-.+)?)?$")
SANDBOX_FIRST_NAMES = ("Aziz", "Dilnoza", "Sardor", "Malika", "Jasur", "Nilufar", "Bekzod", "Shahnoza")
SANDBOX_LAST_NAMES = ("Karimov", "Rahimova", "Toshmatov", "Yusupova", "Aliyev", "Saidova", "Ergashev", "Qodirova")
SANDBOX_MIDDLE_NAMES = ("Anvarovich", "Bahodirovna", "Rustamovich", "Olimovna")


def sandbox_person(number: int) -> VerifiedPerson:
    """The sandbox's person `number`: a stable name, birth date and a PINFL with a valid check digit."""
    first13 = f"30101990{number:05d}"
    index = number - 1
    return VerifiedPerson(
        pin=first13 + pinfl_check_digit(first13),
        first_name=SANDBOX_FIRST_NAMES[index % len(SANDBOX_FIRST_NAMES)],
        last_name=SANDBOX_LAST_NAMES[index % len(SANDBOX_LAST_NAMES)],
        middle_name=SANDBOX_MIDDLE_NAMES[index % len(SANDBOX_MIDDLE_NAMES)],
        birth_date=date(1990, 1 + index % 12, 1 + index % 28),
        document=f"AA{number:07d}",
    )


class SandboxIdentityProvider:
    """Behaves like a provider's sandbox: fixed codes give fixed outcomes, nothing leaves the process."""

    def verify(self, code: str) -> VerifiedPerson:
        if code.startswith("sandbox-outage"):
            raise ProviderUnavailable()
        match = SANDBOX_VERIFIED.match(code)
        if match is None:
            raise CodeRejected()
        return sandbox_person(int(match["n"] or 1))


def get_provider() -> IdentityProvider:
    settings = get_settings()
    if settings.identity_provider == "http":
        from auth.oneid import OneIdProvider  # only the deployed HTTP path pays for it

        return OneIdProvider.from_settings(settings)
    if settings.stage == "prod":
        # The sandbox verifies anyone who knows its codes: it must never unlock real purchase limits.
        logger.error("the sandbox identity provider is refused in prod; set IDENTITY_PROVIDER=http")
        raise Unavailable("Identity verification is not configured")
    return SandboxIdentityProvider()
