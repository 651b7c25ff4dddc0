"""`python -m ops openapi` (`make openapi`): the one OpenAPI 3 document of the API, written to openapi.json.

Everything is derived from the code, so the document is regenerated, never edited:
- the functions and their routes: template.yaml, each function's resolver (`functions/<group>/app.py`);
- paths, path and query parameters, request bodies: `app.get_openapi_schema()` of every resolver,
  merged with Powertools' `OpenAPIMerge`;
- security and 401: the route's access marker (`common.access.route_access`);
- the envelope, the common headers and the error statuses of docs/INTERFACE.md: here;
- success status, `data` schema and a route's own errors: what the route declares (`responses=`,
  `status_code=`, a return annotation), else `ops.openapi_data.ROUTE_RESPONSES`.
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
from pydantic import BaseModel

from common import idempotency
from common.access import JWT, MAX_HEADER_LENGTH, route_access
from local.template import ROOT, ApiRoute, api_routes
from ops.openapi_data import JSON, ROUTE_RESPONSES, RouteResponse, data_example, data_schema

DOCUMENT = ROOT / "openapi.json"
# The `data` shapes of ops.openapi_data are named `<Model>Data`, apart from the resolvers' own models.
DATA_SCHEMA_REF = "#/components/schemas/{model}Data"
# Powertools documents FastAPI-style 422 errors; this API answers 400 in its own envelope.
POWERTOOLS_ONLY_SCHEMAS = ("HTTPValidationError", "ValidationError", "ResponseValidationError")
POWERTOOLS_VALIDATION_STATUS = 422


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
    413: ("PayloadTooLarge", "Body over 10 MB", _error_example(413, "Request body is larger than 10 MB")),
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

ENVELOPE_SCHEMAS: dict[str, dict[str, Any]] = {
    "Envelope": {
        "type": "object",
        "description": "Every JSON response: `data` is the payload, null on errors.",
        "required": ["success", "statusCode", "message", "data"],
        "properties": {
            "success": {"type": "boolean"},
            "statusCode": {"type": "integer", "description": "the HTTP status"},
            "message": {"type": "string"},
            "data": {},
        },
    },
    "ErrorEnvelope": {
        "allOf": [
            {"$ref": "#/components/schemas/Envelope"},
            {
                "type": "object",
                "properties": {
                    "success": {"const": False},
                    "data": {"type": "null"},
                    "errors": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}},
                    "details": {"type": "object", "description": "facts of a conflict, e.g. the current price"},
                },
            },
        ]
    },
    "FieldError": {
        "type": "object",
        "required": ["field", "message"],
        "properties": {
            "field": {"type": "string", "examples": ["body.price", "query.limit", "header.client"]},
            "message": {"type": "string"},
        },
    },
}

ACCESS_TEXT = {None: "Public", "jwt": "JWT", "optional_jwt": "Optional JWT"}


def resolver_routes() -> list[tuple[ApiRoute, Any, Any]]:
    """(template route, resolver, resolver route) for every Api event of the template."""
    apps = {route.handler: importlib.import_module(route.handler.rpartition(".")[0]).app for route in api_routes()}
    found = []
    for route in api_routes():
        app = apps[route.handler]
        for candidate in app._static_routes + app._dynamic_routes:
            if candidate.method == route.method and candidate.openapi_path == route.path:
                found.append((route, app, candidate))
                break
        else:
            raise LookupError(f"{route.method} {route.path} is in template.yaml but not in {route.handler}")
    return found


def _version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


class _Components:
    """Collects the component schemas of `data` models as they are referenced."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas

    def ref(self, model: type[BaseModel]) -> dict[str, Any]:
        schema = model.model_json_schema(ref_template=DATA_SCHEMA_REF)
        for name, definition in {**schema.pop("$defs", {}), model.__name__: schema}.items():
            if self.schemas.setdefault(f"{name}Data", definition) != definition:
                raise ValueError(f"two different schemas are named {name}Data")
        return {"$ref": DATA_SCHEMA_REF.format(model=model.__name__)}


def _declared_success(operation: dict[str, Any], route: Any) -> tuple[int, dict[str, Any] | None] | None:
    """The 2xx status (and `data` schema) a route declares itself: responses=, status_code=, return annotation."""
    responses = operation["responses"]
    successes = sorted(int(code) for code in responses if 200 <= int(code) < 300)
    for code in successes:
        schema = responses[str(code)].get("content", {}).get(JSON, {}).get("schema")
        if schema:
            return code, schema
    if successes and (route.responses or route.status_code != 200):
        return successes[0], None
    return None


