"""Links to files the API itself serves (a schedule as CSV): under the URL the client called the API at,
signed so that they open as plain links."""

from __future__ import annotations

import hmac
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent

from core import clock
from core.errors import NotPermitted
from core.secrets import keyed_hash


def api_base_url(event: APIGatewayProxyEvent) -> str:
    """The URL the client reached the API at, without the route, for links to the API's own files:
    scheme and host as the client used them (API Gateway sets X-Forwarded-Proto), then whatever API
    Gateway put before the route (the stage on the execute-api domain, the base path on a custom one)."""
    scheme = event.headers.get("X-Forwarded-Proto") or "https"
    host = event.request_context.domain_name or event.headers.get("Host") or ""
    called, route = event.request_context.path or event.path, event.path
    prefix = called[: -len(route)] if route and called.endswith(route) else ""
    return f"{scheme}://{host}{prefix}"


# A signed link is opened as it is (a browser, a WebView, a download manager): no common headers, no token.
# It names one answer (its path and query), which the server signed for a caller it had let in, for a while.
LINK_LIFETIME_SECONDS = 3600
SIGNATURE, EXPIRES = "signature", "expires"


# What `urlencode` leaves as it is (quote_plus's always-safe characters): a query made of these alone
# (ids, digits, a hex signature) is its names and values joined, without a quoting call per name and value.
_UNQUOTED = re.compile(r"[A-Za-z0-9_.~-]*")


def _query_string(pairs: Iterable[tuple[str, str]]) -> str:
    """`urlencode(pairs)`, the same text."""
    pairs = list(pairs)
    if _UNQUOTED.fullmatch("".join(map("".join, pairs))):
        return "&".join(map("=".join, pairs))
    return urlencode(pairs)


def _signature(path: str, query: Mapping[str, str]) -> str:
    canonical = _query_string(sorted((name, value) for name, value in query.items() if name != SIGNATURE))
    return keyed_hash("signed-link", f"{path}?{canonical}")


def signed_link(api_base: str, path: str, query: Mapping[str, str]) -> str:
    """An absolute link to `path?query` that works without credentials until it expires."""
    signed = {**query, EXPIRES: str(int(clock.now().timestamp()) + LINK_LIFETIME_SECONDS)}
    signed[SIGNATURE] = _signature(path, signed)
    return f"{api_base}{path}?{_query_string(signed.items())}"


def is_signed_link(query: Mapping[str, str] | None) -> bool:
    return bool(query) and SIGNATURE in (query or {})


def check_signed_link(path: str, query: Mapping[str, str]) -> None:
    """Raise NotPermitted unless `query` carries this path's valid, unexpired signature."""
    expires = query.get(EXPIRES, "")
    # As bytes: compare_digest refuses str with non-ASCII characters, and a query may hold any.
    valid = hmac.compare_digest(query.get(SIGNATURE, "").encode(), _signature(path, query).encode())
    if not valid or not expires.isdigit() or int(expires) < clock.now().timestamp():
        raise NotPermitted("LINK_INVALID_OR_EXPIRED")
