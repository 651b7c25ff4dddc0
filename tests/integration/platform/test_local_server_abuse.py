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
