"""`make run` under abuse: a client that stops sending its request, or trickles it, does not hold a worker:
it is cut at its read timeout or deadline, and meanwhile the worker answers others."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
import requests
from pymongo.database import Database

from local.gateway import LambdaInstance, LocalApiGateway, LocalRequestHandler, WsgiApp
from local.seed.core import DEMO_PARTNER_KEY
from local.workers import WorkerServer, listening_socket


def serving(instance: LambdaInstance | None = None) -> tuple[WorkerServer, threading.Thread]:
    """One worker as `make run` runs it (`local.workers.WorkerServer`), on a free loopback port."""
    instance = instance or LambdaInstance()
    server = WorkerServer("127.0.0.1", 0, LocalApiGateway(instance=instance), instance)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def stop(server: WorkerServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(timeout=30)


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """One worker with a short read timeout."""
    monkeypatch.setattr(LocalRequestHandler, "timeout", 1)
    server, thread = serving()
    yield "127.0.0.1", server.server_port
    stop(server, thread)


def _answer_then_close(connection: socket.socket) -> bytes:
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def test_headers_that_never_end_are_dropped_and_the_worker_serves_the_next_client(worker: tuple[str, int]) -> None:
    # Given a client that sent part of its headers and then nothing
    stalled = socket.create_connection(worker, timeout=30)
    stalled.sendall(b"GET /api/v1/brands HTTP/1.1\r\nHost: local\r\nclient: demo")
    # When another client calls the same single worker
    answer = requests.get(f"http://{worker[0]}:{worker[1]}/api/v1/no-such-route", timeout=30)
    # Then it is answered (the stalled one was dropped after the read timeout, without an answer)
    assert answer.status_code == 404
    assert answer.json()["message"] == "Route not found"
    with stalled:
        assert _answer_then_close(stalled) == b""


def test_a_body_that_stops_coming_is_a_408_and_the_worker_serves_the_next_client(worker: tuple[str, int]) -> None:
    # Given a client that announced 100 bytes of body, sent 9 and then nothing
    stalled = socket.create_connection(worker, timeout=30)
    stalled.sendall(
        b"POST /api/v1/auth/login HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"phone":'
    )
    # When another client calls the same single worker
    answer = requests.get(f"http://{worker[0]}:{worker[1]}/api/v1/no-such-route", timeout=30)
    # Then it is answered, and the stalled client got a 408 in the API's envelope
    assert answer.status_code == 404
    with stalled:
        head, _, body = _answer_then_close(stalled).partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 408 REQUEST TIMEOUT")
    assert json.loads(body)["statusCode"] == 408


class ManualClock:
    """The handler's monotonic clock, moved by the test (no sleeps: the deadline is the clock's). `read`
    is set once the handler has read it: its request's deadline is set from the clock as it was."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.read = threading.Event()

    def __call__(self) -> float:
        self.read.set()
        return self.now


@pytest.fixture
def deadline_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[tuple[str, int], ManualClock]]:
    """One worker whose requests must arrive within 30 s of its clock, each read waiting up to 10 s."""
    clock = ManualClock()
    monkeypatch.setattr(LocalRequestHandler, "monotonic", staticmethod(clock))
    server, thread = serving()
    yield ("127.0.0.1", server.server_port), clock
    stop(server, thread)


def test_headers_that_trickle_in_are_cut_at_the_total_deadline(
    deadline_worker: tuple[tuple[str, int], ManualClock],
) -> None:
    # Given a client sending its headers a piece at a time, each piece well within the read timeout
    address, clock = deadline_worker
    trickling = socket.create_connection(address, timeout=30)
    trickling.sendall(b"GET /api/v1/brands HTTP/1.1\r\nHost: local\r\n")
    assert clock.read.wait(timeout=30)  # the worker has started the request and its deadline
    # When the request's deadline has passed by the time its next piece arrives
    clock.now += 31
    trickling.sendall(b"client: demo")
    # Then the connection is closed without an answer
    with trickling:
        assert _answer_then_close(trickling) == b""


