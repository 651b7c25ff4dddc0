"""`python -m ops openapi` (`make openapi`): the one OpenAPI 3 document of the API, written to openapi.json.

Everything is derived from the code, so the document is regenerated, never edited:
- the functions and their routes: template.yaml, each function's resolver (`functions/<group>/app.py`)
  and the declarations it records (`edge.app.RouteDeclaration`);
- paths, parameters, request bodies and each success response with its `data` model: what the routes
  declare (signature, return annotation `Response[Envelope[Model]]`, `status_code=`, `summary=`),
  through `app.get_openapi_json_schema()` of every resolver, merged with Powertools' `OpenAPIMerge`;
- security and 401: the route's access level;
- a route's own error statuses: its `responses=`;
- the common headers, the error statuses every route can meet, request examples (from the seeded demo
  data) and the links between operations: here and in `ops.openapi_examples`.
"""

from __future__ import annotations

import importlib
import json
import re
import tomllib
from http import HTTPStatus
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge

from edge import idempotency
from edge.access import JWT, MAX_HEADER_LENGTH, PUBLIC
from edge.app import ApiResolver, RouteDeclaration
from edge.envelope import Envelope
from local.template import ROOT, ApiRoute, api_routes
from ops.openapi_examples import BODY_EXAMPLES, LINKS, NAMED_BODY_EXAMPLES, PARAMETER_EXAMPLES, PATH_ID_EXAMPLES

JSON = "application/json"
DOCUMENT = ROOT / "openapi.json"
SCHEMA_REF = "#/components/schemas/{model}"
# Powertools documents FastAPI-style 422 errors and its response validation error; this API answers
# 400 for bad input and 500 for a response that breaks its model, both in its own envelope.
POWERTOOLS_ONLY_SCHEMAS = ("HTTPValidationError", "ValidationError", "ResponseValidationError")


def _error_example(status: int, message: str, **extra: Any) -> dict[str, Any]:
    return {"success": False, "statusCode": status, "message": message, "data": None, **extra}


# docs/INTERFACE.md, Statuses: status -> (component name, when, example body)
ERRORS: dict[int, tuple[str, str, dict[str, Any]]] = {
    400: (
        "BadRequest",
        "Missing `User-Agent`, `fingerprint` or `client` header, or invalid path, query or body",
        _error_example(
            400,
            "Validation failed: body.phone: must be an international number with country prefix, e.g. +998901234567",
            errors=[{"field": "body.phone", "message": "must be an international number with country prefix"}],
        ),
    ),
    401: (
        "Unauthorized",
        "Access token missing, invalid or expired (or an invalid refresh token)",
        _error_example(401, "Authorization header with a Bearer access token is required"),
    ),
    403: ("Forbidden", "The `client` header is not an active partner key", _error_example(403, "Unknown client")),
    404: ("NotFound", "The resource does not exist (or is not the caller's)", _error_example(404, "Not found")),
    409: (
        "Conflict",
        "State conflict, e.g. the price changed or the order is not payable",
        _error_example(409, "Price has changed", details={"currentPrice": 410000000}),
    ),
    413: (
        "PayloadTooLarge",
        "Body over 64 KB (over any body the route takes), or over 10 MB at the gateway",
        _error_example(413, "Request body is larger than this route takes (64 KB)"),
    ),
    415: (
        "UnsupportedMediaType",
        "A body that is not `application/json`",
        _error_example(415, "Unsupported Content-Type: send the body as application/json"),
    ),
    429: (
        "TooManyRequests",
        "Rate limit (logins, OTP attempts and resends, API throttling); `Retry-After` says when to retry",
        _error_example(429, "Too many requests"),
    ),
    500: (
        "InternalServerError",
        "Unexpected error; details only in the logs",
        _error_example(500, "Internal server error"),
    ),
    503: (
        "ServiceUnavailable",
        "A dependency (the database) is unreachable",
        _error_example(503, "Service temporarily unavailable, try again later"),
    ),
}
# Any request can meet these: the gate (400, 403), API Gateway throttling (429), failures (500, 503).
EVERY_ROUTE_ERRORS = (400, 403, 429, 500, 503)

HEADERS: dict[str, dict[str, Any]] = {
    "UserAgent": {
        "name": "User-Agent",
        "in": "header",
        "required": True,
        "description": "The calling app.",
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_HEADER_LENGTH},
        "example": "CarRetailApp/2.3.0 (Android 14)",
    },
    "Fingerprint": {
        "name": "fingerprint",
        "in": "header",
        "required": True,
        "description": "Device fingerprint; saved cars are kept per fingerprint.",
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_HEADER_LENGTH},
        "example": "device-7f3a9c21",
    },
    "Client": {
        "name": "client",
        "in": "header",
        "required": True,
        "description": "Partner key; 403 when it is not an active partner. Local seed: `demo-partner-key`.",
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_HEADER_LENGTH},
        "example": "demo-partner-key",
    },
    "AcceptLanguage": {
        "name": "accept-language",
        "in": "header",
        "required": False,
        "description": "`ru`, `uz` or `en` (a header like `ru-RU,ru;q=0.9` picks `ru`); anything else gives `uz`.",
        "schema": {"type": "string", "default": "uz"},
        "example": "ru",
    },
}

