"""Small factories for requests, events and data, so tests read as Given / When / Then."""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache, partial
from typing import Any
from urllib.parse import urlsplit

import requests

from core.errors import Conflict
from core.pinfl import pinfl_check_digit
from local.workers import WORKER_HEADER
from tests.data import CatalogCar

DEMO_CLIENT_KEY = "demo-partner-key"


def common_headers(**overrides: str | None) -> dict[str, str]:
    """The common headers (docs/INTERFACE.md); pass name=None to leave one out."""
    headers: dict[str, str | None] = {
        "User-Agent": "car-retail-tests/1.0",
        "fingerprint": "device-test-0001",
        "client": DEMO_CLIENT_KEY,
        "accept-language": "en",
    }
    for name, value in overrides.items():
        headers[name.replace("_", "-") if name == "accept_language" else name] = value
    return {name: value for name, value in headers.items() if value is not None}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def valid_pinfl(first13: str = "3010199000001") -> str:
    return first13 + pinfl_check_digit(first13)


def race(action: Callable[[], object], times: int) -> list[str]:
    """Run `action` from `times` threads at once; each outcome is "ok" or the code of its 409."""

    def attempt(_: int) -> str:
        try:
            action()
        except Conflict as refused:
            return refused.code
        return "ok"

    with ThreadPoolExecutor(max_workers=times) as pool:
        return list(pool.map(attempt, range(times)))


def all_at_once[T](actions: Sequence[Callable[[], T]]) -> list[T]:
    """Run every action in its own thread, released together (a barrier), and return their results in order."""
    start = threading.Barrier(len(actions), timeout=30)

    def run(action: Callable[[], T]) -> T:
        start.wait()
        return action()

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return list(pool.map(run, actions))


