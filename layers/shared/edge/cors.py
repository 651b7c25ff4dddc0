"""CORS: which browser origins may call the API and read its answers.

The allowed origins are listed per environment (`ALLOWED_ORIGINS`, the template's `AllowedOrigins`):
exact origins (`https://app.partner.uz`), or a host with any port (`http://localhost:*`, local only).
Partner apps send the `Authorization` header, so origins are listed, never `*`.

Every answer of a function carries `Access-Control-Allow-Origin` for an allowed `Origin` (`response_headers`,
applied once in `edge.app.lambda_entry`, so errors carry it too); preflights are answered by API
Gateway when deployed and by the local server (`preflight_headers`), neither reaching a function.

Powertools' `CORSConfig` matches origins exactly and only on routes the resolver answers; a port
wildcard and the answers of the gateway itself need this one rule instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.settings import get_settings

ALLOWED_METHODS = ("GET", "POST", "PATCH", "OPTIONS")
# The common headers of every request, the token, the body's type and the idempotency key.
ALLOWED_HEADERS = (
    "Authorization",
    "Content-Type",
    "fingerprint",
    "client",
    "Accept-Language",
    "Idempotency-Key",
    "If-None-Match",
)
# What a browser script may read beyond the CORS-safelisted headers: when to retry and how much budget is
# left, whether an answer is a replay, the key echoed, the file name, the answer's language, its ETag, the
# request's id (to quote to support; API Gateway's x-amzn-RequestId is the same id, on its own answers too).
EXPOSED_HEADERS = (
    "X-Request-Id",
    "x-amzn-RequestId",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Idempotency-Key",
    "Idempotent-Replayed",
    "Content-Disposition",
    "Content-Language",
    "ETag",
)
PREFLIGHT_MAX_AGE_SECONDS = 600
ANY_PORT = ":*"


def origin_allowed(origin: str | None, allowed: Iterable[str] | None = None) -> bool:
    """Whether `origin` (as the browser sent it) is one of the allowed origins."""
    if not origin:
        return False
    for rule in get_settings().allowed_origin_list if allowed is None else allowed:
        if rule.endswith(ANY_PORT):
            prefix = rule.removesuffix("*")  # "http://localhost:"
            port = origin.removeprefix(prefix) if origin.startswith(prefix) else ""
            if port.isascii() and port.isdigit() and len(port) <= 5:
                return True
        elif origin == rule:
            return True
    return False


def response_headers(origin: str | None) -> dict[str, str]:
    """CORS headers of an answer to a request from `origin`; nothing for a disallowed one (the browser
    then keeps the answer from the page). `Vary: Origin` always: answers differ by origin."""
    if not origin_allowed(origin):
        return {"Vary": "Origin"}
    return {
        "Access-Control-Allow-Origin": str(origin),
        "Access-Control-Expose-Headers": ", ".join(EXPOSED_HEADERS),
        "Vary": "Origin",
    }


def preflight_headers(origin: str | None) -> dict[str, str] | None:
    """The answer to a preflight (OPTIONS with Origin and Access-Control-Request-Method), or None when
    the origin is not allowed."""
    if not origin_allowed(origin):
        return None
    return {
        "Access-Control-Allow-Origin": str(origin),
        "Access-Control-Allow-Methods": ", ".join(ALLOWED_METHODS),
        "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS),
        "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE_SECONDS),
        "Vary": "Origin",
    }
