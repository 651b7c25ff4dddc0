"""The one way this service calls a partner over HTTP (card processors, identity providers, the SMS gateway;
webhooks keep their own transport, which pins the address it checked: `domain.partners.transport`).

- **One deadline for the whole exchange.** `exchange` gives a call its own timeout or what is left of the
  request's budget for partner calls, whichever ends first (`core.deadline.bounded`), for connecting,
  sending and reading the whole answer: urllib's timeout is per socket operation, so the exchange runs
  on a daemon thread and the request stops waiting when the time is up (`core.deadline.call_within`).
  Out of time is `core.deadline.DeadlineExceeded`, the one such class; a transport failure (refused,
  reset, DNS, TLS, an answer cut short) is `Unreachable`. Either is an outage whose outcome is unknown:
  the adapter decides what that means for its partner.
- **JSON in and out.** A request carries JSON (`json_request`), or the form a partner's protocol asks
  for (`form_request`, `multipart_request`); every answer, whatever its status, comes back as its
  status and its JSON (`Reply.body`, None when the answer is not JSON).
- **Nothing secret in logs.** This module logs nothing, and its errors name the kind of failure only:
  never a URL (a query may hold a code), a header (tokens, credentials) or a body (cards, codes,
  people). A request's repr shows its method alone. The adapters log their own step and status.
- **No redirect is followed**: a 3xx is an answer like any other, so credentials go only where they were
  configured to.
"""

from __future__ import annotations

import functools
import http.client
import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from core import deadline
from core.deadline import DeadlineExceeded

__all__ = ["DeadlineExceeded", "Reply", "Request", "Unreachable", "exchange"]


class Unreachable(OSError):
    """The partner could not be reached, or its answer was cut short."""


@dataclass(frozen=True)
class Request:
    method: str
    url: str = field(repr=False)
    body: bytes | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any  # the JSON answer, None when the answer is not JSON


def json_request(method: str, url: str, body: Any = None, *, headers: Mapping[str, str] | None = None) -> Request:
    """A request carrying `body` as JSON (none when None), asking for JSON."""
    content = {} if body is None else {"Content-Type": "application/json"}
    data = None if body is None else json.dumps(body).encode()
    return Request(method, url, data, {"Accept": "application/json", **content, **(headers or {})})


def form_request(url: str, fields: Mapping[str, str | None], *, headers: Mapping[str, str] | None = None) -> Request:
    """A POST of an `application/x-www-form-urlencoded` form (fields that are None are left out)."""
    data = urlencode({name: value for name, value in fields.items() if value is not None}).encode()
    content = {"Content-Type": "application/x-www-form-urlencoded"}
    return Request("POST", url, data, {"Accept": "application/json", **content, **(headers or {})})


def multipart_request(
    method: str, url: str, fields: Mapping[str, str], *, headers: Mapping[str, str] | None = None
) -> Request:
    """A request of a `multipart/form-data` body of text fields."""
    boundary = f"----car-retail-{secrets.token_hex(16)}"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    data = b"".join(parts) + f"--{boundary}--\r\n".encode()
    content = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    return Request(method, url, data, {"Accept": "application/json", **content, **(headers or {})})


def exchange(request: Request, *, timeout: float) -> Reply:
    """Send `request` and read the whole answer within `timeout` seconds or what is left of the request's
    budget, whichever ends first; the answer whatever its HTTP status. Raises DeadlineExceeded or
    Unreachable."""
    if not request.url.startswith(("https://", "http://")):
        raise ValueError("a partner's URL must be http(s)")
    allowed = deadline.bounded(timeout)
    return deadline.call_within(lambda: _exchange(request, allowed), allowed)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the 3xx is handed back as an answer (urllib's documented way to refuse one)


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    """Built on the first exchange, not at import: it loads the system's CA certificates, a cold start's cost
    for every function that imports this module (docs/DECISIONS.md, "Import-time work")."""
    return urllib.request.build_opener(_NoRedirect)


def _exchange(request: Request, timeout: float) -> Reply:
    sent = urllib.request.Request(  # noqa: S310 (http(s), checked by exchange)
        request.url, data=request.body, headers=dict(request.headers), method=request.method
    )
    try:
        try:
            with _opener().open(sent, timeout=timeout) as response:
                return Reply(response.status, _json(response.read()))
        except urllib.error.HTTPError as error:
            with error:
                return Reply(error.code, _json(error.read()))
    except TimeoutError as exc:
        raise DeadlineExceeded("the partner did not answer in time") from exc
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, DNS, TLS, cut short
        raise Unreachable(type(exc).__name__) from None


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None
