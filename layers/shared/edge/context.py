"""What the request gate learned about the caller, readable by services without passing the event around."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, replace

from bson import ObjectId

from core.errors import NotAuthenticated
from core.locale import DEFAULT_LOCALE, Locale
from data.mongo import get_db


@dataclass(frozen=True)
class RequestContext:
    locale: Locale = DEFAULT_LOCALE
    fingerprint: str = ""
    partner: str = ""
    user_id: str | None = None
    user_exists: bool = False  # the user of `user_id` was found in this request


_current: ContextVar[RequestContext] = ContextVar("request_context", default=RequestContext())  # noqa: B039 (frozen dataclass)


def current() -> RequestContext:
    return _current.get()


def set_current(value: RequestContext) -> None:
    _current.set(value)


def caller_id() -> str:
    """The authenticated user of a route that acts for a user. Services filter every query on it.

    An access token outlives a deleted account by up to its lifetime, so the user must still exist:
    checked here, once per request, for every route that acts for its caller."""
    current = _current.get()
    if current.user_id is None:
        raise NotAuthenticated("Authorization required")
    if not current.user_exists:
        if get_db().users.count_documents({"_id": ObjectId(current.user_id)}, limit=1) == 0:
            raise NotAuthenticated("User not found")
        _current.set(replace(current, user_exists=True))
    return current.user_id


def locale() -> Locale:
    return _current.get().locale
