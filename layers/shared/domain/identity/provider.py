"""The identity-provider port: turn an OAuth2 authorization code into a verified person.

Two adapters implement it, each importing this module: `domain.identity.sandbox` (the local default) and
the OneID HTTP adapter `domain.identity.oneid`; `domain.identity.verification.get_provider` chooses one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Protocol

from core.errors import InvalidInput, Unavailable


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

    default_code = "IDENTITY_CODE_REJECTED"


class ProviderUnavailable(Unavailable):
    """The provider is down, slow or answered nonsense; the caller may retry with the same code."""

    default_code = "IDENTITY_PROVIDER_UNAVAILABLE"


class IdentityProvider(Protocol):
    def verify(self, code: str) -> VerifiedPerson:
        """The person behind `code`; raises CodeRejected (400) or ProviderUnavailable (503)."""
        ...
