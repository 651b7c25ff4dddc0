"""`python -m tools openapi` (`make openapi`): the one OpenAPI 3 document of the API, written to openapi.json.

Everything is derived from the code, so the document is regenerated, never edited:
- the functions and their routes: template.yaml, each function's resolver (`functions/<group>/app.py`)
  and the declarations it records (`edge.app.RouteDeclaration`);
- paths, parameters, request bodies and each success response with its `data` model: what the routes
  declare (signature, return annotation `Response[Envelope[Model]]`, `status_code=`, `summary=`),
  through `app.get_openapi_json_schema()` of every resolver, merged with Powertools' `OpenAPIMerge`;
- security and 401: the route's access level;
- a route's own error statuses: its `responses=`;
- the common headers, the error statuses every route can meet, request examples (from the seeded demo
  data) and the links between operations: here and in `tools.openapi_examples`.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import tomllib
from http import HTTPStatus
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge

from core.locale import LOCALES
from edge import idempotency
from edge.access import MAX_HEADER_LENGTH, AccessPolicy
from edge.app import CONTENT_LANGUAGE, REQUEST_ID, ApiResolver, RouteDeclaration
from edge.error_codes import CODES
from edge.error_envelope import ErrorEnvelope
from local.template import ROOT, ApiRoute, api_routes
from tools.error_reach import CodeBase, code_base, qualified_name
from tools.openapi_examples import (
    BODY_EXAMPLES,
    LINKS,
    NAMED_BODY_EXAMPLES,
    PARAMETER_EXAMPLES,
    PATH_ID_EXAMPLES,
    ROUTE_PARAMETER_EXAMPLES,
)

JSON = "application/json"
DOCUMENT = ROOT / "openapi.json"
SCHEMA_REF = "#/components/schemas/{model}"
# Powertools documents FastAPI-style 422 errors and its response validation error; this API answers
# 400 for bad input and 500 for a response that breaks its model, both in its own envelope.
POWERTOOLS_ONLY_SCHEMAS = ("HTTPValidationError", "ValidationError", "ResponseValidationError")


# docs/INTERFACE.md, Statuses: when each error status is answered. The codes of each operation's error
# responses (an enum on `code`) are what its code can raise (`tools.error_reach`).
ERRORS: dict[int, str] = {
    400: "Invalid path, query, header or body, or a refusal of the input (see `code`)",
    401: "Access token missing, invalid or expired (or an invalid refresh token)",
    403: "The `client` header is not an active partner key",
    404: "The resource does not exist (or is not the caller's)",
    409: "State conflict, e.g. the price changed or the order is not payable",
    413: "Body over 10 MB, or holding more than the route takes: nested deeper or with more JSON tokens than its "
    "schema and a small allowance for undeclared properties (`BODY_TOO_LARGE` says how much)",
    415: "A body that is not `application/json`",
    429: "Rate limit (logins, OTP attempts and resends, API throttling); `Retry-After` says when to retry",
    500: "Unexpected error; details only in the logs",
    503: "A dependency (the database, a partner) is unreachable or busy",
}
# Every request can meet these: failures (500, 503), API Gateway's throttling (429), a query parameter the
# route does not declare (400).
EVERY_ROUTE_CODES = ("INTERNAL_ERROR", "SERVICE_UNAVAILABLE", "TOO_MANY_REQUESTS", "QUERY_PARAMETER_UNKNOWN")
# What the gate answers besides its token checks (`edge.access.check_request`), and a body's checks.
GATE = "edge.access.check_request"
AUTHENTICATE = ("edge.access.AccessPolicy.authenticate", "domain.identity.callers.verify_access_token")
# The gate's checks of a body, and the resolver's parser of it (its `json_body_deserializer`).
BODY = ("edge.access.require_json_body", "edge.access.parse_json_body")

# The common headers every request carries (edge.access.REQUIRED_HEADERS), declared once as security
# schemes that every operation requires: a generated client sets them once, not on every call.
COMMON_HEADER_SCHEMES: dict[str, dict[str, Any]] = {
    "userAgent": {
        "type": "apiKey",
        "in": "header",
        "name": "User-Agent",
        "description": f"The calling app, any non-empty value of at most {MAX_HEADER_LENGTH} characters "
        "(browsers and HTTP libraries send one of their own). Missing: 400.",
    },
    "fingerprint": {
        "type": "apiKey",
        "in": "header",
        "name": "fingerprint",
        "description": f"A stable id of the device, at most {MAX_HEADER_LENGTH} characters; saved cars are kept "
        "per fingerprint. Missing: 400.",
    },
    "partnerKey": {
        "type": "apiKey",
        "in": "header",
        "name": "client",
        "description": "The partner key the operator issued to the app (local seed: `demo-partner-key`). "
        "Missing: 400; not an active partner key: 403.",
    },
}
COMMON: dict[str, list[str]] = {name: [] for name in COMMON_HEADER_SCHEMES}
ACCESS_SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "public": [COMMON],
    "jwt": [COMMON | {"bearerAuth": []}],
    "optional_jwt": [COMMON, COMMON | {"bearerAuth": []}],
}

ACCEPT_LANGUAGE: dict[str, Any] = {
    "name": "accept-language",
    "in": "header",
    "required": False,
    "description": "`ru`, `uz` or `en` (a header like `ru-RU,ru;q=0.9` picks `ru`); anything else gives `uz`.",
    "schema": {"type": "string", "default": "uz"},
    "example": "en",
}

# What Swagger UI's reader must do before "Try it out": the common headers are security schemes, filled once.
TRY_IT_OUT = (
    "**Trying it here** (Swagger UI; `make run` serves it at http://127.0.0.1:3000/api/docs): click "
    "**Authorize** first and fill the headers every request needs: `User-Agent` (any name of your app; a "
    "browser sends its own), `fingerprint` (any device id, e.g. `swagger`) and `client` (the partner key: "
    "`demo-partner-key` on `make run`). For a route marked **JWT**, also fill `bearerAuth` with the `accessToken` that "
    "`POST /api/v1/auth/login` answers (the demo user: `+998901234567`). Without them, every request is 400."
)

# What every answer carries, success or error (edge.app.lambda_entry).
EVERY_ANSWER_HEADERS: dict[str, Any] = {
    CONTENT_LANGUAGE: {
        "description": "The language of the answer's messages and texts: the one `accept-language` picked",
        "schema": {"type": "string", "enum": list(LOCALES)},
    },
    REQUEST_ID: {
        "description": "The request's id (API Gateway's, also its `x-amzn-RequestId` when deployed): quote it to "
        "support; an `INTERNAL_ERROR` names it in its message and `details.requestId`",
        "schema": {"type": "string"},
    },
}

EVERY_ANSWER_HEADER_REFS = {name: {"$ref": f"#/components/headers/{name}"} for name in EVERY_ANSWER_HEADERS}

# The routes that count against a rate limit (data.rate_limit): logins, card payments started.
RATE_LIMITED = ("login", "createCardPayment")
RATE_LIMIT_HEADERS: dict[str, Any] = {
    "RateLimit-Limit": {"description": "requests allowed in the window", "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "requests left in the window", "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "seconds until the window ends", "schema": {"type": "integer"}},
}
# The reads of the catalog and the dictionaries (create_app(reads_cache_control=...), edge.caching).
CACHE_HEADERS: dict[str, Any] = {
    "ETag": {"description": "the answer's version: send it back as `If-None-Match`", "schema": {"type": "string"}},
    "Cache-Control": {"description": "how long the app may reuse the answer unasked", "schema": {"type": "string"}},
}
NOT_MODIFIED = "Not modified: the `If-None-Match` ETag is still the answer's; reuse the copy (no body)"
IF_NONE_MATCH: dict[str, Any] = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of the copy the app holds: 304 without a body while it is current.",
    "schema": {"type": "string"},
    "example": 'W/"3f7a9c21d0b84e6fa1c2d3e4f5a6b7c8"',
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
    """ErrorEnvelope and FieldError."""
    schema = ErrorEnvelope.model_json_schema(ref_template=SCHEMA_REF, mode="serialization")
    definitions: dict[str, Any] = schema.pop("$defs", {})
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


def route_codes(operation: dict[str, Any], declared: RouteDeclaration) -> dict[int, list[str]]:
    """The codes an operation can answer, by status: what its handler and its middlewares raise, the
    gate's and the access level's, the body's checks, validation, and what any request can meet."""
    handler = qualified_name(declared.func)
    defined_in = Path(inspect.getsourcefile(declared.func) or "")
    reach = code_base() if handler in code_base().units else code_base(defined_in)
    codes = reach.codes([handler])
    codes |= reach.codes(_middleware_units(declared)) | reach.codes([GATE]) - reach.codes(AUTHENTICATE[:1])
    codes |= access_codes(declared.access, reach)
    if "requestBody" in operation:
        codes |= reach.codes(BODY) | {"PAYLOAD_TOO_LARGE", "VALIDATION_FAILED"}  # the gateway answers the first too
    parameters = operation.get("parameters", [])
    if any(parameter.get("in") != "header" for parameter in parameters):
        codes.add("VALIDATION_FAILED")
    if declared.access.signed_link:
        codes.add("LINK_INVALID_OR_EXPIRED")
    codes |= set(EVERY_ROUTE_CODES)
    # The route's own codes first: the first of a status is its example.
    generic = reach.codes([GATE, *BODY, *AUTHENTICATE]) | set(EVERY_ROUTE_CODES) | {"VALIDATION_FAILED"}
    by_status: dict[int, list[str]] = {}
    for code in sorted(codes, key=lambda code: (code in generic, code != "VALIDATION_FAILED", code)):
        by_status.setdefault(CODES[code].http_status(), []).append(code)
    return dict(sorted(by_status.items()))