# Only on the routes that take it (the IDEMPOTENT route middleware).
IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": idempotency.HEADER,
    "in": "header",
    "required": False,
    "description": (
        "A UUID chosen by the client for this request: a retry with the same key and body answers the first "
        "answer (with `Idempotent-Replayed: true`) without doing it again; the same key with another body is "
        "409; while the first is still running, 409 with `Retry-After`. Keys are per caller and live 24 h."
    ),
    "schema": {"type": "string", "format": "uuid"},
    "example": "5f0c6a3e-8d1b-4c47-9a57-2f3e8b1d6c90",
}


def envelope_schemas() -> dict[str, Any]:
    """ErrorEnvelope (and FieldError): the envelope model with `data: null`."""
    schema = Envelope[None].model_json_schema(ref_template=SCHEMA_REF, mode="serialization")
    definitions: dict[str, Any] = schema.pop("$defs", {})
    schema["title"] = "ErrorEnvelope"
    schema["properties"]["success"] = {"const": False, "title": "Success", "description": "false for errors"}
    return {**definitions, "ErrorEnvelope": schema}


ACCESS_TEXT = {"public": "Public", "jwt": "JWT", "optional_jwt": "Optional JWT"}


def resolver_routes() -> list[tuple[ApiRoute, ApiResolver, RouteDeclaration]]:
    """(template route, resolver, the route's declaration) for every Api event of the template."""
    found = []
    for route in api_routes():
        app: ApiResolver = importlib.import_module(route.handler.rpartition(".")[0]).app
        declared = app.declaration(route.method, route.path)
        if declared is None:
            raise LookupError(f"{route.method} {route.path} is in template.yaml but not in {route.handler}")
        found.append((route, app, declared))
    return found


def _version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def _readable_names(document: dict[str, Any]) -> dict[str, Any]:
    """Powertools names a generic model's component `Envelope_TokensResponse_`; name it by its title
    (`TokensResponse`, `CarListItemPage`) where that name is free."""
    schemas = document["components"]["schemas"]
    renames = {}
    for name, schema in schemas.items():
        title = schema.get("title")
        if title and title != name and re.fullmatch(r"\w+", title) and title not in schemas:
            renames[name] = title
    text = json.dumps(document)
    for old, new in renames.items():
        text = text.replace(f'"{SCHEMA_REF.format(model=old)}"', f'"{SCHEMA_REF.format(model=new)}"')
    renamed: dict[str, Any] = json.loads(text)
    renamed["components"]["schemas"] = {
        renames.get(name, name): schema for name, schema in renamed["components"]["schemas"].items()
    }
    return renamed


def _error_response(code: int, when: str | None) -> dict[str, Any]:
    if when is None and code in ERRORS:
        return {"$ref": f"#/components/responses/{ERRORS[code][0]}"}
    content: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}
    if code in ERRORS:
        content["example"] = ERRORS[code][2]
    return {"description": when or HTTPStatus(code).phrase, "content": {JSON: content}}


# Powertools writes pydantic's constraint names for a parameter that also has a validator (`offset`).
CONSTRAINT_KEYWORDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}


def _parameters(operation: dict[str, Any], path: str) -> None:
    """Each parameter with its example, and its constraints in JSON Schema's words."""
    for parameter in operation.get("parameters", []):
        name = parameter.get("name")
        example = PATH_ID_EXAMPLES.get(path) if name == "id" else PARAMETER_EXAMPLES.get(name)
        schema = parameter.get("schema", {})
        if example is None:
            example = schema.get("default")
        if example is not None and "example" not in parameter:
            parameter["example"] = example
        for keyword, json_schema_keyword in CONSTRAINT_KEYWORDS.items():
            if keyword in schema:
                schema.setdefault(json_schema_keyword, schema.pop(keyword))


