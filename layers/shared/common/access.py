"""The request gate: common headers (docs/INTERFACE.md) and the route's access level, checked before anything else.

Powertools validates the request before any user middleware runs; the gate is wrapped around that
validation (see `common.app`), so a caller without a valid token or partner key learns nothing about
the body schema: 400 for a missing header, 403 for an unknown partner, 401 for a bad token, and only
then 400 for bad input.

Access levels are declared on the route: `@app.get(path, middlewares=[JWT])`, `[OPTIONAL_JWT]`, or
nothing for Public.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler.api_gateway import Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

from common import tokens
from common.context import RequestContext, set_current
from common.errors import BadRequest, Forbidden, Unauthorized, UnsupportedMediaType
from common.locale import parse_accept_language
from common.partners import find_active_partner

REQUIRED_HEADERS = ("User-Agent", "fingerprint", "client")
MAX_HEADER_LENGTH = 512


class AccessPolicy:
    """A route's access level. As a route middleware it is only a marker: the gate enforces it."""

    def __init__(self, name: str, *, token_required: bool) -> None:
        self.name = name
        self.token_required = token_required
        self.__name__ = f"access_{name}"

    def __call__(self, app: Any, next_middleware: NextMiddleware) -> Response:
        return next_middleware(app)

    def authenticate(self, authorization: str | None) -> str | None:
        if not authorization:
            if self.token_required:
                raise Unauthorized("Authorization header with a Bearer access token is required")
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("Authorization header must be 'Bearer <access token>'")
        return tokens.verify(token.strip(), "access").sub

    def __repr__(self) -> str:
        return f"AccessPolicy({self.name})"


JWT = AccessPolicy("jwt", token_required=True)
OPTIONAL_JWT = AccessPolicy("optional_jwt", token_required=False)


def route_access(route: Any) -> AccessPolicy | None:
    return next((mw for mw in route.middlewares if isinstance(mw, AccessPolicy)), None)


def check_request(headers: Any, route: Any) -> RequestContext:
    """Run the gate for one request; raises the error the caller should see."""
    values = {}
    for name in REQUIRED_HEADERS:
        value = (headers.get(name) or "").strip()
        if not value:
            raise BadRequest(
                f"Missing required header: {name}",
                errors=[{"field": f"header.{name}", "message": "is required"}],
            )
        if len(value) > MAX_HEADER_LENGTH:
            raise BadRequest.field(f"header.{name}", f"must be at most {MAX_HEADER_LENGTH} characters")
        values[name] = value
    partner = find_active_partner(values["client"])
    if partner is None:
        raise Forbidden("Unknown or inactive client key")
    policy = route_access(route)
    user_id = policy.authenticate(headers.get("Authorization")) if policy else None
    return RequestContext(
        locale=parse_accept_language(headers.get("accept-language")),
        fingerprint=values["fingerprint"],
        partner=str(partner.get("name", "")),
        user_id=user_id,
    )


def require_json_body(event: Any, route: Any) -> None:
    """Bodies are UTF-8 JSON (docs/INTERFACE.md): Powertools would also parse forms (and fail on a malformed
    multipart), and fail on bytes that are not UTF-8, both as unexpected errors."""
    if not route.dependant.body_params:
        return
    content_type = (event.headers.get("content-type") or "").strip().lower()
    if content_type and not content_type.startswith("application/json"):
        raise UnsupportedMediaType()
    try:
        event.decoded_body  # noqa: B018 (decoding is the check)
    except ValueError:
        raise BadRequest.field("body", "must be UTF-8 encoded JSON") from None
    parse_json_body(event)


def parse_json_body(event: Any) -> None:
    """Parse the body once (Powertools caches it for the validation that follows), turning what Python's
    parser refuses beyond bad syntax into a 400 naming the body instead of a 500."""
    try:
        event.json_body  # noqa: B018 (parsing is the check)
    except RecursionError:
        raise BadRequest.field("body", "is nested too deeply") from None
    except json.JSONDecodeError:
        pass  # not JSON at all: validation answers with its own 400
    except ValueError:
        # An integer literal longer than Python converts (sys.get_int_max_str_digits(), 4,300 digits).
        raise BadRequest.field("body", "holds a number with too many digits") from None


class GatedRequestValidation:
    """Stands where Powertools' request validation stands, and runs the gate first."""

    def __init__(self, validation: Any) -> None:
        self._validation = validation
        self.__name__ = "gated_request_validation"

    def __call__(self, app: Any, next_middleware: NextMiddleware) -> Response:
        return self.handler(app, next_middleware)

    def handler(self, app: Any, next_middleware: NextMiddleware) -> Response:
        route = app.context["_route"]
        set_current(check_request(app.current_event.headers, route))
        require_json_body(app.current_event, route)
        return self._validation.handler(app, next_middleware)
