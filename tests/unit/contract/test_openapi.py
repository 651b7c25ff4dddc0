"""openapi.json is the document the code generates, and it says what the resolvers do."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.models import OpenAPI
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from core.errors import Conflict
from domain.identity import callers
from domain.identity.provider import CodeRejected
from domain.identity.sandbox import SandboxIdentityProvider
from edge.access import OPTIONAL_JWT
from edge.app import create_app
from edge.envelope import Envelope
from edge.error_codes import CODES
from local.template import ROOT, ApiRoute
from tests.route_table import ROUTES
from tools.openapi import DOCUMENT, generate, operations, render

COMMON: dict[str, list[str]] = {"userAgent": [], "fingerprint": [], "partnerKey": []}
ACCESS_SECURITY: dict[str, Any] = {
    "public": [COMMON],
    "jwt": [COMMON | {"bearerAuth": []}],
    "optional_jwt": [COMMON, COMMON | {"bearerAuth": []}],
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


def test_it_documents_exactly_the_routes_of_the_table(document: dict[str, Any]) -> None:
    assert operations(document) == {(r.method, r.path) for r in ROUTES}


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_every_operation_has_headers_security_and_errors_of_its_access_level(
    document: dict[str, Any], route: Any
) -> None:
    op = operation(document, route.method, route.path)
    # The common headers are security schemes every operation requires (a client sets them once), the
    # language an optional parameter
    assert op["parameters"][0] == {"$ref": "#/components/parameters/AcceptLanguage"}
    assert not [p for p in op["parameters"] if p.get("in") == "header" and p.get("required")]
    # Security and 401 follow the route's access marker
    signed_link: list[dict[str, list[str]]] = (
        [{"signedLink": []}] if route.path == "/api/v1/payments/special-offers/graph" else []
    )
    assert op.get("security") == ACCESS_SECURITY[route.access] + signed_link
    statuses = set(op["responses"])
    if route.access != "public":
        assert "401" in statuses
    # Errors every request can meet, never Powertools' 422
    assert {"400", "403", "429", "500", "503"} <= statuses
    assert "422" not in statuses
    # Exactly one success response, but the login's: signed in (201), or a code sent by SMS (202)
    successes = sorted(s for s in statuses if s.startswith("2"))
    assert successes == (["201", "202"] if route.path == "/api/v1/auth/login" else successes[:1])


def test_public_routes_document_401_only_where_the_spec_gives_it(document: dict[str, Any]) -> None:
    with_401 = {
        (r.method, r.path)
        for r in ROUTES
        if r.access == "public" and "401" in operation(document, r.method, r.path)["responses"]
    }
    # The refresh token, and an `assertion` partner's login without a valid assertion
    assert with_401 == {("POST", "/api/v1/auth/refresh-token"), ("POST", "/api/v1/auth/login")}


def schema_of(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its `$ref` followed."""
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def success_data(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The `data` schema of an operation's JSON success response (the first, for the login's two)."""
    responses = operation(document, method, path)["responses"]
    success = next(response for code, response in sorted(responses.items()) if code.startswith("2"))
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
        ("POST", "/api/v1/sales/{carId}/entries"),
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
        if status.startswith(("2", "3")):  # successes, and a cached read's 304 (no body)
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
        operation_id="makeThing",
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
    assert set(op["responses"]) == {"201", "400", "401", "403", "409", "413", "415", "429", "500", "503"}
    assert schema_of(document, success_data(document, "POST", "/api/v1/things/{id}")) == schema_of(
        document, {"$ref": "#/components/schemas/Car"}
    )
    assert op["responses"]["409"]["description"] == "taken"
    assert codes_of(op["responses"]["409"]) == ["PROMO_CODE_USED_UP"]
    assert op["summary"] == "Make a thing"
    assert [p["name"] for p in op["parameters"] if "name" in p] == ["id", "color"]
    assert op["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CarBody"}
    assert op["security"] == [COMMON, COMMON | {"bearerAuth": []}]
    assert op["tags"] == ["Things"]


# Generated clients name their methods after these: a change breaks every partner's build, so it is
# made here, deliberately, with a major version (CHANGELOG.md).
OPERATION_IDS = {
    ("POST", "/api/v1/auth/login"): "login",
    ("POST", "/api/v1/auth/refresh-token"): "refreshToken",
    ("GET", "/api/v1/auth/me"): "getProfile",
    ("POST", "/api/v1/users/limit"): "verifyIdentity",
    ("POST", "/api/v1/users/limit/myid-session"): "startIdentitySession",
    ("GET", "/api/v1/cars"): "listCars",
    ("GET", "/api/v1/cars/{id}"): "getCar",
    ("GET", "/api/v1/cars/{id}/info"): "listCarInfoBlocks",
    ("GET", "/api/v1/cars/{id}/modifications"): "listCarModifications",
    ("GET", "/api/v1/brands"): "listBrands",
    ("GET", "/api/v1/brands/{id}"): "getBrand",
    ("GET", "/api/v1/filters/bodies"): "listBodyTypes",
    ("GET", "/api/v1/filters/powertrains"): "listPowertrains",
    ("GET", "/api/v1/filters/all"): "getCatalogFilters",
    ("GET", "/api/v1/saved-cars"): "listSavedCars",
    ("PATCH", "/api/v1/saved-cars/{id}"): "toggleSavedCar",
    ("POST", "/api/v1/sales/{carId}/entries"): "enterSaleQueue",
    ("GET", "/api/v1/sales/{carId}/entries/me"): "getMySaleEntry",
    ("GET", "/api/v1/dictionaries/branch/regions"): "listBranchRegions",
    ("GET", "/api/v1/dictionaries/branch/{id}"): "getBranch",
    ("GET", "/api/v1/dictionaries/contacts"): "getContacts",
    ("GET", "/api/v1/dictionaries/checkout-document"): "getCheckoutDocument",
    ("GET", "/api/v1/documents"): "listDocuments",
    ("GET", "/api/v1/documents/offer"): "getPublicOffer",
    ("GET", "/api/v1/documents/term-conditions"): "getTermsAndConditions",
    ("POST", "/api/v1/orders"): "createOrder",
    ("GET", "/api/v1/orders"): "listOrders",
    ("POST", "/api/v1/orders/apply-promo-code"): "checkPromoCode",
    ("GET", "/api/v1/orders/{id}"): "getOrder",
    ("GET", "/api/v1/order-logs/steps"): "listOrderSteps",
    ("GET", "/api/v1/payments/organizations"): "listOrganizations",
    ("GET", "/api/v1/payments/installment"): "listInstallmentPlans",
    ("GET", "/api/v1/payments/leasing"): "listLeasingPrograms",
    ("POST", "/api/v1/payments/leasing/calculate"): "calculateLeasing",
    ("GET", "/api/v1/payments/special-offers"): "listSpecialOffers",
    ("GET", "/api/v1/payments/special-offers/leasing"): "listSpecialLeasingOffers",
    ("GET", "/api/v1/payments/special-offers/graph"): "getSpecialOfferSchedule",
    ("GET", "/api/v2/payments/types"): "listPaymentTypes",
    ("GET", "/api/v2/payments/banks"): "listBankOffers",
    ("GET", "/api/v2/payments/banks/income-types"): "listIncomeTypes",
    ("GET", "/api/v2/payments/banks/initial-payment"): "listInitialPayments",
    ("GET", "/api/v2/payments/banks/loan-terms"): "listLoanTerms",
    ("GET", "/api/v2/payments/banks/refund-types"): "listRefundTypes",
    ("GET", "/api/v2/payments/banks/calculate"): "calculateBankCredit",
    ("GET", "/api/v1/transactions/check-card"): "checkCard",
    ("POST", "/api/v1/transactions/create"): "createCardPayment",
    ("POST", "/api/v1/transactions/apply"): "confirmCardPayment",
    ("POST", "/api/v1/transactions/resend-code"): "resendPaymentCode",
    ("GET", "/api/v1/transactions/history"): "listCardPayments",
}


def test_operation_ids_are_the_pinned_camel_case_verbs(document: dict[str, Any]) -> None:
    found = {(method, path): operation(document, method, path)["operationId"] for method, path in operations(document)}
    assert found == OPERATION_IDS
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name) for name in found.values())


def test_a_route_without_an_operation_id_cannot_be_documented() -> None:
    # Given a route that declares no operation_id
    app = create_app(callers=callers)

    @app.get("/api/v1/things", middlewares=[OPTIONAL_JWT])
    def get_things() -> Response[Envelope[Car]]:
        raise NotImplementedError

    route = ApiRoute(function="Things", handler="things.app.lambda_handler", method="GET", path="/api/v1/things")
    declared = app.declaration("GET", "/api/v1/things")
    assert declared is not None
    # When the document is generated, Then it refuses, naming the route
    with pytest.raises(ValueError, match="GET /api/v1/things: declare operation_id="):
        generate([(route, app, declared)])


SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


def changelog_entries() -> list[tuple[str, str | None]]:
    """(version, the sha256 of openapi.json it records) of each `## <version>` entry, newest first."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    entries = re.findall(r"^## (\S+)[^\n]*\n(.*?)(?=^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    return [(version, (re.findall(r"sha256 `([0-9a-f]{64})`", body) or [None])[0]) for version, body in entries]