def access_codes(access: AccessPolicy, reach: CodeBase) -> set[str]:
    """What the token checks of an access level can answer, read from the level's own flags, never from
    which of the module's policies it is: a policy built with the same flags (JWT_OR_SIGNED_LINK, a JWT
    route that also opens by a signed link) answers the same codes."""
    if not access.token_accepted:
        return set()  # a public route ignores the Authorization header
    authenticating = reach.codes(AUTHENTICATE)
    return authenticating if access.token_required else authenticating - {"TOKEN_MISSING"}


def _middleware_units(declared: RouteDeclaration) -> list[str]:
    return [f"{type(item).__module__}.{type(item).__qualname__}" for item in declared.middlewares]


def _error_response(status: int, codes: list[str], when: str | None) -> dict[str, Any]:
    """An error status of one operation: the envelope whose `code` is one of `codes`, with an example."""
    code = codes[0]
    codes = sorted(codes)
    template = CODES[code].en
    example: dict[str, Any] = {
        "success": False,
        "statusCode": status,
        "message": template.format_map({name: f"<{name}>" for name in CODES[code].params()}),
        "data": None,
        "code": code,
    }
    schema = {"allOf": [{"$ref": "#/components/schemas/ErrorEnvelope"}, {"properties": {"code": {"enum": codes}}}]}
    response: dict[str, Any] = {
        "description": when or ERRORS.get(status) or HTTPStatus(status).phrase,
        "content": {JSON: {"schema": schema, "example": example}},
    }
    if status in {429, 503}:
        response["headers"] = {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}}
    if status == 429:
        response["headers"] |= {
            name: header | {"description": header["description"] + " (rate-limited routes)"}
            for name, header in RATE_LIMIT_HEADERS.items()
        }
    return response