def api_event(
    method: str,
    resource: str,
    *,
    path: str | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
    query: dict[str, str] | None = None,
    path_parameters: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An API Gateway REST (v1) proxy event, as the gateway would send it."""
    all_headers = {**common_headers(), **(headers or {})}
    return {
        "resource": resource,
        "path": path or resource,
        "httpMethod": method,
        "headers": all_headers,
        "multiValueHeaders": {name: [value] for name, value in all_headers.items()},
        "queryStringParameters": query,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} if query else None,
        "pathParameters": path_parameters,
        "stageVariables": None,
        "requestContext": {
            "requestId": "test-request",
            "stage": "test",
            "resourcePath": resource,
            "httpMethod": method,
            "identity": {"sourceIp": "198.51.100.7", "userAgent": all_headers.get("User-Agent")},
        },
        "body": json.dumps(body) if body is not None and not isinstance(body, str) else body,
        "isBase64Encoded": False,
    }


# What the server answers before any route is chosen (docs/INTERFACE.md, Statuses), on no operation.
SERVER_ANSWERS = {
    "ROUTE_NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "URI_TOO_LONG",
    "HEADERS_TOO_LARGE",
    "MALFORMED_REQUEST",
    "ORIGIN_NOT_ALLOWED",
}


@cache
def _documented_operations() -> list[tuple[str, re.Pattern[str], dict[str, Any]]]:
    from tools.openapi import DOCUMENT

    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    found: list[tuple[str, re.Pattern[str], dict[str, Any]]] = []
    # Fixed paths before templated ones: /api/v1/cars/{id} must not take /api/v1/cars/... literal routes.
    for path in sorted(document["paths"], key=lambda path: path.count("{")):
        pattern = re.compile("^" + re.sub(r"\\{\w+\\}", "[^/]+", re.escape(path)) + "$")
        found.extend((method.upper(), pattern, op) for method, op in document["paths"][path].items())
    return found


def check_code_is_documented(method: str, url: str, response: requests.Response) -> None:
    """Every error code a test meets is one the document lists for that operation and status: the
    per-operation lists of openapi.json (read from the code) miss nothing the routes really answer."""
    if response.status_code < 400 or "json" not in response.headers.get("Content-Type", "") or not response.content:
        return
    code = response.json().get("code")
    if code in SERVER_ANSWERS:
        return
    path = urlsplit(url).path
    for documented_method, pattern, operation in _documented_operations():
        if documented_method == method.upper() and pattern.match(path):
            documented = operation["responses"].get(str(response.status_code), {})
            schema = documented.get("content", {}).get("application/json", {}).get("schema", {})
            codes = schema.get("allOf", [{}, {}])[1].get("properties", {}).get("code", {}).get("enum", [])
            assert code in codes, f"{method} {path} answered {response.status_code} {code}, not documented"
            return


class ApiClient:
    """HTTP client for the local gateway with the common headers filled in; every error code it meets
    must be one openapi.json lists for the operation (`check_code_is_documented`)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.session = requests.Session()
        self.token: str | None = None

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.session.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: dict[str, str | None] | None = None,
        auth: bool = True,
        **kwargs: Any,
    ) -> requests.Response:
        merged: dict[str, str | None] = dict(common_headers())
        if auth and self.token:
            merged["Authorization"] = f"Bearer {self.token}"
        merged.update(headers or {})
        sent = {name: value for name, value in merged.items() if value is not None}
        response = self.session.request(method, self.base_url + path, headers=sent, timeout=30, **kwargs)
        check_code_is_documented(method, self.base_url + path, response)
        return response

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("POST", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("PATCH", path, **kwargs)

    def login(self, phone: str = "+998901112233", **fields: str) -> dict[str, str]:
        """Sign in (creating the user) and use the access token for the next calls."""
        response = self.post("/api/v1/auth/login", json={"phone": phone, **fields}, auth=False)
        assert response.status_code == 201, response.text
        tokens: dict[str, str] = response.json()["data"]
        self.token = tokens["accessToken"]
        return tokens

    def verify(self, person: int = 1) -> None:
        """Verify the signed-in user's identity as the sandbox provider's person `person` (1..99999): a
        verified buyer, whom the order limits count as that person."""
        response = self.post("/api/v1/users/limit", json={"code": f"sandbox-verified-{person}-{uuid.uuid4().hex}"})
        assert response.status_code == 200, response.text


def copies_of(buyer: ApiClient, count: int) -> list[ApiClient]:
    """`count` clients of the buyer's server signed in as `buyer` (one person's phones and tabs)."""
    clients = [ApiClient(buyer.base_url) for _ in range(count)]
    for client in clients:
        client.token = buyer.token
    return clients


def copies_over_workers(buyer: ApiClient, count: int, *, tries: int = 20) -> list[ApiClient]:
    """`count` copies of the buyer (`copies_of`) whose kept-alive connections are held by more than one
    worker process of `make run`: each asks who it is, all at once, and a new set is opened until the
    answers came from two workers or more. A worker answers every request of a connection it accepted, so
    what the copies send next races through several processes, however busy the machine is when they
    connect (on a loaded one, a single worker may accept a whole burst one connection after another)."""
    for _ in range(tries):
        copies = copies_of(buyer, count)
        answers = all_at_once([partial(copy.get, "/api/v1/auth/me") for copy in copies])
        assert [answer.status_code for answer in answers] == [200] * count, [answer.text for answer in answers]
        if len({answer.headers[WORKER_HEADER] for answer in answers}) > 1:
            return copies
        for copy in copies:
            copy.session.close()
    raise AssertionError(f"{tries} sets of {count} connections were each accepted by one worker alone")


def branch_offered(client: ApiClient, car: CatalogCar) -> bool:
    """Whether GET /dictionaries/branch/regions offers the car's branch for its first modification and
    color (`available`), asked by a signed-in client."""
    query = {
        "brandId": str(car.brand_id),
        "carId": str(car.car_id),
        "modificationId": str(car.modification_id),
        "colorId": str(car.color_id),
    }
    answer = client.get("/api/v1/dictionaries/branch/regions", params=query)
    assert answer.status_code == 200, answer.text
    regions = answer.json()["data"]["items"]
    [branch] = [branch for region in regions for branch in region["branches"] if branch["_id"] == str(car.branch_id)]
    return bool(branch["available"])