def test_any_change_of_the_document_bumps_its_semantic_version(document: dict[str, Any]) -> None:
    entries = changelog_entries()
    version = document["info"]["version"]
    digest = hashlib.sha256(render(document).encode()).hexdigest()
    assert SEMVER.match(version), f"info.version {version} is not MAJOR.MINOR.PATCH"
    assert entries, "CHANGELOG.md has no `## <version>` entry"
    newest, recorded = entries[0]
    assert newest == version, f"CHANGELOG.md's newest entry is {newest}, openapi.json says {version}"
    assert recorded == digest, (
        f"openapi.json changed but info.version is still {version}: bump `version` in pyproject.toml "
        "(major: a breaking change; minor: an addition; patch: a fix of the text), run `make openapi`, and "
        f"add a CHANGELOG.md entry `## <new version>` saying what changed, with the line "
        f"`openapi.json sha256 `<its sha256sum>``. (The document now hashes to {digest}.)"
    )
    versions = [tuple(int(part) for part in entry.split(".")) for entry, _ in entries]
    assert versions == sorted(set(versions), reverse=True), "CHANGELOG.md versions must be unique, newest first"


def test_the_identity_verification_text_names_the_sandbox_codes_it_accepts(document: dict[str, Any]) -> None:
    # Given what the document tells a partner about verifying an identity
    text = operation(document, "POST", "/api/v1/users/limit")["description"]
    # Then it does not promise that any code works, and the sandbox codes it names do
    assert "any code once" not in text
    assert "`sandbox-verified-<n>`" in text
    assert SandboxIdentityProvider().verify("sandbox-verified-7").pin
    with pytest.raises(CodeRejected):
        SandboxIdentityProvider().verify("any-code")
