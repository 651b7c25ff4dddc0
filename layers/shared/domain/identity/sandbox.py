"""The sandbox adapter of the identity-provider port: the local default, refused in prod
(domain.identity.verification.get_provider)."""

from __future__ import annotations

import re
import uuid
from datetime import date

from core.pinfl import pinfl_check_digit
from domain.identity.provider import CodeRejected, ProviderUnavailable, SdkSession, VerifiedPerson

# Sandbox codes (documented in README.md):
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

    def verify(self, code: str, *, redirect_uri: str | None = None) -> VerifiedPerson:
        if code.startswith("sandbox-outage"):
            raise ProviderUnavailable()
        match = SANDBOX_VERIFIED.match(code)
        if match is None:
            raise CodeRejected()
        return sandbox_person(int(match["n"] or 1))

    def start_session(self) -> SdkSession:
        """A session as MyID's would be; the sandbox's codes verify whatever the app does with it."""
        return SdkSession(
            session_id=str(uuid.uuid4()), client_hash="sandbox", client_hash_id="sandbox", expires_in=3600
        )
