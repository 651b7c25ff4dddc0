"""The identity-provider port: turn a provider's one-time code into a verified person.

Three adapters implement it, each importing this module: `domain.identity.sandbox` (the local default),
`domain.identity.myid` (MyID, the face-verification SDK a partner app embeds) and `domain.identity.oneid`
(OneID, the government single sign-on); `domain.identity.verification.get_provider` chooses one.
"""

from datetime import date, datetime
from typing import Any, NamedTuple, Protocol

from core.errors import InvalidInput, Unavailable
from core.observability import logger
from core.pinfl import pinfl_is_valid

NAME_MAX_LENGTH = 100
BIRTH_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y")


class VerifiedPerson(NamedTuple):
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


class SdkSession(NamedTuple):
    """What a partner app starts the provider's SDK with (MyID): the session, and the registration's
    client hash and hash id."""

    session_id: str
    client_hash: str
    client_hash_id: str
    expires_in: int | None = None  # seconds, when the provider says


class IdentityProvider(Protocol):
    def verify(self, code: str, *, redirect_uri: str | None = None) -> VerifiedPerson:
        """The person behind `code` (issued for `redirect_uri`, OneID's, when the partner app has its own);
        raises CodeRejected (400) or ProviderUnavailable (503)."""
        ...


def person_from(
    *, pin: Any, first_name: Any, last_name: Any, middle_name: Any, birth_date: Any, document: Any
) -> VerifiedPerson:
    """A provider's answer, field by field, as the person; one without a valid PINFL or names is not an
    answer we can act on (the provider's fault, not the caller's)."""
    pin, first, last = _text(pin), _text(first_name), _text(last_name)
    if pin is None or not pinfl_is_valid(pin) or first is None or last is None:
        logger.warning("identity provider profile without a valid PINFL or names")
        raise ProviderUnavailable()
    return VerifiedPerson(
        pin=pin,
        first_name=first,
        last_name=last,
        middle_name=_text(middle_name),
        birth_date=_birth_date(_text(birth_date)),
        document=_text(document),
    )


def _text(value: Any) -> str | None:
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None
    text = str(value).strip()
    return text[:NAME_MAX_LENGTH] if text else None


def _birth_date(value: str | None) -> date | None:
    for pattern in BIRTH_DATE_FORMATS:
        try:
            return datetime.strptime(value or "", pattern).date()
        except ValueError:
            continue
    return None
