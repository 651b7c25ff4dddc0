"""The SMS gateway that sends one-time sign-in codes (port) and its sandbox adapter, which sends nothing and
whose every code is `SANDBOX_CODE`; the other adapter is Eskiz (`domain.identity.eskiz`), and
`domain.identity.login_codes.get_gateway` picks the configured one (`SMS_PROVIDER`)."""

from __future__ import annotations

from typing import Protocol

from core.errors import InvalidInput, Unavailable

SANDBOX_CODE = "666666"


class SmsRefused(InvalidInput):
    """The gateway refused the number (not a mobile number it delivers to, blacklisted...)."""

    default_code = "SMS_NUMBER_REFUSED"


class SmsTextRefused(Unavailable):
    """The gateway refused the text we sent (not approved by its moderators, or not its test phrase on a test
    account): our configuration, never the buyer's number; it alarms."""

    default_code = "SMS_TEXT_NOT_APPROVED"


class SmsUnavailable(Unavailable):
    """The gateway did not take the message: down, timed out, answered an error of its own."""

    default_code = "SMS_GATEWAY_UNAVAILABLE"


class SmsGateway(Protocol):
    def code_for(self, generated: str) -> str:
        """The code to send and expect: the one generated, or the sandbox's own."""
        ...

    def text_for(self, code: str, language: str) -> str:
        """The SMS that carries `code` to a person reading `language`."""
        ...

    def send(self, phone: str, text: str) -> None:
        """Send `text` to `phone` (E.164); raises SmsRefused, SmsTextRefused or SmsUnavailable."""
        ...


class SandboxSms:
    """Sends nothing; its code is always SANDBOX_CODE (docs/INTERFACE.md)."""

    def code_for(self, generated: str) -> str:
        return SANDBOX_CODE

    def text_for(self, code: str, language: str) -> str:
        return ""

    def send(self, phone: str, text: str) -> None:
        return None
