"""An API Gateway (REST, payload v1) emulator: serves every route of template.yaml in-process.

Each request becomes a full v1 proxy event (resource template, path, pathParameters, multi-value
headers and query, requestContext, base64 bodies for binary content) and is handed to the function's
real `lambda_handler`. Like a Lambda instance, a handler runs one event at a time: Powertools keeps
the current event on the resolver class, so invocations are serialized with one lock.
"""

from __future__ import annotations

import base64
import importlib
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.serving import WSGIRequestHandler
from werkzeug.wrappers import Request, Response

from common.responses import envelope, to_json
from local.context import LocalLambdaContext
from local.template import ApiRoute, api_routes

MAX_BODY_BYTES = 10 * 1024 * 1024
STAGE = "local"
TEXT_TYPES = ("application/json", "text/", "application/x-www-form-urlencoded", "application/xml")

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _envelope(status: int, message: str) -> Response:
    """API Gateway's own answers (unknown route, body too large), in the API's envelope."""
    return Response(to_json(envelope(status, message)), status=status, content_type="application/json")


def load_handler(dotted: str) -> Handler:
    module_name, _, attribute = dotted.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


def build_event(request: Request, route: ApiRoute, path_parameters: Mapping[str, Any], body: bytes) -> dict[str, Any]:
    multi_headers: dict[str, list[str]] = {}
    for name, value in request.headers.items():
        multi_headers.setdefault(name, []).append(value)
    # API Gateway tells the function the scheme the client used (for links back to the API)
    multi_headers["X-Forwarded-Proto"] = [request.scheme]
    multi_query = {key: request.args.getlist(key) for key in request.args}
    content_type = request.headers.get("Content-Type", "")
    is_text = not body or any(content_type.startswith(kind) for kind in TEXT_TYPES) or not content_type
    try:
        text_body: str | None = body.decode("utf-8") if is_text else None
    except UnicodeDecodeError:
        text_body = None
    encoded = text_body is None and bool(body)
    now = datetime.now(UTC)
    request_id = str(uuid.uuid4())
    return {
        "resource": route.path,
        "path": request.path,
        "httpMethod": request.method,
        "headers": {name: values[-1] for name, values in multi_headers.items()} or None,
        "multiValueHeaders": multi_headers or None,
        "queryStringParameters": {key: values[-1] for key, values in multi_query.items()} or None,
        "multiValueQueryStringParameters": multi_query or None,
        "pathParameters": dict(path_parameters) or None,
        "stageVariables": None,
        "requestContext": {
            "resourceId": "local",
            "resourcePath": route.path,
            "httpMethod": request.method,
            # The path as called: this server has no stage prefix (like a custom domain mapped at the root).
            "path": request.path,
            "stage": STAGE,
            "requestId": request_id,
            "extendedRequestId": request_id,
            "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "requestTimeEpoch": int(now.timestamp() * 1000),
            "accountId": "000000000000",
            "apiId": "local",
            "protocol": request.environ.get("SERVER_PROTOCOL", "HTTP/1.1"),
            "domainName": request.host,
            "identity": {
                "sourceIp": request.remote_addr or "127.0.0.1",
                "userAgent": request.user_agent.string,
            },
        },
        "body": base64.b64encode(body).decode() if encoded else (text_body if body else None),
        "isBase64Encoded": encoded,
    }


def to_http_response(result: dict[str, Any]) -> Response:
    body = result.get("body") or ""
    payload = base64.b64decode(body) if result.get("isBase64Encoded") else body.encode("utf-8")
    response = Response(payload, status=int(result.get("statusCode", 502)))
    response.headers.pop("Content-Type", None)
    for name, value in (result.get("headers") or {}).items():
        response.headers[name] = str(value)
    for name, values in (result.get("multiValueHeaders") or {}).items():
        response.headers.pop(name, None)
        for value in values:
            response.headers.add(name, str(value))
    return response


class LocalApiGateway:
    """The WSGI application of `make run`; `extra` mounts development-only paths (assets, docs)."""

    def __init__(self, routes: list[ApiRoute] | None = None, extra: dict[str, WsgiApp] | None = None) -> None:
        self.routes = routes if routes is not None else api_routes()
        self.url_map = Map(
            [Rule(route.werkzeug_rule, methods=[route.method], endpoint=route) for route in self.routes],
            strict_slashes=False,
            merge_slashes=False,
        )
        self.extra = extra or {}
        self._handlers: dict[str, Handler] = {}
        self._invoke_lock = threading.Lock()

    def handler_for(self, route: ApiRoute) -> Handler:
        if route.handler not in self._handlers:
            self._handlers[route.handler] = load_handler(route.handler)
        return self._handlers[route.handler]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        for prefix, app in self.extra.items():
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                return app(environ, start_response)
        response = self.dispatch(Request(environ))
        return response(environ, start_response)

    def dispatch(self, request: Request) -> Response:
        if (request.content_length or 0) > MAX_BODY_BYTES:
            return _envelope(413, "Request body is larger than 10 MB")
        try:
            route, path_parameters = self.url_map.bind_to_environ(request.environ).match()
        except (NotFound, MethodNotAllowed):
            return _envelope(404, "Route not found")
        except HTTPException as exc:  # e.g. a redirect werkzeug would suggest: not API Gateway behaviour
            return _envelope(exc.code or 404, "Route not found")
        body = request.stream.read(MAX_BODY_BYTES + 1)
        if len(body) > MAX_BODY_BYTES:
            return _envelope(413, "Request body is larger than 10 MB")
        return self.invoke(route, build_event(request, route, path_parameters, body))

    def invoke(self, route: ApiRoute, event: dict[str, Any]) -> Response:
        handler = self.handler_for(route)
        started = time.perf_counter()
        with self._invoke_lock:
            result = handler(event, LocalLambdaContext(function_name=route.function))
        response = to_http_response(result)
        response.headers["X-Local-Duration-Ms"] = f"{(time.perf_counter() - started) * 1000:.1f}"
        return response


CARD_NUMBER_IN_QUERY = re.compile(r"(?i)(cardNumber=)[^&\s]*")


def mask_card_numbers(request_line: str) -> str:
    """GET /api/v1/transactions/check-card?cardNumber=... carries a card number: never log it."""
    return CARD_NUMBER_IN_QUERY.sub(r"\1[masked]", request_line)


class LocalRequestHandler(WSGIRequestHandler):
    """werkzeug's request log, without the card numbers a query string may carry."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        # werkzeug logs `path` (or the raw request line when the path is unset); the request is
        # already handled when this runs, so both can be masked in place.
        if hasattr(self, "path"):
            self.path = mask_card_numbers(self.path)
        self.requestline = mask_card_numbers(self.requestline)
        super().log_request(code, size)