def _error_response(code: int) -> dict[str, Any]:
    if code in ERRORS:
        return {"$ref": f"#/components/responses/{ERRORS[code][0]}"}
    schema = {"$ref": "#/components/schemas/ErrorEnvelope"}
    return {"description": HTTPStatus(code).phrase, "content": {JSON: {"schema": schema}}}


def _success_response(
    status: int, data: dict[str, Any], doc: RouteResponse, example: dict[str, Any] | None
) -> dict[str, Any]:
    if doc.media_type != JSON:
        return {
            "description": "Sent as it is, without the envelope",
            "content": {doc.media_type: {"schema": {"type": "string"}}},
        }
    schema = {
        "allOf": [
            {"$ref": "#/components/schemas/Envelope"},
            {
                "type": "object",
                "properties": {"success": {"const": True}, "statusCode": {"const": status}, "data": data},
            },
        ]
    }
    content: dict[str, Any] = {"schema": schema}
    if example is not None:
        content["example"] = {"success": True, "statusCode": status, "message": doc.message, "data": example}
    return {"description": doc.message, "content": {JSON: content}}


def _enrich_operation(operation: dict[str, Any], route: ApiRoute, resolved: Any, components: _Components) -> None:
    doc = ROUTE_RESPONSES.get((route.method, route.path), RouteResponse())
    status, data = _declared_success(operation, resolved) or (doc.status, None)
    example = None
    if data is None:
        data, example = data_schema(doc.data, components.ref), data_example(doc.data)
    policy = route_access(resolved)

    declared_errors = {int(code) for code in operation["responses"] if int(code) >= 300}
    errors = set(EVERY_ROUTE_ERRORS) | set(doc.errors) | (declared_errors - {POWERTOOLS_VALIDATION_STATUS})
    if policy is not None:
        errors.add(401)
        operation["security"] = [{"bearerAuth": []}] if policy is JWT else [{}, {"bearerAuth": []}]
    if "{" in route.path:
        errors.add(404)
    if "requestBody" in operation:
        errors |= {413, 415}
    idempotent = idempotency.IDEMPOTENT in resolved.middlewares
    if idempotent:
        errors.add(409)  # the key reused with another body, or its first request still running
    operation["responses"] = {str(status): _success_response(status, data, doc, example)} | {
        str(code): _error_response(code) for code in sorted(errors)
    }

    header_refs = [{"$ref": f"#/components/parameters/{name}"} for name in HEADERS]
    if idempotent:
        header_refs.append({"$ref": "#/components/parameters/IdempotencyKey"})
    operation["parameters"] = header_refs + operation.get("parameters", [])
    operation["tags"] = [route.function]
    if operation.get("summary") == f"{route.method} {route.path}":  # Powertools' default: the path again
        doc_line = (resolved.func.__doc__ or "").strip().split("\n")[0]
        operation["summary"] = doc_line or resolved.func.__name__.replace("_", " ").capitalize()
    access = ACCESS_TEXT[policy.name if policy else None]
    operation["description"] = "\n\n".join(filter(None, [f"Access: **{access}**.", operation.get("description")]))


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


def generate(routes: list[tuple[ApiRoute, Any, Any]] | None = None) -> dict[str, Any]:
    """The document of `routes` (template route, resolver, resolver route); all of the template's by default."""
    routes = routes if routes is not None else resolver_routes()
    merge = OpenAPIMerge(on_conflict="error")
    for app in {id(app): app for _, app, _ in routes}.values():
        merge.add_schema(json.loads(app.get_openapi_json_schema()))
    merged = merge.get_openapi_schema()
    schemas: dict[str, Any] = merged.get("components", {}).get("schemas", {})
    for name in POWERTOOLS_ONLY_SCHEMAS:
        schemas.pop(name, None)
    schemas.update(ENVELOPE_SCHEMAS)
    components = _Components(schemas)
    for route, _, resolved in routes:
        _enrich_operation(merged["paths"][route.path][route.method.lower()], route, resolved, components)
    return {
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


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(path: Path = DOCUMENT) -> Path:
    path.write_text(render(generate()), encoding="utf-8")
    return path


def operations(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(METHOD, path) of every operation of a document."""
    methods = re.compile(r"^(get|put|post|delete|options|head|patch|trace)$")
    return {(m.upper(), path) for path, item in document["paths"].items() for m in item if methods.match(m)}
