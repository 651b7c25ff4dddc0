"""The HTTP plumbing of the fake partner servers (real HTTP on 127.0.0.1, a thread each): what a fake
provider answers is its own (tests/fake_oneid.py, tests/fake_myid.py); this module serves it and lets a
test queue failures for a step: an HTTP status, "timeout" (no answer in time), "hang" (no answer while the
fake serves) or "garbage" (200 with a body that is not JSON)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import urlsplit

Outcome = int | Literal["timeout", "hang", "garbage"]
Answer = tuple[int, dict[str, Any]]


class FakeServer:
    """A fake provider: `route` names the step a request belongs to and how to answer it."""

    def __init__(self, *steps: str) -> None:
        self.queued: dict[str, list[Outcome]] = {step: [] for step in steps}
        self.calls: dict[str, int] = dict.fromkeys(steps, 0)
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.base_url = ""

    def fail(self, step: str, *outcomes: Outcome) -> None:
        """The next calls of `step` get these outcomes instead of an answer, in order."""
        with self.lock:
            self.queued[step].extend(outcomes)

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        raise NotImplementedError

    def next_outcome(self, step: str) -> Outcome | None:
        with self.lock:
            self.calls[step] += 1
            return self.queued[step].pop(0) if self.queued[step] else None


def _handler(fake: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def do_PATCH(self) -> None:
            self._serve()

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            headers = {name.lower(): value for name, value in self.headers.items()}
            routed = fake.route(self.command, parts.path, parts.query, headers, body)
            if routed is None:
                self._send(404, {"error": "not_found"})
                return
            step, answer = routed
            outcome = fake.next_outcome(step)
            if outcome is None:
                self._send(*answer())
            elif outcome == "timeout":
                fake.stopped.wait(5)
                self._send(503, {"error": "too_late"})
            elif outcome == "hang":
                fake.stopped.wait()
            elif outcome == "garbage":
                self._send_raw(200, b"<html>maintenance</html>", "text/html")
            else:
                self._send(int(outcome), {"error": "server_error" if int(outcome) >= 500 else "invalid_request"})

        def _send(self, status: int, body: dict[str, Any]) -> None:
            self._send_raw(status, json.dumps(body).encode(), "application/json")

        def _send_raw(self, status: int, payload: bytes, content_type: str) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client gave up waiting (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serving[F: FakeServer](fake: F) -> Iterator[F]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.stopped.set()
        server.shutdown()
        server.server_close()
