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
from typing import Any, Protocol

from aws_lambda_powertools.event_handler.api_gateway import Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

from core.errors import InvalidInput, NotAuthenticated, NotPermitted
from core.locale import Locale
from edge import json_budget
from edge.context import Callers, RequestContext
from edge.errors import BodyTooLarge, UnsupportedMediaType

REQUIRED_HEADERS = ("User-Agent", "fingerprint", "client")
MAX_HEADER_LENGTH = 512
# The interface's limit of every body, API Gateway's own: checked again here, where a body can also arrive
# without the gateway (a direct invocation, `make run`). What a body may hold within it is the route's
# (edge.json_budget): its size in bytes says nothing of what parsing it costs.
MAX_BODY_BYTES = 10 * 1024 * 1024


class DeclaresBody(Protocol):
    """What the gate needs of the declaration (edge.app.RouteDeclaration) of a route that takes a body."""

    @property
    def body_budget(self) -> json_budget.JsonBudget: ...


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

    def authenticate(self, authorization: str | None, callers: Callers, partner: str) -> str | None:
        if not self.token_accepted:
            return None  # a public route ignores any Authorization header, as API Gateway would
        if not authorization:
            if self.token_required:
                raise NotAuthenticated("TOKEN_MISSING")
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotAuthenticated("AUTHORIZATION_MALFORMED")
        return callers.verify_access_token(token.strip(), partner)

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
    user_id = policy.authenticate(headers.get("authorization"), callers, partner)
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
    multi_value = event.get("multiValueQueryStringParameters") or {}
    single_value = event.get("queryStringParameters") or {}
    if not (multi_value or single_value):
        return
    unknown = sorted({*multi_value, *single_value} - declared)
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


def require_json_body(event: Any, headers: Mapping[str, str], route: DeclaresBody) -> str:
    """The text of the body of a route that takes one, checked: UTF-8 JSON (docs/INTERFACE.md) within the
    route's budget (edge.json_budget). Powertools would also parse forms (and fail on a malformed
    multipart), and fail on bytes that are not UTF-8, both as unexpected errors; and it would build every
    value of any JSON body before validating it. The resolver parses it (`parse_json_body`). `headers`:
    the request's by lower-case name (edge.headers.request_headers), the event's own `headers` as the
    proxy event's case-insensitive map reads them, which it would build again for one header."""
    content_type = (headers.get("content-type") or "").strip().lower()
    if content_type and not content_type.startswith("application/json"):
        raise UnsupportedMediaType()
    # Counted in the bytes sent, before decoding: base64 spends 4 characters on 3, `=` pads the last 4.
    body = event.body or ""
    sent = len(body) * 3 // 4 - body.count("=", -2) if event.is_base64_encoded else len(body)
    if sent > MAX_BODY_BYTES:
        raise BodyTooLarge("PAYLOAD_TOO_LARGE")
    try:
        text = event.decoded_body or ""
    except ValueError:
        raise InvalidInput.field("body", "BODY_NOT_UTF8") from None
    refuse_what_the_route_cannot_use(text, route)
    return text


def refuse_what_the_route_cannot_use(text: str, route: DeclaresBody) -> None:
    """A body nesting deeper or holding more tokens than the route's budget is refused before it is parsed.
    Nearly every body is under the allowance of undeclared properties alone, which every budget holds, by
    the count of its characters: only a body over it derives the route's budget (on its first use: the
    JSON schema of a model builds the model) and, when the count exceeds that too, walks its tokens."""
    if json_budget.short_and_shallow(text):
        return
    rough = json_budget.upper_bound(text)
    if rough.within(json_budget.UNDECLARED):
        return
    budget = route.body_budget
    if not rough.within(budget) and json_budget.exceeds(text, budget):
        raise BodyTooLarge(depth=budget.depth, tokens=budget.tokens)


def not_json(error: json.JSONDecodeError) -> InvalidInput:
    """A body that is not JSON: a field error on `body` (never Powertools' `body.<offset>`, which reads as
    a field), and where the parser stopped in `details`, as an editor counts (line and column from 1)."""
    return InvalidInput(
        "VALIDATION_FAILED",
        errors=[{"field": "body", "code": "BODY_NOT_JSON", "params": {}}],
        details={"line": error.lineno, "column": error.colno},
        fields="body",
    )


def parse_json_body(text: str) -> Any:
    """The resolver's JSON parser (its `json_body_deserializer`), run once per request on a body the gate
    let through: a body that is not JSON, or that Python's parser refuses beyond its syntax, is a 400
    naming the body instead of a 500."""
    try:
        return json.loads(text)
    except RecursionError:  # nesting the route's budget allows and the parser does not
        raise InvalidInput.field("body", "BODY_TOO_DEEP") from None
    except json.JSONDecodeError as error:
        raise not_json(error) from None
    except ValueError:
        # An integer literal longer than Python converts (sys.get_int_max_str_digits(), 4,300 digits).
        raise InvalidInput.field("body", "NUMBER_TOO_LONG") from None
