"""The request gate runs for every route, before Powertools validates anything: 400 for a missing header,
403 for an unknown partner, 401 for a missing token, and only then 400 for a bad body. A route added
later without an access declaration is gated as JWT, never open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import Response
from pymongo.database import Database

from core.models import ApiModel
from domain.identity import callers, sessions
from edge import responses
from edge.access import PUBLIC
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from local.context import LocalLambdaContext
from local.invoke import invoke
from tests.factories import api_event, bearer
from tests.route_table import ROUTES, Route

SOME_ID = "665f1c2e9b1e8a3d4c5b6a79"
# A body no route accepts: without credentials a caller must never learn that it is wrong.
BAD_BODY = {"unexpected": ["not", "what", "any", "route", "takes"]}


def route_event(route: Route, **fields: Any) -> dict[str, Any]:
    path_parameters = {"id": SOME_ID} if "{id}" in route.path else None
    path = route.path.replace("{id}", SOME_ID)
    return api_event(route.method, route.path, path=path, path_parameters=path_parameters, **fields)


def answer(result: dict[str, Any]) -> tuple[int, str]:
    body = json.loads(result["body"])
    assert body["statusCode"] == result["statusCode"]
    assert body["data"] is None
    return result["statusCode"], body["message"]


def ids(route: Route) -> str:
    return f"{route.method} {route.path}"


@pytest.mark.parametrize("route", ROUTES, ids=ids)
def test_every_route_refuses_a_request_without_the_common_headers(db: Database[Any], route: Route) -> None:
    # Given a request of the route without its fingerprint header, with a bad body
    event = route_event(route, headers={"fingerprint": ""}, body=BAD_BODY)
    # When it reaches the function
    result = invoke(route.function, event)
    # Then the gate answers 400 naming the header, before anything else
    assert answer(result) == (400, "Missing required header: fingerprint")


@pytest.mark.parametrize("route", ROUTES, ids=ids)
def test_every_route_refuses_an_unknown_partner(db: Database[Any], route: Route) -> None:
    event = route_event(route, headers={"client": "not-a-partner"}, body=BAD_BODY)
    assert answer(invoke(route.function, event)) == (403, "Unknown or inactive client key")


@pytest.mark.parametrize("route", [r for r in ROUTES if r.access == "jwt"], ids=ids)
def test_every_jwt_route_refuses_a_caller_without_a_token_before_reading_the_body(
    db: Database[Any], route: Route
) -> None:
    event = route_event(route, body=BAD_BODY)
    status, message = answer(invoke(route.function, event))
    assert (status, message) == (401, "Authorization header with a Bearer access token is required")


@pytest.mark.parametrize("route", [r for r in ROUTES if r.access != "public"], ids=ids)
def test_every_route_that_reads_a_token_refuses_a_forged_one(db: Database[Any], route: Route) -> None:
    event = route_event(route, headers=bearer("not.a.token"), body=BAD_BODY)
    status, _ = answer(invoke(route.function, event))
    assert status == 401


class Thing(ApiModel):
    name: str


def new_function() -> Any:
    """A function added later: one route that forgot its access level, one declared public."""
    app = create_app(callers=callers)

    @app.get("/api/v1/things")
    def things() -> Response[Envelope[Thing]]:
        return responses.ok(Thing(name="secret"))

    @app.get("/api/v1/things/public", middlewares=[PUBLIC])
    def public_things() -> Response[Envelope[Thing]]:
        return responses.ok(Thing(name="open"))

    handler = lambda_entry(app)
    return lambda event: handler(event, LocalLambdaContext(function_name="Things"))  # type: ignore[arg-type]


def test_a_route_added_without_an_access_level_is_gated_as_jwt(db: Database[Any]) -> None:
    # Given a new route that declares no access level
    handler = new_function()
    # When it is called without a token
    refused = handler(api_event("GET", "/api/v1/things"))
    # Then the gate refuses it like a JWT route
    assert answer(refused) == (401, "Authorization header with a Bearer access token is required")
    # And a caller with a valid token gets it
    token = sessions.issue_pair(SOME_ID).access_token
    served = handler(api_event("GET", "/api/v1/things", headers=bearer(token)))
    assert served["statusCode"] == 200
    assert json.loads(served["body"])["data"] == {"name": "secret"}


def test_a_route_added_later_still_needs_the_headers_and_a_partner(db: Database[Any]) -> None:
    handler = new_function()
    assert answer(handler(api_event("GET", "/api/v1/things/public", headers={"client": "nope"})))[0] == 403
    assert answer(handler(api_event("GET", "/api/v1/things/public", headers={"User-Agent": ""})))[0] == 400
    assert handler(api_event("GET", "/api/v1/things/public"))["statusCode"] == 200


def test_a_route_the_resolver_does_not_know_is_gated_too(db: Database[Any]) -> None:
    # A resource the gateway sends that no route declared: JWT, then Powertools' 404
    handler = new_function()
    assert answer(handler(api_event("GET", "/api/v1/unknown")))[0] == 401
    token = sessions.issue_pair(SOME_ID).access_token
    assert answer(handler(api_event("GET", "/api/v1/unknown", headers=bearer(token))))[0] == 404


def test_a_response_that_breaks_its_model_is_a_500_not_a_leak(db: Database[Any]) -> None:
    # Given a route whose service returns something else than it declares
    app = create_app(callers=callers)

    @app.get("/api/v1/broken", middlewares=[PUBLIC])
    def broken() -> Response[Envelope[Thing]]:
        # The bug under test: not what the route declares
        return responses.ok({"password": "hunter2"})  # type: ignore[arg-type]

    handler = lambda_entry(app)
    # When it is called
    result = handler(api_event("GET", "/api/v1/broken"), LocalLambdaContext(function_name="Broken"))  # type: ignore[arg-type]
    # Then the caller gets a plain 500 quoting the request's id, and nothing of what was returned
    assert answer(result) == (500, "Internal server error; quote request test-request to support")
    assert "hunter2" not in result["body"]
