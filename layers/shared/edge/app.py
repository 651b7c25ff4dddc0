"""The resolver every function uses: its routes' declarations, the one error mapping, the request gate.

app = create_app(callers=callers)  # domain.identity.callers: what the gate asks about a caller

@app.get("/api/v1/auth/me", operation_id="getProfile", middlewares=[JWT])
def me() -> Response[Envelope[Profile]]: ...

lambda_handler = lambda_entry(app)

A route declares its access level among its middlewares (`PUBLIC`, `JWT`, `OPTIONAL_JWT`; none is JWT),
what it returns as its return annotation, its success status as `status_code=`, its own error
statuses as `responses=` and its stable name as `operation_id=` (a camelCase verb: the method name of
generated clients, so it never changes by accident; tests/unit/contract/test_openapi.py pins them).
`ApiResolver` records each declaration (`app.declarations`), which the gate enforces in
`lambda_entry`, before Powertools sees the event, and `tools.openapi` documents.
"""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from http import HTTPStatus
from types import SimpleNamespace
from typing import Any, NamedTuple

import pydantic_core
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError, ResponseValidationError
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel
from pymongo.errors import AutoReconnect, ConnectionFailure, ExecutionTimeout, NetworkTimeout

from core.errors import AppError, FieldProblem, InvalidInput
from core.locale import LOCALES, Locale, parse_accept_language
from core.observability import flush_metrics, log_keys_of_invocation, logger, metrics
from core.serialization import json_default, to_json
from core.settings import get_settings, read_settings
from data import outbox_requests, rate_limit
from edge import caching, cors, json_budget, links, responses, snapstart
from edge.access import (
    UNDECLARED,
    AccessPolicy,
    check_request,
    parse_json_body,
    refuse_unknown_query_parameters,
    require_json_body,
)
from edge.context import Callers, RequestContext, set_current, set_request_id
from edge.errors import headers_of, status_of
from edge.headers import combined, request_headers, set_headers

ROUTE_SIGNATURE = inspect.signature(APIGatewayRestResolver.route)
CONTENT_LANGUAGE = "Content-Language"
REQUEST_ID = "X-Request-Id"  # API Gateway's id of the request (its own x-amzn-RequestId), on every answer
# The context of a request before (or without) its caller, per language: immutable, so built once.
ANONYMOUS: dict[Locale, RequestContext] = {locale: RequestContext(locale=locale) for locale in LOCALES}
DATABASE_ERRORS: list[type[Exception]] = [ConnectionFailure, AutoReconnect, NetworkTimeout, ExecutionTimeout]


def _field_name(location: tuple[Any, ...]) -> str:
    # ("body", "price") -> "body.price"; a whole-body error ("body",) stays "body".
    return ".".join(str(part) for part in location)


def validation_problems(exc: RequestValidationError) -> list[FieldProblem]:
    """Each invalid input with its code (never pydantic's own English words)."""
    from edge.error_codes import field_code  # imported here, as in edge.responses: only errors read the catalogue

    problems: list[FieldProblem] = []
    for error in exc.errors():
        code, params = field_code(error)
        problems.append({"field": _field_name(tuple(error.get("loc", ()))), "code": code, "params": params})
    return problems


class RouteDeclaration(NamedTuple):
    """What a route declares: who may call it, the JSON body it takes, its success and errors."""

    method: str
    path: str  # as API Gateway names the resource: /api/v1/cars/{id}
    func: Callable[..., Any]
    access: AccessPolicy
    status_code: int
    errors: Mapping[int, str]  # the route's own error statuses -> when
    middlewares: tuple[Callable[..., Any], ...]  # the route's own middlewares, besides its access level
    operation_id: str | None  # the route's stable name in openapi.json and generated clients (`listCars`)
    cache_control: str | None  # a cached read: ETag, this Cache-Control, 304 on If-None-Match (edge.caching)

    @property
    def body(self) -> type[BaseModel] | None:
        """The model of its JSON body, if it takes one (`route_inputs`)."""
        return route_inputs(self.func, self.path)[0]

    @property
    def query_names(self) -> frozenset[str]:
        """The query parameters it declares; any other is refused (400) (`route_inputs`)."""
        return route_inputs(self.func, self.path)[1]

    @property
    def takes_body(self) -> bool:
        return self.body is not None

    @property
    def body_budget(self) -> json_budget.JsonBudget:
        """The most its bodies may nest and hold (edge.json_budget), derived from the body model's JSON
        schema on first use, not at declaration: the schema builds the model (`defer_build`) and costs ms,
        and a cold start declares every route of its function. SnapStart's warm-up derives them all."""
        if self.body is None:
            raise TypeError(f"{self.method} {self.path} takes no body")
        return json_budget.budget_of_model(self.body)


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(\w+)>", r"{\1}", rule)