# Powertools writes pydantic's constraint names for a parameter that also has a validator (`offset`).
CONSTRAINT_KEYWORDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}


def _parameters(operation: dict[str, Any], path: str) -> None:
    """Each parameter with its example, and its constraints in JSON Schema's words."""
    for parameter in operation.get("parameters", []):
        name = parameter.get("name")
        if name == "id":
            example = PATH_ID_EXAMPLES.get(path)
        else:
            example = ROUTE_PARAMETER_EXAMPLES.get((path, name), PARAMETER_EXAMPLES.get(name))
        schema = parameter.get("schema", {})
        if example is None:
            example = schema.get("default")
        if example is not None and "example" not in parameter:
            parameter["example"] = example
        for keyword, json_schema_keyword in CONSTRAINT_KEYWORDS.items():
            if keyword in schema:
                schema.setdefault(json_schema_keyword, schema.pop(keyword))


def _success_headers(success: dict[str, Any], declared: RouteDeclaration) -> None:
    """The rate-limit headers of a rate-limited route; ETag, Cache-Control and the 304 of a cached read."""
    headers = RATE_LIMIT_HEADERS if declared.operation_id in RATE_LIMITED else {}
    if declared.cache_control is not None:
        headers = headers | CACHE_HEADERS
        success["304"] = {"description": NOT_MODIFIED, "headers": CACHE_HEADERS}
    for code, response in success.items():
        if headers and code.startswith("2"):
            response["headers"] = response.get("headers", {}) | headers


