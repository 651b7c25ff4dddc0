"""What the request gate learned about the caller, readable by services without passing the event around."""

from contextvars import ContextVar
from typing import NamedTuple, Protocol

from core.errors import NotAuthenticated
from core.locale import DEFAULT_LOCALE, Locale


class Callers(Protocol):
    """What the edge must know about callers and cannot know itself: the domain answers (the function
    that creates the app gives it, `create_app(callers=...)`), so the edge never imports the domain."""

    def partner_name(self, client_key: str) -> str | None:
        """The name of the active partner owning this client key; None for an unknown or inactive key."""
        ...

    def user_exists(self, user_id: str) -> bool: ...

    def verify_access_token(self, token: str, partner: str) -> str:
        """The user id the access token was issued to, presented with the key of `partner` (the one the
        gate found); raises NotAuthenticated for any defect, a token of another partner too."""
        ...


class RequestContext(NamedTuple):
    """Immutable: a request's context is replaced, never changed."""

    locale: Locale = DEFAULT_LOCALE
    fingerprint: str = ""
    partner: str = ""
    user_id: str | None = None
    user_exists: bool = False  # the user of `user_id` was found in this request
    callers: Callers | None = None  # whom the gate asked


# The id of the request being answered (API Gateway's request id): every answer's X-Request-Id, quoted in an
# INTERNAL_ERROR's message so the caller can quote it to support, and every log line's correlation id.
_request_id: ContextVar[str] = ContextVar("request_id", default="")
_current: ContextVar[RequestContext] = ContextVar("request_context", default=RequestContext())  # noqa: B039 (an immutable NamedTuple)


def set_request_id(value: str) -> None:
    _request_id.set(value)


def request_id() -> str:
    return _request_id.get()


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
        raise NotAuthenticated("TOKEN_MISSING")
    if not current.user_exists:
        if current.callers is None or not current.callers.user_exists(current.user_id):
            raise NotAuthenticated("USER_NOT_FOUND")
        _current.set(current._replace(user_exists=True))
    return current.user_id


def locale() -> Locale:
    return _current.get().locale