@functools.cache
def route_inputs(func: Callable[..., Any], path: str) -> tuple[type[BaseModel] | None, frozenset[str]]:
    """The model of the body of the route `func` answers at `path` (the parameter typed with a pydantic
    model), and the names of its query parameters (every other parameter that is not in the path, by its
    alias when it has one). Read from the handler's annotations on first use, not at declaration: the
    apps' annotations are text, compiled to be read, and a cold start declares every route of its
    function (SnapStart's warm-up reads them all). Only the parameters' annotations are resolved:
    resolving the return annotation would build the route's generic response model (Envelope[Page[...]]);
    Powertools builds the one a request needs on first use."""
    path_names = set(re.findall(r"\{(\w+)\}", path))
    parameters = inspect.signature(func).parameters
    annotations = {name: hint for name, hint in func.__annotations__.items() if name in parameters}
    hints = typing.get_type_hints(
        SimpleNamespace(__annotations__=annotations), globalns=func.__globals__, include_extras=True
    )
    body: type[BaseModel] | None = None
    query = set()
    for name, hint in hints.items():
        bare = hint.__origin__ if typing.get_origin(hint) is typing.Annotated else hint
        if isinstance(bare, type) and issubclass(bare, BaseModel):
            if body is not None:  # Powertools would nest them under their names: no route needs that
                raise TypeError(f"{func.__qualname__}: one body model, not {body.__name__} and {bare.__name__}")
            body = bare
        elif name not in path_names:
            aliases = [
                item.alias for item in getattr(hint, "__metadata__", ()) if isinstance(item, Query) and item.alias
            ]
            query.add(aliases[0] if aliases else name)
    return body, frozenset(query)


def body_text(body: Any) -> str:
    """The JSON text of an answer's body. Powertools hands over what its response validation dumped in
    JSON mode (strings, numbers, lists, dicts), which pydantic-core writes faster than the standard
    library's encoder, and as UTF-8, where Powertools' default wrote each Cyrillic letter as a
    six-character \\u escape (docs/DECISIONS.md, "Answers are written by pydantic-core")."""
    return pydantic_core.to_json(body, fallback=json_default).decode()


class BodyWriter:
    """A resolver's serializer (`body_text`) that remembers the UTF-8 it decoded the last answer's text
    from: a cached read's ETag is a hash of those bytes (`edge.caching`), so the text is not encoded
    twice (docs/DECISIONS.md, "Cached reads")."""

    def __init__(self) -> None:
        self._last: tuple[str, bytes] = ("", b"")

    def __call__(self, body: Any) -> str:
        data = pydantic_core.to_json(body, fallback=json_default)
        text = data.decode()
        self._last = (text, data)
        return text

    def utf8(self, text: str) -> bytes:
        """`text` as UTF-8: the bytes it was decoded from when it is the last answer written (the very
        object, so another thread's answer in between only means encoding it again)."""
        last_text, data = self._last
        return data if last_text is text else text.encode()


