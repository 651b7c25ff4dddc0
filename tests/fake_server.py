"""A real HTTP server on 127.0.0.1 in a thread, for the fake partners (card processors): each request
goes to the fake's `handle`, which answers an HTTP status and a JSON payload (or raw bytes)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = tuple[int, Any]  # (HTTP status, a JSON payload or bytes)
Handle = Callable[[str, Mapping[str, str], bytes], Answer]


@contextmanager
def serving(handle: Handle) -> Iterator[str]:
    """Serve `handle(path, headers, body)` until the block ends; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            headers = {name.title(): value for name, value in self.headers.items()}  # X-auth -> X-Auth
            status, payload = handle(self.path, headers, body)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests read what the fake recorded."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
