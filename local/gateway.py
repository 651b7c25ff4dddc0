"""An API Gateway (REST, payload v1) emulator: serves every route of template.yaml in-process.

Each request becomes a full v1 proxy event (resource template, path, pathParameters, multi-value
headers and query, requestContext, base64 bodies for binary content) and is handed to the function's
real `lambda_handler`. Like a Lambda instance, a handler runs one event at a time: Powertools keeps
the current event on the resolver class, so invocations are serialized (`LambdaInstance`), while the
requests themselves are read on a thread each, as API Gateway reads them before invoking anything.
"""

from __future__ import annotations

import base64
import importlib
import io
import math
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote_plus

from werkzeug.exceptions import ClientDisconnected, HTTPException, MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.serving import WSGIRequestHandler
from werkzeug.wrappers import Request, Response

from core.locale import Locale
from core.serialization import to_json
from edge import cors
from edge.app import REQUEST_ID
from edge.error_codes import message
from edge.responses import envelope
from local.context import LocalLambdaContext
from local.template import ApiRoute, api_routes

MAX_BODY_BYTES = 10 * 1024 * 1024
# Seconds a connection may go without sending a byte while the request is read (API Gateway drops a
# client that stalls too).
READ_TIMEOUT_SECONDS = 10
# Seconds a request may take to arrive whole, its headers and its body, however its bytes trickle in
# (a byte every few seconds never trips READ_TIMEOUT_SECONDS): API Gateway cuts such clients too.
REQUEST_DEADLINE_SECONDS = 30
STAGE = "local"
GATEWAY_LANGUAGE: Locale = "en"  # API Gateway's own answers are static: English
TEXT_TYPES = ("application/json", "text/", "application/x-www-form-urlencoded", "application/xml")

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def gateway_envelope(status: int, code: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The body of an answer of the gateway itself, in English as API Gateway's static answers are."""
    return envelope(status, message(code, GATEWAY_LANGUAGE, params), code=code)


def new_request_id() -> str:
    """An id for one request, as API Gateway gives each (its `requestContext.requestId`, `x-amzn-RequestId`)."""
    return str(uuid.uuid4())


def _envelope(
    status: int,
    code: str,
    request_id: str,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """API Gateway's own answers (unknown route, wrong method, body too large), in the API's envelope, with
    the request's id as every answer has it."""
    return Response(
        to_json(gateway_envelope(status, code, params)),
        status=status,
        content_type="application/json",
        headers={"Content-Language": GATEWAY_LANGUAGE, REQUEST_ID: request_id, **(headers or {})},
    )


def with_cors(request: Request, response: Response) -> Response:
    """The CORS headers of the gateway's own answers (a function's answers already carry them)."""
    if "Access-Control-Allow-Origin" not in response.headers:
        for name, value in cors.response_headers(request.headers.get("Origin")).items():
            if name == "Vary":
                response.vary.add(value)  # beside what the answer already varies by (its language...)
            else:
                response.headers[name] = value
    return response


def load_handler(dotted: str) -> Handler:
    module_name, _, attribute = dotted.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


def build_event(
    request: Request, route: ApiRoute, path_parameters: Mapping[str, Any], body: bytes, request_id: str | None = None
) -> dict[str, Any]:
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
    request_id = request_id or new_request_id()
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


# A connection a worker has just accepted keeps it from accepting another until its first request is answered,
# or this long: a burst of connections is spread over the workers rather than taken by the first one awake,
# while a client that trickles its request holds its worker back no longer than this.
ARRIVAL_SECONDS = 0.5


class LambdaInstance:
    """What makes a process one Lambda instance: one invocation at a time (Powertools keeps the current
    event on the resolver class). `idle` waits until no invocation runs or waits to run, and no connection
    has just arrived: a worker of `make run` accepts a connection only then, so a busy worker leaves it to
    an idle one."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._running = threading.Lock()
        self._state = threading.Condition()
        self._pending = 0  # invocations running or waiting to run
        self._arrivals: dict[object, float] = {}  # connections accepted, when
        self._monotonic = monotonic

    @contextmanager
    def invocation(self) -> Iterator[None]:
        with self._state:
            self._pending += 1
        try:
            with self._running:
                yield
        finally:
            with self._state:
                self._pending -= 1
                self._state.notify_all()

    def arrival(self, connection: object) -> None:
        """A connection was accepted: the instance counts as busy until its `departure` (its first request
        answered, or the connection closed) or for ARRIVAL_SECONDS."""
        with self._state:
            self._arrivals[connection] = self._monotonic()

    def departure(self, connection: object) -> None:
        with self._state:
            self._arrivals.pop(connection, None)
            self._state.notify_all()

    def idle(self, timeout: float | None = None) -> bool:
        """Waits until no invocation runs or waits and no connection has just arrived (at most `timeout`
        seconds): whether that is so."""
        end = None if timeout is None else self._monotonic() + timeout
        with self._state:
            while (busy_for := self._busy_for()) > 0:
                left = math.inf if end is None else end - self._monotonic()
                if left <= 0:
                    return False
                wait = min(busy_for, left)
                self._state.wait(None if wait == math.inf else wait)
            return True

    def _busy_for(self) -> float:
        """How long the instance stays busy unless told otherwise: 0 when idle, for ever while it invokes."""
        if self._pending:
            return math.inf
        now = self._monotonic()
        return max((at + ARRIVAL_SECONDS - now for at in self._arrivals.values()), default=0.0)


class LocalApiGateway:
    """The WSGI application of `make run`; `extra` mounts development-only paths (assets, docs). Requests
    may arrive on several threads at once; their functions run one at a time on `instance`."""

    def __init__(
        self,
        routes: list[ApiRoute] | None = None,
        extra: dict[str, WsgiApp] | None = None,
        instance: LambdaInstance | None = None,
    ) -> None:
        self.routes = routes if routes is not None else api_routes()
        self.url_map = Map(
            [Rule(route.werkzeug_rule, methods=[route.method], endpoint=route) for route in self.routes],
            strict_slashes=False,
            merge_slashes=False,
        )
        self.extra = extra or {}
        self._handlers: dict[str, Handler] = {}
        self.instance = instance or LambdaInstance()

    def handler_for(self, route: ApiRoute) -> Handler:
        if route.handler not in self._handlers:
            self._handlers[route.handler] = load_handler(route.handler)
        return self._handlers[route.handler]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        for prefix, app in self.extra.items():
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                return app(environ, start_response)
        request = Request(environ)
        response = self.answer_preflight(request) or self.dispatch(request)
        return with_cors(request, response)(environ, start_response)

    def answer_preflight(self, request: Request) -> Response | None:
        """A CORS preflight, answered here as API Gateway answers it: no function is invoked."""
        requested_method = request.headers.get("Access-Control-Request-Method")
        if request.method != "OPTIONS" or not requested_method or "Origin" not in request.headers:
            return None
        try:
            self.url_map.bind_to_environ(request.environ).match(method=requested_method.upper())
        except MethodNotAllowed:
            pass  # the path exists: its preflight is answered for every method, like the gateway's
        except HTTPException:
            return _envelope(404, "ROUTE_NOT_FOUND", new_request_id())
        headers = cors.preflight_headers(request.headers["Origin"])
        if headers is None:
            return _envelope(403, "ORIGIN_NOT_ALLOWED", new_request_id())
        answer = Response(status=204, headers={**headers, REQUEST_ID: new_request_id()})
        answer.headers.pop("Content-Type", None)
        return answer

    def dispatch(self, request: Request) -> Response:
        request_id = new_request_id()
        if (request.content_length or 0) > MAX_BODY_BYTES:
            return _envelope(413, "PAYLOAD_TOO_LARGE", request_id)
        adapter = self.url_map.bind_to_environ(request.environ)
        try:
            route, path_parameters = adapter.match()
            if request.method != route.method:  # HEAD: werkzeug adds it to every GET rule, API Gateway does not
                raise MethodNotAllowed()
        except MethodNotAllowed:
            # A known path, another method: 405 naming the path's methods.
            allowed = ", ".join(sorted(set(adapter.allowed_methods()) - {"HEAD"}))
            params = {"method": request.method, "allowed": allowed}
            return _envelope(405, "METHOD_NOT_ALLOWED", request_id, params, headers={"Allow": allowed})
        except NotFound:
            return _envelope(404, "ROUTE_NOT_FOUND", request_id)
        except HTTPException as exc:  # e.g. a redirect werkzeug would suggest: not API Gateway behaviour
            return _envelope(exc.code or 404, "ROUTE_NOT_FOUND", request_id)
        try:
            body = request.stream.read(MAX_BODY_BYTES + 1)
        except ClientDisconnected:  # the body stopped coming for READ_TIMEOUT_SECONDS, or the client left
            return _envelope(408, "REQUEST_TIMEOUT", request_id)
        if len(body) > MAX_BODY_BYTES:
            return _envelope(413, "PAYLOAD_TOO_LARGE", request_id)
        return self.invoke(route, build_event(request, route, path_parameters, body, request_id))

    def invoke(self, route: ApiRoute, event: dict[str, Any]) -> Response:
        started = time.perf_counter()
        with self.instance.invocation():
            handler = self.handler_for(route)  # its first import is the instance's cold start
            result = handler(event, LocalLambdaContext(function_name=route.function))
        response = to_http_response(result)
        response.headers["X-Local-Duration-Ms"] = f"{(time.perf_counter() - started) * 1000:.1f}"
        return response


# A card number: 12 to 19 digits, maybe grouped by spaces, plus signs (a query's spaces) or dashes, and
# no longer run of digits (a 24-digit id is not a card number).
CARD_DIGITS = re.compile(r"(?<!\d)\d(?:[\s+-]?\d){11,18}(?!\d)")
MASKED = "[masked]"


def _decoded(text: str) -> str:
    """Percent- and plus-decoded until it no longer changes (a name may be encoded twice)."""
    for _ in range(3):
        decoded = unquote_plus(text)
        if decoded == text:
            break
        text = decoded
    return text


def _is_card_number_parameter(raw_name: str) -> bool:
    return re.sub(r"[^a-z]", "", _decoded(raw_name).casefold()) == "cardnumber"


def _holds_card_digits(raw: str) -> bool:
    return CARD_DIGITS.search(_decoded(raw)) is not None


def _mask_target(target: str) -> str:
    path, separator, query = target.partition("?")
    path = "/".join(MASKED if _holds_card_digits(segment) else segment for segment in path.split("/"))
    if not separator:
        return path
    pairs = []
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        if equals and (_is_card_number_parameter(name) or _holds_card_digits(value)):
            value = MASKED
        elif not equals and _holds_card_digits(name):
            name = MASKED
        pairs.append(f"{name}{equals}{value}")
    return f"{path}?{'&'.join(pairs)}"


def mask_card_numbers(line: str) -> str:
    """A request target or request line fit for the log: GET /api/v1/transactions/check-card?cardNumber=...
    carries a card number (the contract puts it there), and a client may put one anywhere. Judged decoded,
    so no encoding nor case of the name (`card%4Eumber`, `CARDNUMBER`), no other parameter and no path
    segment gets card digits into the log; nor a number written with spaces, which splits a request line."""
    return " ".join(_mask_target(part) for part in CARD_DIGITS.sub(MASKED, line).split(" "))


# What the development server itself refuses, before any route: API Gateway answers these in the envelope.
SERVER_REFUSALS = {400: "MALFORMED_REQUEST", 414: "URI_TOO_LONG", 431: "HEADERS_TOO_LARGE"}


class DeadlineReader(io.RawIOBase):
    """A connection's bytes within a total deadline: each receive may wait only what is left of it (and
    `idle` seconds at most), and none starts after it, so a client trickling its request is cut as one
    that stopped sending."""

    def __init__(self, connection: socket.socket, monotonic: Callable[[], float], idle: float) -> None:
        super().__init__()
        self.connection = connection
        self.monotonic = monotonic
        self.idle = idle
        self.deadline = math.inf

    def start(self, seconds: float) -> None:
        self.deadline = self.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - self.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive within its deadline")
        self.connection.settimeout(min(left, self.idle))
        try:
            return self.connection.recv_into(buffer)
        finally:
            self.connection.settimeout(self.idle)  # what the answer's writes wait at most


class LocalRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler, with a log without card numbers and its own refusals in the envelope.

    Each connection is read on its own thread (`local.workers.WorkerServer`): a client that stops sending
    (its headers or its body) is dropped after READ_TIMEOUT_SECONDS without a byte, and one that trickles
    them after REQUEST_DEADLINE_SECONDS in all (its body: 408), so it holds no more than its thread."""

    protocol_version = "HTTP/1.1"  # keep-alive, as API Gateway
    timeout = READ_TIMEOUT_SECONDS  # socketserver sets it on every connection's socket
    request_deadline = REQUEST_DEADLINE_SECONDS
    monotonic: Callable[[], float] = staticmethod(time.monotonic)
    _reader: DeadlineReader

    def setup(self) -> None:
        super().setup()
        self._reader = DeadlineReader(self.connection, self.monotonic, idle=float(self.timeout or READ_TIMEOUT_SECONDS))
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        self._reader.start(self.request_deadline)  # each request of a kept-alive connection has its own
        super().handle_one_request()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        # werkzeug logs `path` decoded (or the raw request line when the path is unset); the request
        # is already handled when this runs, so both can be masked in place.
        if hasattr(self, "path"):
            self.path = mask_card_numbers(self.path)
        self.requestline = mask_card_numbers(self.requestline)
        super().log_request(code, size)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's refusals (414 request line too long, 431 header too large, 400 malformed request)
        as JSON in the envelope, not HTML."""
        status = HTTPStatus(code)
        error_code = SERVER_REFUSALS.get(code, "MALFORMED_REQUEST")
        self.log_error("code %d, %s", code, error_code)
        body = to_json(gateway_envelope(code, error_code)).encode()
        self.send_response(code, status.phrase)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Language", GATEWAY_LANGUAGE)
        self.send_header(REQUEST_ID, new_request_id())
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