def _enrich_operation(operation: dict[str, Any], route: ApiRoute, declared: RouteDeclaration) -> None:
    success = {code: response for code, response in operation["responses"].items() if code.startswith("2")}
    errors: dict[int, str | None] = dict.fromkeys(EVERY_ROUTE_ERRORS)
    if declared.access is not PUBLIC:
        errors[401] = None
        operation["security"] = [{"bearerAuth": []}] if declared.access is JWT else [{}, {"bearerAuth": []}]
    if "{" in route.path:
        errors[404] = None
    if "requestBody" in operation:
        errors |= {413: None, 415: None}
        example = BODY_EXAMPLES.get((route.method, route.path))
        named = NAMED_BODY_EXAMPLES.get((route.method, route.path))
        if named is not None:
            operation["requestBody"]["content"][JSON]["examples"] = {
                name: {"summary": summary, "value": value} for name, (summary, value) in named.items()
            }
        elif example is not None:
            operation["requestBody"]["content"][JSON]["example"] = example
    errors |= {code: when or None for code, when in declared.errors.items() if code >= 400}
    idempotent = idempotency.IDEMPOTENT in declared.middlewares
    if idempotent:
        # the key reused with another body, or its first request still running
        errors.setdefault(409, None)
    operation["responses"] = success | {str(code): _error_response(code, errors[code]) for code in sorted(errors)}

    header_refs = [{"$ref": f"#/components/parameters/{name}"} for name in HEADERS]
    if idempotent:
        header_refs.append({"$ref": "#/components/parameters/IdempotencyKey"})
    _parameters(operation, route.path)
    operation["parameters"] = header_refs + operation.get("parameters", [])
    operation["tags"] = [route.function]
    if operation.get("summary") == f"{route.method} {route.path}":  # Powertools' default: the path again
        doc_line = (declared.func.__doc__ or "").strip().split("\n")[0]
        operation["summary"] = doc_line or declared.func.__name__.replace("_", " ").capitalize()
    access = ACCESS_TEXT[declared.access.name]
    operation["description"] = "\n\n".join(filter(None, [f"Access: **{access}**.", operation.get("description")]))


def _add_links(paths: dict[str, Any]) -> None:
    """The links of `ops.openapi_examples.LINKS` on each success response, naming the target's operationId."""
    for (method, path), links in LINKS.items():
        operation = paths.get(path, {}).get(method.lower())
        if operation is None:
            continue
        resolved = {}
        for name, link in links.items():
            target_method, target_path = link["target"]
            target = paths[target_path][target_method.lower()]
            resolved[name] = {"operationId": target["operationId"]} | {
                key: value for key, value in link.items() if key != "target"
            }
        for code, response in operation["responses"].items():
            if code.startswith("2"):
                response["links"] = resolved


def _error_responses() -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for status, (name, when, example) in ERRORS.items():
        response: dict[str, Any] = {
            "description": when,
            "content": {JSON: {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}, "example": example}},
        }
        if status == 429:
            response["headers"] = {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}}
        responses[name] = response
    return responses


def generate(routes: list[tuple[ApiRoute, ApiResolver, RouteDeclaration]] | None = None) -> dict[str, Any]:
    """The document of `routes` (template route, resolver, declaration); all of the template's by default."""
    routes = routes if routes is not None else resolver_routes()
    merge = OpenAPIMerge(on_conflict="error")
    for app in {id(app): app for _, app, _ in routes}.values():
        merge.add_schema(json.loads(app.get_openapi_json_schema()))
    merged = merge.get_openapi_schema()
    schemas: dict[str, Any] = merged.get("components", {}).get("schemas", {})
    for name in POWERTOOLS_ONLY_SCHEMAS:
        schemas.pop(name, None)
    schemas.update(envelope_schemas())
    for route, _, declared in routes:
        _enrich_operation(merged["paths"][route.path][route.method.lower()], route, declared)
    _add_links(merged["paths"])
    return _readable_names(
        {
            "openapi": merged["openapi"],
            "info": {
                "title": "Car Retail API",
                "version": _version(),
                "description": (
                    "Car retail for Uzbekistan: sign-in, catalog, financing, orders, card payment by OTP.\n\n"
                    "Every request carries `User-Agent`, `fingerprint` and `client` (the partner key). "
                    "Every JSON response is the envelope `{success, statusCode, message, data}`; errors have "
                    "`data: null` and validation errors add `errors: [{field, message}]`."
                ),
            },
            "servers": [
                {"url": "/", "description": "this server (make run: http://127.0.0.1:3000)"},
                {
                    "url": "https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}",
                    "description": "a deployed stage (ApiUrl output of the stack)",
                    "variables": {
                        "restApiId": {"default": "restApiId"},
                        "region": {"default": "eu-central-1"},
                        "stage": {"default": "dev", "enum": ["dev", "staging", "prod"]},
                    },
                },
            ],
            "tags": [{"name": name} for name in dict.fromkeys(route.function for route, _, _ in routes)],
            "paths": merged["paths"],
            "components": {
                "schemas": schemas,
                "parameters": HEADERS | {"IdempotencyKey": IDEMPOTENCY_KEY},
                "responses": _error_responses(),
                "securitySchemes": {
                    "bearerAuth": {
                        "type": "http",
                        "scheme": "bearer",
                        "bearerFormat": "JWT",
                        "description": "The access token from login or refresh-token",
                    }
                },
            },
        }
    )


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(path: Path = DOCUMENT) -> Path:
    path.write_text(render(generate()), encoding="utf-8")
    return path


def operations(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(METHOD, path) of every operation of a document."""
    methods = re.compile(r"^(get|put|post|delete|options|head|patch|trace)$")
    return {(m.upper(), path) for path, item in document["paths"].items() for m in item if methods.match(m)}
