"""`make run` under abuse: a client that stops sending its request does not hold a worker forever."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest
import requests
from werkzeug.serving import make_server

from local.gateway import LocalApiGateway, LocalRequestHandler


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """One worker as `make run` runs it: one connection at a time (no threads), a short read timeout."""
    monkeypatch.setattr(LocalRequestHandler, "timeout", 1)
    server = make_server("127.0.0.1", 0, LocalApiGateway(), request_handler=LocalRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "127.0.0.1", server.server_port
    server.shutdown()
    thread.join(timeout=30)


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
    server = make_server("127.0.0.1", 0, LocalApiGateway(), request_handler=LocalRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield ("127.0.0.1", server.server_port), clock
    server.shutdown()
    thread.join(timeout=30)


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
