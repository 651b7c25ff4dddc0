"""openapi.json is the document the code generates, and it says what the resolvers do."""

from __future__ import annotations

import itertools
import json
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.models import OpenAPI
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from core.errors import Conflict
from domain.identity import callers
from edge.access import OPTIONAL_JWT
from edge.app import create_app
from edge.envelope import Envelope
from edge.error_codes import CODES
from local.template import ApiRoute
from ops.openapi import DOCUMENT, generate, operations, render
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


def schema_of(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its `$ref` followed."""
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def success_data(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The `data` schema of an operation's JSON success response."""
    responses = operation(document, method, path)["responses"]
    (success,) = [response for code, response in responses.items() if code.startswith("2")]
    envelope = schema_of(document, success["content"]["application/json"]["schema"])
    assert set(envelope["required"]) >= {"success", "statusCode", "message", "data"}
    return schema_of(document, envelope["properties"]["data"])


def test_success_responses_carry_the_envelope_and_the_spec_statuses(document: dict[str, Any]) -> None:
    tokens = success_data(document, "POST", "/api/v1/auth/login")
    assert set(tokens["properties"]) == {"accessToken", "refreshToken"}
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


JSON_SUCCESS = [r for r in ROUTES if (r.method, r.path) != ("GET", "/api/v1/documents/term-conditions")]


@pytest.mark.parametrize("route", JSON_SUCCESS, ids=lambda r: f"{r.method} {r.path}")
def test_every_success_declares_its_data_with_typed_fields(document: dict[str, Any], route: Any) -> None:
    data = success_data(document, route.method, route.path)
    # An object with its fields, each with a type (or a reference to one)
    assert data["type"] == "object", data
    assert data["properties"], data
    for name, field in data["properties"].items():
        assert {"type", "$ref", "anyOf", "allOf", "oneOf", "enum", "const"} & set(field), (name, field)


def test_a_page_is_items_and_total(document: dict[str, Any]) -> None:
    cars = success_data(document, "GET", "/api/v1/cars")
    # a list that grows without bound says whether its total was counted to the end
    assert set(cars["required"]) == {"items", "total", "exact"}
    assert set(success_data(document, "GET", "/api/v1/brands")["required"]) == {"items", "total"}
    item = schema_of(document, cars["properties"]["items"]["items"])
    assert {"_id", "name", "priceFrom", "brand", "saved"} <= set(item["required"])
    assert item["properties"]["_id"]["pattern"] == "^[0-9a-f]{24}$"


def test_the_enums_of_the_contract_are_enums(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["PaymentType"]["enum"] == ["CASH", "CREDIT", "LEASING", "INSTALLMENT"]
    assert schemas["ECardType"]["enum"] == ["UZCARD", "HUMO", "VISA", "MASTERCARD", "UNIONPAY", "MIR"]
    order = success_data(document, "GET", "/api/v1/orders/{id}")
    assert order["properties"]["statusSlug"]["enum"] == [
        "NEW",
        "PARTIALLY_PAID",
        "PAID",
        "READY",
        "IMPLEMENTED",
        "CANCELLED",
    ]
    history = schema_of(
        document, success_data(document, "GET", "/api/v1/transactions/history")["properties"]["items"]["items"]
    )
    assert set(history["properties"]["status"]["enum"]) >= {"PENDING", "CONFIRMED", "FAILED", "EXPIRED"}


def test_nullable_fields_say_so(document: dict[str, Any]) -> None:
    profile = success_data(document, "GET", "/api/v1/auth/me")
    assert {"type": "null"} in profile["properties"]["phone"]["anyOf"]
    assert profile["properties"]["firstName"]["type"] == "string"


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_every_parameter_and_body_has_an_example_and_ids_a_pattern(document: dict[str, Any], route: Any) -> None:
    op = operation(document, route.method, route.path)
    for listed in op["parameters"]:
        parameter = (
            document["components"]["parameters"][listed["$ref"].rsplit("/", 1)[1]] if "$ref" in listed else listed
        )
        assert "example" in parameter, parameter
        if parameter["name"] == "id" or (parameter["name"].endswith("Id") and parameter["name"] != "paymentTypeId"):
            assert parameter["schema"]["pattern"] == "^[0-9a-fA-F]{24}$", parameter
    if "requestBody" in op:
        body = op["requestBody"]["content"]["application/json"]
        assert body.get("example") or body.get("examples"), route  # one, or several named ones
        properties = schema_of(document, body["schema"])["properties"]
        for name, field in properties.items():
            if name.endswith("Id") and name not in ("transactionId", "organizationId", "offerId", "paymentTypeId"):
                assert field.get("pattern") == "^[0-9a-fA-F]{24}$", name


def test_constraints_are_json_schema_keywords(document: dict[str, Any]) -> None:
    text = json.dumps(document)
    for keyword in ("ge", "le", "gt", "lt"):
        assert f'"{keyword}":' not in text
    offset = next(p for p in operation(document, "GET", "/api/v1/cars")["parameters"] if p.get("name") == "offset")
    assert offset["schema"]["minimum"] == 0


def test_links_chain_the_operations(document: dict[str, Any]) -> None:
    links = operation(document, "POST", "/api/v1/auth/login")["responses"]["201"]["links"]
    me = operation(document, "GET", "/api/v1/auth/me")
    assert links["Profile"]["operationId"] == me["operationId"]
    create = operation(document, "POST", "/api/v1/transactions/create")["responses"]["200"]["links"]
    assert create["Apply"]["requestBody"]["transactionId"] == "$response.body#/data/transactionId"
    chain = [
        "/api/v2/payments/banks",
        "/api/v2/payments/banks/income-types",
        "/api/v2/payments/banks/initial-payment",
        "/api/v2/payments/banks/loan-terms",
        "/api/v2/payments/banks/refund-types",
    ]
    for step, following in itertools.pairwise(chain):
        (link,) = operation(document, "GET", step)["responses"]["200"]["links"].values()
        assert link["operationId"] == operation(document, "GET", following)["operationId"]


def codes_of(response: dict[str, Any]) -> list[str]:
    schema = response["content"]["application/json"]["schema"]
    assert schema["allOf"][0] == {"$ref": "#/components/schemas/ErrorEnvelope"}
    codes: list[str] = schema["allOf"][1]["properties"]["code"]["enum"]
    return codes


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_each_error_response_lists_its_codes_of_that_status_with_an_example(
    document: dict[str, Any], route: Any
) -> None:
    for status, response in operation(document, route.method, route.path)["responses"].items():
        if status.startswith("2"):
            continue
        codes = codes_of(response)
        assert {CODES[code].http_status() for code in codes} == {int(status)}
        example = response["content"]["application/json"]["example"]
        assert (example["statusCode"], example["data"], example["code"] in codes) == (int(status), None, True)
    error_schema = document["components"]["schemas"]["ErrorEnvelope"]
    assert set(error_schema["required"]) == {"success", "statusCode", "code", "message", "data"}
    # errors and details are left out of bodies with nothing to say: optional, never null, no default
    for optional in ("errors", "details"):
        assert "default" not in error_schema["properties"][optional]
        assert "null" not in json.dumps(error_schema["properties"][optional])


class Car(BaseModel):
    name: str


class CarBody(BaseModel):
    name: str


def test_what_a_route_declares_itself_wins_and_gets_the_envelope() -> None:
    # Given a route filled in later, declaring its body, a query parameter, its success and a conflict
    app = create_app(callers=callers)

    @app.post(
        "/api/v1/things/<id>",
        middlewares=[OPTIONAL_JWT],
        status_code=201,
        summary="Make a thing",
        responses={409: {"description": "taken"}},
    )
    def post_thing(id: str, body: CarBody, color: Annotated[str, Query()] = "red") -> Response[Envelope[Car]]:
        raise Conflict("PROMO_CODE_USED_UP")

    route = ApiRoute(function="Things", handler="things.app.lambda_handler", method="POST", path="/api/v1/things/{id}")
    declared = app.declaration("POST", "/api/v1/things/{id}")
    assert declared is not None
    # When the document is generated
    document = generate([(route, app, declared)])
    op = document["paths"]["/api/v1/things/{id}"]["post"]
    # Then its declarations are kept, the declared model is `data` in the envelope
    assert set(op["responses"]) == {"201", "400", "401", "403", "404", "409", "413", "415", "429", "500", "503"}
    assert schema_of(document, success_data(document, "POST", "/api/v1/things/{id}")) == schema_of(
        document, {"$ref": "#/components/schemas/Car"}
    )
    assert op["responses"]["409"]["description"] == "taken"
    assert codes_of(op["responses"]["409"]) == ["PROMO_CODE_USED_UP"]
    assert op["summary"] == "Make a thing"
    assert [p["name"] for p in op["parameters"] if "name" in p] == ["id", "color"]
    assert op["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CarBody"}
    assert op["security"] == [{}, {"bearerAuth": []}]
    assert op["tags"] == ["Things"]
