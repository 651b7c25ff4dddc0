"""Error types mapped to HTTP statuses (docs/INTERFACE.md). Raise them anywhere; the resolver
factory turns each into the response envelope."""

from __future__ import annotations

from typing import Any, ClassVar


class AppError(Exception):
    status: ClassVar[int] = 500
    default_message: ClassVar[str] = "Internal server error"

    def __init__(
        self,
        message: str | None = None,
        *,
        errors: list[dict[str, Any]] | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.message = message or self.default_message
        self.errors = errors
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)


class BadRequest(AppError):
    status = 400
    default_message = "Bad request"

    @classmethod
    def field(cls, field: str, message: str) -> BadRequest:
        """A 400 naming one input field, shaped like the validation errors."""
        return cls(f"Validation failed: {field}: {message}", errors=[{"field": field, "message": message}])


class Unauthorized(AppError):
    status = 401
    default_message = "Unauthorized"


class Forbidden(AppError):
    status = 403
    default_message = "Forbidden"


class NotFound(AppError):
    status = 404
    default_message = "Not found"


class Conflict(AppError):
    status = 409
    default_message = "Conflict"


class UnsupportedMediaType(AppError):
    status = 415
    default_message = "Unsupported Content-Type: send the body as application/json"


class TooManyRequests(AppError):
    status = 429
    default_message = "Too many requests"

    def __init__(self, message: str | None = None, *, retry_after: int, **kwargs: Any) -> None:
        super().__init__(message, headers={"Retry-After": str(max(1, retry_after))}, **kwargs)
        self.retry_after = max(1, retry_after)


class ServiceUnavailable(AppError):
    status = 503
    default_message = "Service temporarily unavailable, try again later"
