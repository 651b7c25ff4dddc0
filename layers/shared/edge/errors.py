"""The one place an error's kind becomes an HTTP status (docs/INTERFACE.md, "Statuses")."""

from __future__ import annotations

from core.errors import (
    AppError,
    Conflict,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    NotPermitted,
    TooManyAttempts,
    Unavailable,
)


class UnsupportedMediaType(InvalidInput):
    """A body sent as anything but JSON."""

    default_code = "UNSUPPORTED_MEDIA_TYPE"


class BodyTooLarge(InvalidInput):
    """A body over the interface's 10 MB, or holding more than its route can use (`edge.json_budget`)."""

    default_code = "BODY_TOO_LARGE"


# Most specific first: an error takes the status of the first class here it is an instance of.
STATUSES: tuple[tuple[type[AppError], int], ...] = (
    (UnsupportedMediaType, 415),
    (BodyTooLarge, 413),
    (InvalidInput, 400),
    (NotAuthenticated, 401),
    (NotPermitted, 403),
    (NotFound, 404),
    (Conflict, 409),
    (TooManyAttempts, 429),
    (Unavailable, 503),
)


def status_of_kind(kind: type[AppError]) -> int:
    return next((status for known, status in STATUSES if issubclass(kind, known)), 500)


def status_of(error: AppError) -> int:
    return status_of_kind(type(error))


def headers_of(error: AppError) -> dict[str, str]:
    return {} if error.retry_after is None else {"Retry-After": str(error.retry_after)}
