"""The request gate: the common headers (docs/INTERFACE.md) and the route's access level, checked first.

`edge.app.lambda_entry` runs the gate on the raw event before Powertools resolves it (Powertools
validates a request before any middleware runs), so a caller without a valid token or partner key learns
nothing about the body schema: 400 for a missing header, 403 for an unknown partner, 401 for a bad
token, and only then 400 (or 415) for bad input.

Every route declares its access level: `@app.get(path, middlewares=[PUBLIC])`, `[JWT]` or
`[OPTIONAL_JWT]`. The resolver of `edge.app` records the declaration and takes the marker out of the
middlewares; a route declared without one is JWT, so nothing is open by omission.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.event_handler.api_gateway import Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

from core.errors import InvalidInput, NotAuthenticated, NotPermitted
from core.locale import Locale
from edge.context import Callers, RequestContext
from edge.errors import BodyTooLarge, UnsupportedMediaType

REQUIRED_HEADERS = ("User-Agent", "fingerprint", "client")
MAX_HEADER_LENGTH = 512
# What a route's JSON body may weigh. Every body of this API is one object of ids, amounts and short
# strings (the largest, an order with its financing choice, is under 1 KB), so 64 KB is room for any
# client's formatting and unknown fields; a bigger body is refused before it is decoded or parsed: parsing
# 10 MB of small JSON values costs seconds of CPU and hundreds of MB (docs/DECISIONS.md, "Hostile bodies").
# API Gateway's own limit, 10 MB, stays the limit of everything else.
MAX_JSON_BODY_BYTES = 64 * 1024


class AccessPolicy:
    """A route's access level, declared among the route's middlewares; the gate enforces it."""

    def __init__(
        self, name: str, *, token_required: bool, token_accepted: bool = True, signed_link: bool = False
    ) -> None:
        self.name = name
        self.token_required = token_required
        self.token_accepted = token_accepted
        self.signed_link = signed_link  # also opens, without headers or token, by a link it signed
        self.__name__ = f"access_{name}"

    def __call__(self, app: Any, next_middleware: NextMiddleware) -> Response:
        # Never reached: the resolver takes the marker out of the route's middlewares.
        raise TypeError(f"{self!r} is an access declaration, not a middleware")

    def authenticate(self, authorization: str | None, callers: Callers) -> str | None:
        if not self.token_accepted:
            return None  # a public route ignores any Authorization header, as API Gateway would
        if not authorization:
            if self.token_required:
                raise NotAuthenticated("TOKEN_MISSING")
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotAuthenticated("AUTHORIZATION_MALFORMED")
        return callers.verify_access_token(token.strip())

    def __repr__(self) -> str:
        return f"AccessPolicy({self.name})"


PUBLIC = AccessPolicy("public", token_required=False, token_accepted=False)
JWT = AccessPolicy("jwt", token_required=True)
OPTIONAL_JWT = AccessPolicy("optional_jwt", token_required=False)
# A JWT route whose answers the server also hands out as signed links (edge.links.signed_link).
JWT_OR_SIGNED_LINK = AccessPolicy("jwt", token_required=True, signed_link=True)
# What a route gets when it declares nothing: refused without a valid token.
UNDECLARED = JWT


def check_request(headers: Mapping[str, str], policy: AccessPolicy, callers: Callers, locale: Locale) -> RequestContext:
    """Run the gate for one request (`headers` by lower-case name, edge.headers.request_headers), asking
    `callers` about the partner and the token; raises the error the caller should see."""
    values = {}
    for name in REQUIRED_HEADERS:
        value = (headers.get(name.lower()) or "").strip()
        if not value:
            raise InvalidInput.field(f"header.{name}", "MISSING_HEADER", header=name)
        if len(value) > MAX_HEADER_LENGTH:
            raise InvalidInput.field(f"header.{name}", "HEADER_TOO_LONG", header=name, max=MAX_HEADER_LENGTH)
        values[name] = value
    partner = callers.partner_name(values["client"])
    if partner is None:
        raise NotPermitted("CLIENT_KEY_UNKNOWN")
    user_id = policy.authenticate(headers.get("authorization"), callers)
    return RequestContext(
        locale=locale,
        fingerprint=values["fingerprint"],
        partner=partner,
        user_id=user_id,
        callers=callers,
    )


def refuse_unknown_query_parameters(event: Mapping[str, Any], declared: frozenset[str]) -> None:
    """A query parameter the route does not declare is a 400 naming it: a misspelt filter (`?brand=`)
    would otherwise be ignored and answer everything."""
    given = set(event.get("multiValueQueryStringParameters") or {}) | set(event.get("queryStringParameters") or {})
    unknown = sorted(given - declared)
    if unknown:
        named = unknown[:10]
        raise InvalidInput(
            "QUERY_PARAMETER_UNKNOWN",
            errors=[
                {"field": f"query.{name}", "code": "QUERY_PARAMETER_UNKNOWN", "params": {"names": name}}
                for name in named
            ],
            names=", ".join(named),
        )


def require_json_body(event: Any, takes_body: bool) -> None:
    """Bodies are UTF-8 JSON (docs/INTERFACE.md): Powertools would also parse forms (and fail on a malformed
    multipart), and fail on bytes that are not UTF-8, both as unexpected errors."""
    if not takes_body:
        return
    content_type = (event.headers.get("content-type") or "").strip().lower()
    if content_type and not content_type.startswith("application/json"):
        raise UnsupportedMediaType()
    # Counted in the characters the parser would read (base64 spends 4 on 3 bytes), before decoding.
    sent = len(event.body or "") * 3 // 4 if event.is_base64_encoded else len(event.body or "")
    if sent > MAX_JSON_BODY_BYTES:
        raise BodyTooLarge(kb=MAX_JSON_BODY_BYTES // 1024)
    try:
        event.decoded_body  # noqa: B018 (decoding is the check)
    except ValueError:
        raise InvalidInput.field("body", "BODY_NOT_UTF8") from None
    parse_json_body(event)


def parse_json_body(event: Any) -> None:
    """Parse the body, turning what Python's parser refuses beyond bad syntax into a 400 naming the body
    instead of a 500 (the gate refuses it before Powertools parses it again)."""
    try:
        event.json_body  # noqa: B018 (parsing is the check)
    except RecursionError:
        raise InvalidInput.field("body", "BODY_TOO_DEEP") from None
    except json.JSONDecodeError:
        pass  # not JSON at all: validation answers with its own 400
    except ValueError:
        # An integer literal longer than Python converts (sys.get_int_max_str_digits(), 4,300 digits).
        raise InvalidInput.field("body", "NUMBER_TOO_LONG") from None
