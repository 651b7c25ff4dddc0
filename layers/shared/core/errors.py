"""What the service refuses or fails with, by kind, for any code to raise: the domain, the data plumbing
and the edge alike. None of these knows HTTP: the edge gives each kind its status, once (`edge.errors`).

`errors` names the invalid inputs (`{"field": "body.price", "message": ...}`), `details` carries the facts
of a refusal a client can act on (the current price), `retry_after` says when trying again may succeed.
"""

from __future__ import annotations

from typing import Any, ClassVar


class AppError(Exception):
    default_message: ClassVar[str] = "Internal server error"

    def __init__(
        self,
        message: str | None = None,
        *,
        errors: list[dict[str, Any]] | None = None,
        details: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        self.message = message or self.default_message
        self.errors = errors
        self.details = details
        self.retry_after = None if retry_after is None else max(1, retry_after)
        super().__init__(self.message)


class InvalidInput(AppError):
    """The request itself is wrong: a value out of its rules, a missing or malformed input."""

    default_message = "Bad request"

    @classmethod
    def field(cls, field: str, message: str) -> InvalidInput:
        """An error naming one input field, shaped like the validation errors."""
        return cls(f"Validation failed: {field}: {message}", errors=[{"field": field, "message": message}])


class NotAuthenticated(AppError):
    """No valid credentials: a missing, malformed, expired or revoked token, or an unknown user."""

    default_message = "Unauthorized"


class NotPermitted(AppError):
    """The caller is known and may not do this (an unknown or disabled partner key)."""

    default_message = "Forbidden"


class NotFound(AppError):
    """No such thing, or not the caller's (never say which)."""

    default_message = "Not found"


class Conflict(AppError):
    """The state does not allow it now: a changed price, an order not payable, a used-up promo code."""

    default_message = "Conflict"


class TooManyAttempts(AppError):
    """Too many tries in a window; `retry_after` seconds until the next one may succeed."""

    default_message = "Too many requests"

    def __init__(self, message: str | None = None, *, retry_after: int, **kwargs: Any) -> None:
        super().__init__(message, retry_after=retry_after, **kwargs)


class Unavailable(AppError):
    """Something the service depends on is down or busy (the database, a partner, a secret)."""

    default_message = "Service temporarily unavailable, try again later"
