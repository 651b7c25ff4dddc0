"""openapi.json is the document the code generates, and it says what the resolvers do."""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler.openapi.models import OpenAPI
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from common.access import OPTIONAL_JWT
from common.app import create_app
from local.template import ApiRoute
from ops.openapi import DOCUMENT, ERRORS, generate, operations, render
from ops.openapi_data import ROUTE_RESPONSES
from tests.route_table import ROUTES

ACCESS_SECURITY: dict[str, Any] = {
    "public": None,
    "jwt": [{"bearerAuth": []}],
    "optional_jwt": [{}, {"bearerAuth": []}],
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return generate()


def operation(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    op: dict[str, Any] = document["paths"][path][method.lower()]
    return op


def test_the_committed_document_is_the_generated_one(document: dict[str, Any]) -> None:
    committed = DOCUMENT.read_text(encoding="utf-8")
    assert committed == render(document), "openapi.json is out of date with the code: run `make openapi` and commit it"


def test_generation_is_deterministic(document: dict[str, Any]) -> None:
    assert render(generate()) == render(document)


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    OpenAPI.model_validate(document)
    assert document["openapi"].startswith("3.")


def test_it_documents_exactly_the_46_routes(document: dict[str, Any]) -> None:
    assert operations(document) == {(r.method, r.path) for r in ROUTES}


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_every_operation_has_headers_security_and_errors_of_its_access_level(
    document: dict[str, Any], route: Any
) -> None:
    op = operation(document, route.method, route.path)
    # The common headers
    refs = [p.get("$ref") for p in op["parameters"]]
    assert refs[:4] == [
        f"#/components/parameters/{n}" for n in ("UserAgent", "Fingerprint", "Client", "AcceptLanguage")
    ]
    # Security and 401 follow the route's access marker
    assert op.get("security") == ACCESS_SECURITY[route.access]
    statuses = set(op["responses"])
    if route.access != "public":
        assert "401" in statuses
    # Errors every request can meet, never Powertools' 422
    assert {"400", "403", "429", "500", "503"} <= statuses
    assert "422" not in statuses
    # Exactly one success response
    assert len([s for s in statuses if s.startswith("2")]) == 1


def test_public_routes_document_401_only_where_the_spec_gives_it(document: dict[str, Any]) -> None:
    with_401 = {
        (r.method, r.path)
        for r in ROUTES
        if r.access == "public" and "401" in operation(document, r.method, r.path)["responses"]
    }
    assert with_401 == {("POST", "/api/v1/auth/refresh-token")}


def test_success_responses_carry_the_envelope_and_the_spec_statuses(document: dict[str, Any]) -> None:
    login = operation(document, "POST", "/api/v1/auth/login")["responses"]["201"]["content"]["application/json"]
    envelope, data = login["schema"]["allOf"]
    assert envelope == {"$ref": "#/components/schemas/Envelope"}
    assert data["properties"]["data"] == {"$ref": "#/components/schemas/TokenPairData"}
    assert set(login["example"]) == {"success", "statusCode", "message", "data"}
    created = {(r.method, r.path) for r in ROUTES if "201" in operation(document, r.method, r.path)["responses"]}
    assert created == {
        ("POST", "/api/v1/auth/login"),
        ("POST", "/api/v1/auth/refresh-token"),
        ("POST", "/api/v1/orders"),
        ("PATCH", "/api/v1/saved-cars/{id}"),
    }


def test_term_conditions_is_markdown_without_the_envelope(document: dict[str, Any]) -> None:
    content = operation(document, "GET", "/api/v1/documents/term-conditions")["responses"]["200"]["content"]
    assert content == {"text/markdown": {"schema": {"type": "string"}}}


def test_error_responses_are_the_error_envelope_with_examples(document: dict[str, Any]) -> None:
    responses = document["components"]["responses"]
    for status, (name, _, _example) in ERRORS.items():
        content = responses[name]["content"]["application/json"]
        assert content["schema"] == {"$ref": "#/components/schemas/ErrorEnvelope"}
        assert content["example"]["statusCode"] == status
        assert content["example"]["data"] is None
    assert "Retry-After" in responses["TooManyRequests"]["headers"]
    error_schema = json.dumps(document["components"]["schemas"]["ErrorEnvelope"])
    assert "FieldError" in error_schema
    assert "details" in error_schema


def test_the_response_table_names_only_real_routes() -> None:
    assert set(ROUTE_RESPONSES) <= {(r.method, r.path) for r in ROUTES}


class Car(BaseModel):
    name: str


class CarBody(BaseModel):
    name: str


def test_what_a_route_declares_itself_wins_and_gets_the_envelope() -> None:
    # Given a route filled in later, declaring its body, a query parameter, its success and a conflict
    app = create_app()

    @app.post(
        "/api/v1/things/<id>",
        middlewares=[OPTIONAL_JWT],
        responses={
            201: {"description": "created", "content": {"application/json": {"model": Car}}},
            409: {"description": "taken"},
        },
    )
    def post_thing(id: str, body: CarBody, color: Annotated[str, Query()] = "red"):
        return None

    route = ApiRoute(function="Things", handler="things.app.lambda_handler", method="POST", path="/api/v1/things/{id}")
    resolved = app._dynamic_routes[0]
    # When the document is generated
    op = generate([(route, app, resolved)])["paths"]["/api/v1/things/{id}"]["post"]
    # Then its declarations are kept, the declared model is `data` in the envelope
    assert set(op["responses"]) == {"201", "400", "401", "403", "404", "409", "413", "415", "429", "500", "503"}
    _, data = op["responses"]["201"]["content"]["application/json"]["schema"]["allOf"]
    assert data["properties"]["data"] == {"$ref": "#/components/schemas/Car"}
    assert op["responses"]["409"] == {"$ref": "#/components/responses/Conflict"}
    assert [p["name"] for p in op["parameters"] if "name" in p] == ["id", "color"]
    assert op["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CarBody"}
    assert op["security"] == [{}, {"bearerAuth": []}]
    assert op["tags"] == ["Things"]