def test_a_body_that_trickles_in_is_a_408_at_the_total_deadline(
    deadline_worker: tuple[tuple[str, int], ManualClock],
) -> None:
    # Given a client that announced 100 bytes of body and sends them a few at a time
    address, clock = deadline_worker
    trickling = socket.create_connection(address, timeout=30)
    trickling.sendall(
        b"POST /api/v1/auth/login HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"phone":'
    )
    assert clock.read.wait(timeout=30)  # the worker has started the request and its deadline
    # When the request's deadline has passed by the time the next bytes arrive
    clock.now += 31
    trickling.sendall(b'"+99890')
    # Then it is answered 408 in the API's envelope
    with trickling:
        head, _, body = _answer_then_close(trickling).partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 408 REQUEST TIMEOUT")
    assert json.loads(body)["statusCode"] == 408


def _request(method: str, path: str, body: bytes = b"") -> bytes:
    """A whole request of the demo partner's app that closes its connection once answered."""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: local\r\nUser-Agent: slow-app\r\nfingerprint: slow-device\r\n"
        f"client: {DEMO_PARTNER_KEY}\r\nConnection: close\r\n"
    )
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


@pytest.fixture
def patient_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """One worker that waits for a slow client far longer than the test waits for any answer: whoever it
    answers while slow clients trickle, it answers beside them, not after cutting them."""
    monkeypatch.setattr(LocalRequestHandler, "timeout", 600)
    monkeypatch.setattr(LocalRequestHandler, "request_deadline", 1200)
    server, thread = serving()
    yield "127.0.0.1", server.server_port
    stop(server, thread)


def test_three_clients_trickling_their_requests_keep_no_one_else_waiting(
    patient_worker: tuple[str, int], db: Database[dict[str, Any]]
) -> None:
    # Given three clients sending their requests a byte at a time, none of them whole yet: two still in
    # their headers, one in its body
    requests_sent = [
        _request("GET", "/api/v1/brands"),
        _request("GET", "/api/v1/filters/bodies"),
        _request("POST", "/api/v1/auth/refresh-token", b'{"token": "not-a-token"}'),
    ]
    held_back = [60, 40, 5]  # bytes each has yet to send
    trickling = [socket.create_connection(patient_worker, timeout=120) for _ in requests_sent]
    for position in range(max(len(r) - held for r, held in zip(requests_sent, held_back, strict=True))):
        for client, request, held in zip(trickling, requests_sent, held_back, strict=True):
            if position < len(request) - held:
                client.sendall(request[position : position + 1])
    # When a fourth client calls meanwhile (one worker: it reads them all at once)
    answer = requests.get(
        f"http://{patient_worker[0]}:{patient_worker[1]}/api/v1/brands",
        headers={"User-Agent": "app", "fingerprint": "device", "client": DEMO_PARTNER_KEY},
        timeout=60,
    )
    # Then it is answered at once, not after the slow ones
    assert answer.status_code == 200
    assert answer.json()["data"] == {"items": [], "total": 0}
    # And each slow client, once it has sent the rest, gets its own answer: none was dropped meanwhile
    statuses = []
    for client, request, held in zip(trickling, requests_sent, held_back, strict=True):
        with client:
            for position in range(len(request) - held, len(request)):
                client.sendall(request[position : position + 1])
            head, _, body = _answer_then_close(client).partition(b"\r\n\r\n")
        statuses.append((int(head.split(b" ")[1]), json.loads(body)["statusCode"]))
    assert statuses == [(200, 200), (200, 200), (401, 401)]


def _named(name: str) -> WsgiApp:
    def answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(name)))])
        return [name.encode()]

    return answer


def test_a_busy_worker_leaves_a_new_connection_to_an_idle_one() -> None:
    # Given two workers of one listening socket, as `make run` starts them, each able to say which it is
    listening = listening_socket("127.0.0.1", 0)
    port = listening.getsockname()[1]
    instances = {name: LambdaInstance() for name in ("busy", "idle")}
    servers = {
        name: WorkerServer(
            "127.0.0.1",
            port,
            LocalApiGateway(extra={"/who": _named(name)}, instance=instance),
            instance,
            fd=listening.fileno(),
        )
        for name, instance in instances.items()
    }
    threads = [threading.Thread(target=server.serve_forever, daemon=True) for server in servers.values()]
    for thread in threads:
        thread.start()
    try:
        # When a request comes while one of them runs an invocation
        with instances["busy"].invocation():
            answer = requests.get(f"http://127.0.0.1:{port}/who", timeout=60)
        # Then the idle one took it
        assert answer.text == "idle"
    finally:
        for server, thread in zip(servers.values(), threads, strict=True):
            stop(server, thread)
        listening.close()