def _enrich_operation(operation: dict[str, Any], route: ApiRoute, declared: RouteDeclaration) -> None:
    if declared.operation_id is None:
        raise ValueError(f"{route.method} {route.path}: declare operation_id= (a camelCase verb, e.g. listCars)")
    success = {code: response for code, response in operation["responses"].items() if code.startswith("2")}
    operation["security"] = ACCESS_SECURITY[declared.access.name] + (
        [{"signedLink": []}] if declared.access.signed_link else []
    )
    _success_headers(success, declared)
    if "requestBody" in operation:
        example = BODY_EXAMPLES.get((route.method, route.path))
        named = NAMED_BODY_EXAMPLES.get((route.method, route.path))
        if named is not None:
            operation["requestBody"]["content"][JSON]["examples"] = {
                name: {"summary": summary, "value": value} for name, (summary, value) in named.items()
            }
        elif example is not None:
            operation["requestBody"]["content"][JSON]["example"] = example
    codes = route_codes(operation, declared)
    unexplained = {status for status in declared.errors if status >= 400} - set(codes)
    if unexplained:
        raise LookupError(f"{route.method} {route.path} declares {sorted(unexplained)}, and raises no code of them")
    operation["responses"] = success | {
        str(status): _error_response(status, codes[status], declared.errors.get(status)) for status in codes
    }
    for response in operation["responses"].values():
        response["headers"] = EVERY_ANSWER_HEADER_REFS | response.get("headers", {})
    idempotent = idempotency.IDEMPOTENT in declared.middlewares

    header_refs = [{"$ref": "#/components/parameters/AcceptLanguage"}]
    if idempotent:
        header_refs.append({"$ref": "#/components/parameters/IdempotencyKey"})
    if declared.cache_control is not None:
        header_refs.append({"$ref": "#/components/parameters/IfNoneMatch"})
    _parameters(operation, route.path)
    operation["parameters"] = header_refs + operation.get("parameters", [])
    operation["tags"] = [route.function]
    if operation.get("summary") == f"{route.method} {route.path}":  # Powertools' default: the path again
        doc_line = (declared.func.__doc__ or "").strip().split("\n")[0]
        operation["summary"] = doc_line or declared.func.__name__.replace("_", " ").capitalize()
    access = ACCESS_TEXT[declared.access.name]
    operation["description"] = "\n\n".join(filter(None, [f"Access: **{access}**.", operation.get("description")]))


def _add_links(paths: dict[str, Any]) -> None:
    """The links of `tools.openapi_examples.LINKS` on each success response, naming the target's operationId."""
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
                    "`data: null` and a stable `code` (each error response lists the codes it can carry), "
                    "`message` is in the request's language (`Content-Language`), and validation errors add "
                    "`errors: [{field, code, message}]`.\n\n"
                    f"{TRY_IT_OUT}"
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
                "parameters": {
                    "AcceptLanguage": ACCEPT_LANGUAGE,
                    "IdempotencyKey": IDEMPOTENCY_KEY,
                    "IfNoneMatch": IF_NONE_MATCH,
                },
                "headers": EVERY_ANSWER_HEADERS,
                "securitySchemes": COMMON_HEADER_SCHEMES
                | {
                    "signedLink": {
                        "type": "apiKey",
                        "in": "query",
                        "name": "signature",
                        "description": "A link the server signed (the schedule's `file`): it opens as it is, "
                        "without headers or token, until its `expires`; 403 after.",
                    },
                    "bearerAuth": {
                        "type": "http",
                        "scheme": "bearer",
                        "bearerFormat": "JWT",
                        "description": "The access token from login or refresh-token",
                    },
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