class ApiResolver(APIGatewayRestResolver):
    """Powertools' REST resolver that records each route's declaration in `declarations`."""

    def __init__(self, callers: Callers, reads_cache_control: str | None = None) -> None:
        # A response that does not match its declared model is our bug: 500, never the caller's 400.
        super().__init__(
            enable_validation=True,
            response_validation_error_http_code=HTTPStatus.INTERNAL_SERVER_ERROR,
            serializer=(writer := BodyWriter()),
            json_body_deserializer=parse_json_body,
        )
        self.body_writer = writer
        self.declarations: dict[tuple[str, str], RouteDeclaration] = {}
        self.callers = callers
        self.reads_cache_control = reads_cache_control

    def route(self, rule: str, method: str | list[str] | tuple[str], *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        # get(), post()... call route() with every argument by position: bind them to Powertools' own
        # signature (read from the library, never copied) to find the ones a declaration needs by name.
        call = ROUTE_SIGNATURE.bind(self, rule, method, *args, **kwargs)
        call.apply_defaults()
        given = call.arguments
        middlewares = given["middlewares"] or []
        policies = [item for item in middlewares if isinstance(item, AccessPolicy)]
        if len(policies) > 1:
            raise ValueError(f"{rule}: declare one access level, not {policies}")
        access = policies[0] if policies else UNDECLARED
        route_middlewares = [item for item in middlewares if not isinstance(item, AccessPolicy)]
        responses: dict[int, OpenAPIResponse] | None = given["responses"]
        status_code: int = given["status_code"]
        errors = {code: str(response.get("description", "")) for code, response in (responses or {}).items()}
        if responses:
            # Powertools documents only `responses` once given: keep the success beside the errors.
            success: OpenAPIResponse = {"description": given["response_description"]}
            given["responses"] = {status_code: success} | responses
        given["middlewares"] = route_middlewares or None
        register = super().route(*call.args[1:], **call.kwargs)

        def declare(func: Any) -> Any:
            methods = [method] if isinstance(method, str) else list(method)
            for item in methods:
                path = _openapi_path(rule)
                self.declarations[(item.upper(), path)] = RouteDeclaration(
                    method=item.upper(),
                    path=path,
                    func=func,
                    access=access,
                    status_code=status_code,
                    errors=errors,
                    middlewares=tuple(route_middlewares),
                    operation_id=given["operation_id"],
                    cache_control=self.reads_cache_control if item.upper() == "GET" else None,
                )
            return register(func)

        return declare

    def declaration(self, method: str, resource: str) -> RouteDeclaration | None:
        return self.declarations.get((method.upper(), resource))


def create_app(*, callers: Callers, reads_cache_control: str | None = None) -> ApiResolver:
    """The resolver of one function. `callers` answers the gate's questions about a caller (partner key,
    access token, does the user exist). With `reads_cache_control` (edge.caching.READS_CACHE_CONTROL),
    its GET answers carry an ETag and that Cache-Control, and answer 304 when the client's copy is current."""
    app = ApiResolver(callers, reads_cache_control)

    @app.exception_handler(AppError)
    def handle_app_error(exc: AppError) -> Response:
        if status_of(exc) >= 500:
            logger.error("request failed", extra={"status": status_of(exc), "code": exc.code})
        return responses.refusal(exc)

    @app.exception_handler(RequestValidationError)
    def handle_validation_error(exc: RequestValidationError) -> Response:
        problems = validation_problems(exc)
        fields = ", ".join(dict.fromkeys(problem["field"] for problem in problems))
        return responses.refusal(InvalidInput("VALIDATION_FAILED", errors=problems, fields=fields))

    @app.exception_handler(ResponseValidationError)
    def handle_response_validation_error(exc: ResponseValidationError) -> Response:
        # Where and why only: the values may be tokens or personal data.
        mismatches = [{"loc": error.get("loc"), "type": error.get("type")} for error in exc.errors()]
        logger.error("response does not match its declared model", extra={"errors": mismatches})
        return responses.error(500, "INTERNAL_ERROR")

    @app.exception_handler(DATABASE_ERRORS)
    def handle_database_unavailable(exc: Exception) -> Response:
        logger.exception("database unavailable")
        return responses.error(503, "SERVICE_UNAVAILABLE")

    @app.exception_handler(Exception)
    def handle_unexpected(exc: Exception) -> Response:
        logger.exception("unexpected error")
        return responses.error(500, "INTERNAL_ERROR")

    @app.not_found
    def handle_not_found(exc: Exception) -> Response:
        # API Gateway matched a declared route, but its path parameter holds characters the resolver's
        # route pattern refuses (`/cars/%22`): the id is malformed, the route exists.
        event = app.current_event
        if app.declaration(event.http_method, event.resource) is not None and event.path_parameters:
            malformed: list[FieldProblem] = [
                {"field": f"path.{name}", "code": "WRONG_FORMAT", "params": {}} for name in event.path_parameters
            ]
            fields = ", ".join(problem["field"] for problem in malformed)
            return responses.refusal(InvalidInput("VALIDATION_FAILED", errors=malformed, fields=fields))
        return responses.error(404, "ROUTE_NOT_FOUND")

    return app


def declaration_of(app: ApiResolver, event: Mapping[str, Any]) -> RouteDeclaration | None:
    """The declaration of the route API Gateway matched (`resource` + `httpMethod`), if the app has one."""
    return app.declaration(str(event.get("httpMethod", "")), str(event.get("resource", "")))


def gate(
    app: ApiResolver,
    event: dict[str, Any],
    headers: Mapping[str, str],
    locale: Locale,
    declared: RouteDeclaration | None,
) -> RequestContext | None:
    """The gate for one event: the caller's context, or None for a CORS preflight (no credentials by design).
    A base64 body it checked is left decoded in `event`.

    The route is the one API Gateway matched (`declared`: `declaration_of` the event); one that declared
    nothing, or that the resolver does not know, is gated as JWT. Reads the raw event: the resolver builds
    its own event object afterwards, and only a body needs one here.
    """
    if declared is None and str(event.get("httpMethod", "")).upper() == "OPTIONS":
        return None
    query = event.get("queryStringParameters") or {}
    if declared is not None and declared.access.signed_link and links.is_signed_link(query):
        links.check_signed_link(declared.path, query)
        refuse_unknown_query_parameters(event, declared.query_names)
        return ANONYMOUS[locale]
    caller = check_request(headers, declared.access if declared else UNDECLARED, app.callers, locale)
    if declared is not None:
        refuse_unknown_query_parameters(event, declared.query_names)
        if declared.takes_body:
            proxy_event = APIGatewayProxyEvent(event)
            text = require_json_body(proxy_event, headers, declared)
            if proxy_event.is_base64_encoded:
                # Decoded once: the resolver reads the text the gate checked instead of decoding up to 10 MB again.
                event.update(body=text, isBase64Encoded=False)
    return caller


def _refusal(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The proxy response of a request the gate turned away: the API's envelope, as the resolver sends it."""
    multi_value_headers = {"Content-Type": ["application/json"]} | {k: [v] for k, v in (headers or {}).items()}
    return {
        "statusCode": status,
        "multiValueHeaders": multi_value_headers,
        "body": to_json(body),
        "isBase64Encoded": False,
    }


def gate_or_refuse(
    app: ApiResolver,
    event: dict[str, Any],
    headers: Mapping[str, str],
    locale: Locale,
    declared: RouteDeclaration | None,
) -> dict[str, Any] | None:
    """Run the gate (`headers`: edge.headers.request_headers of the event, `locale`: its language,
    `declared`: its route's declaration_of); the response to send instead of resolving the event, if it
    refuses."""
    try:
        set_current(gate(app, event, headers, locale, declared) or ANONYMOUS[locale])
    except AppError as refused:
        return _refusal(status_of(refused), responses.refusal_envelope(refused), headers_of(refused))
    except tuple(DATABASE_ERRORS):
        logger.exception("database unavailable")
        return _refusal(503, responses.error_envelope(503, "SERVICE_UNAVAILABLE"))
    except Exception:
        logger.exception("unexpected error")
        return _refusal(500, responses.error_envelope(500, "INTERNAL_ERROR"))
    return None


def request_id_of(event: Mapping[str, Any], context: LambdaContext | None) -> str:
    """The id a caller quotes to support: API Gateway's request id (the `x-amzn-RequestId` it sends, the
    `requestId` of its access log, every log line's correlation id); Lambda's own when invoked without
    the gateway."""
    given = (event.get("requestContext") or {}).get("requestId")
    if given:
        return str(given)
    return context.aws_request_id if context is not None else ""


def lambda_entry(app: ApiResolver) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The Lambda handler of a function: the gate, then the resolver; logging with the API Gateway
    correlation id, and metrics with the cold start (traces come from Lambda's active tracing, see
    core.observability).

    Reads the settings first (those of the domain packages it imported too): a deployment missing
    required configuration (ASSETS_BASE_URL...) or with an invalid value fails its cold start with the
    reason in the logs, instead of answering customers with broken data."""
    read_settings()
    get_settings().ensure_can_serve()

    def answer(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        headers = request_headers(event)
        locale = parse_accept_language(headers.get("accept-language"))
        request_id = request_id_of(event, context)
        # Nothing of the previous invocation leaks into this one; the gate's refusals speak the language too.
        set_current(ANONYMOUS[locale])
        set_request_id(request_id)
        rate_limit.start_request()
        event = dict(event)  # the gate leaves a base64 body decoded in it: the caller's dict stays as it was
        declared = declaration_of(app, event)  # looked up once, for the gate and for a cached read's headers
        response = gate_or_refuse(app, event, headers, locale, declared)
        added = {CONTENT_LANGUAGE: locale, REQUEST_ID: request_id, **cors.response_headers(headers.get("origin"))}
        if response is None:
            outbox_requests.start_request()
            response = app.resolve(event, context)
            if outbox_requests.touched():
                from data import outbox  # loaded: the request wrote events through it (most functions never do)

                outbox.flush()  # the events this request committed, right away (best effort, never raises)
            quota = rate_limit.request_quota()
            if quota is not None:
                added |= quota.headers()
            if declared is not None and declared.cache_control is not None:
                body = app.body_writer.utf8(str(response.get("body") or ""))
                response, cache_headers = caching.revalidate(headers, response, body, declared.cache_control)
                added = combined(cache_headers, added)
        return set_headers(response, added)

    # The instance's first invocation goes through Powertools' decorator, which adds the cold start metric;
    # the others publish what they added themselves, without its warning on every request that added none.
    first_invocation = metrics.log_metrics(answer, capture_cold_start_metric=True)
    cold = True  # until this instance's first invocation

    @log_keys_of_invocation
    def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        nonlocal cold
        if cold:
            cold = False
            return first_invocation(event, context)
        try:
            return answer(event, context)
        finally:
            flush_metrics()

    snapstart.register(app)
    return lambda_handler
