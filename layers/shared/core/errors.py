"""What the service refuses or fails with, by kind, for any code to raise: the domain, the data plumbing
and the edge alike. None of these knows HTTP: the edge gives each kind its status, once (`edge.errors`).

Every error names a stable `code` of the catalogue (`edge.error_codes`), which holds its message in ru,
uz and en; `params` fill the message's `{placeholders}`:

    raise Conflict("PROMO_CODE_EXPIRED", details={"validTo": valid_to})
    raise NotFound("IDS_DO_NOT_MATCH", field="modificationId", parent="carId")
    raise InvalidInput.field("body.expiry", "CARD_EXPIRED")

`errors` names the invalid inputs (`FieldProblem`: where, which code, its params), `details` carries the
facts of a refusal a client can act on (the current price), `retry_after` says when trying again may
succeed (also given to the client as `details.retryAfter`).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from pydantic_core import PydanticCustomError


class FieldProblem(TypedDict):
    field: str  # body.<name>, query.<name>, path.<name> or header.<name>
    code: str
    params: dict[str, Any]


class AppError(Exception):
    # The code of a kind raised without one (a subclass that always means one thing).
    default_code: ClassVar[str] = "INTERNAL_ERROR"

    def __init__(
        self,
        code: str | None = None,
        /,
        *,
        errors: list[FieldProblem] | None = None,
        details: dict[str, Any] | None = None,
        retry_after: int | None = None,
        **params: Any,
    ) -> None:
        self.code = code or self.default_code
        self.params = params
        self.errors = errors
        self.retry_after = None if retry_after is None else max(1, retry_after)
        if self.retry_after is not None:
            details = {**(details or {}), "retryAfter": self.retry_after}
        self.details = details
        super().__init__(self.code)


class InvalidInput(AppError):
    """The request itself is wrong: a value out of its rules, a missing or malformed input."""

    @classmethod
    def field(cls, field: str, code: str, **params: Any) -> InvalidInput:
        """An error naming one input field, shaped like the validation errors."""
        return cls(code, errors=[{"field": field, "code": code, "params": params}], **params)


class NotAuthenticated(AppError):
    """No valid credentials: a missing, malformed, expired or revoked token, or an unknown user."""


class NotPermitted(AppError):
    """The caller is known and may not do this (an unknown or disabled partner key)."""


class NotFound(AppError):
    """No such thing, or not the caller's (never say which)."""


class Conflict(AppError):
    """The state does not allow it now: a changed price, an order not payable, a used-up promo code."""


class TooManyAttempts(AppError):
    """Too many tries in a window; `retry_after` seconds until the next one may succeed."""

    def __init__(self, code: str | None = None, /, *, retry_after: int, **kwargs: Any) -> None:
        super().__init__(code, retry_after=retry_after, **kwargs)


class Unavailable(AppError):
    """Something the service depends on is down or busy (the database, a partner, a secret)."""

    default_code = "SERVICE_UNAVAILABLE"


def invalid_value(code: str, **params: Any) -> PydanticCustomError:
    """A validator's refusal of a value, to raise inside a pydantic validator: pydantic reports `code` as
    the field's error type, which the edge answers as the field's code, its message localized."""
    return PydanticCustomError(code, code, params)
