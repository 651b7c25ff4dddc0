"""What the request gate learned about the caller, readable by services without passing the event around."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from common.errors import Unauthorized
from common.locale import DEFAULT_LOCALE, Locale


@dataclass(frozen=True)
class RequestContext:
    locale: Locale = DEFAULT_LOCALE
    fingerprint: str = ""
    partner: str = ""
    user_id: str | None = None


_current: ContextVar[RequestContext] = ContextVar("request_context", default=RequestContext())  # noqa: B039 (frozen dataclass)


def current() -> RequestContext:
    return _current.get()


def set_current(value: RequestContext) -> None:
    _current.set(value)


def caller_id() -> str:
    """The authenticated user of a JWT route. Services filter every query on it."""
    user_id = _current.get().user_id
    if user_id is None:
        raise Unauthorized("Authorization required")
    return user_id


def locale() -> Locale:
    return _current.get().locale
