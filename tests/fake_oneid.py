"""A fake OAuth2 identity provider of the OneID kind, served over real HTTP on 127.0.0.1.

POST /oauth/token (form: grant_type=authorization_code, code, client_id, client_secret, redirect_uri)
answers {"access_token"}; GET /oauth/profile with `Authorization: Bearer <token>` answers the person
in OneID's field names. Codes are single-use, as at the real provider. `fail(step, ...)` queues
answers the next calls of a step give instead: an HTTP status, "timeout" (no answer in time) or
"garbage" (200 with a body that is not JSON).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import parse_qs

Step = Literal["token", "profile"]
Outcome = int | Literal["timeout", "garbage"]

CLIENT_ID = "car-retail-test"
CLIENT_SECRET = "fake-oneid-client-secret"
REDIRECT_URI = "https://partner.example/oneid/callback"


class FakeOneId:
    def __init__(self) -> None:
        self.people: dict[str, dict[str, Any]] = {}
        self.queued: dict[Step, list[Outcome]] = {"token": [], "profile": []}
        self.calls: dict[Step, int] = {"token": 0, "profile": 0}
        self.token_forms: list[dict[str, str]] = []
        self.client_secret = CLIENT_SECRET
        self._tokens: dict[str, dict[str, Any]] = {}
        self._redeemed: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.base_url = ""

    @property
    def token_url(self) -> str:
        return f"{self.base_url}/oauth/token"

    @property
    def profile_url(self) -> str:
        return f"{self.base_url}/oauth/profile"

    def add_person(self, code: str, pin: str, **fields: Any) -> None:
        self.people[code] = {
            "valid": "true",
            "pin": pin,
            "first_name": "Dilnoza",
            "sur_name": "Rahimova",
            "mid_name": "Bahodirovna",
            "birth_date": "1991-05-17",
            "pport_no": "AB1234567",
            **fields,
        }

    def fail(self, step: Step, *outcomes: Outcome) -> None:
        self.queued[step].extend(outcomes)

    def env(self) -> dict[str, str]:
        """The settings that point the API's HTTP adapter at this server."""
        return {
            "IDENTITY_PROVIDER": "http",
            "ONEID_TOKEN_URL": self.token_url,
            "ONEID_PROFILE_URL": self.profile_url,
            "ONEID_CLIENT_ID": CLIENT_ID,
            "ONEID_CLIENT_SECRET": CLIENT_SECRET,
            "ONEID_REDIRECT_URI": REDIRECT_URI,
        }

    # -- what the handler asks

    def next_outcome(self, step: Step) -> Outcome | None:
        with self._lock:
            self.calls[step] += 1
            return self.queued[step].pop(0) if self.queued[step] else None

    def exchange(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.token_forms.append(form)
            if form.get("grant_type") != "authorization_code":
                return 400, {"error": "unsupported_grant_type"}
            if form.get("client_id") != CLIENT_ID or form.get("client_secret") != self.client_secret:
                return 401, {"error": "invalid_client"}
            code = form.get("code", "")
            if code not in self.people or code in self._redeemed or form.get("redirect_uri") != REDIRECT_URI:
                return 400, {"error": "invalid_grant", "error_description": "code is invalid or expired"}
            self._redeemed.add(code)
            token = secrets.token_urlsafe(16)
            self._tokens[token] = self.people[code]
            return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 300}

    def profile(self, authorization: str) -> tuple[int, dict[str, Any]]:
        scheme, _, token = authorization.partition(" ")
        with self._lock:
            person = self._tokens.get(token) if scheme == "Bearer" else None
        return (200, person) if person else (401, {"error": "invalid_token"})

    def wait_out(self, seconds: float) -> None:
        self._stop.wait(seconds)


def _handler(fake: FakeOneId) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if self.path != "/oauth/token":
                self._send(404, {"error": "not_found"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            form = {key: values[-1] for key, values in parse_qs(self.rfile.read(length).decode()).items()}
            if not self._failed("token"):
                self._send(*fake.exchange(form))

        def do_GET(self) -> None:
            if self.path != "/oauth/profile":
                self._send(404, {"error": "not_found"})
                return
            if not self._failed("profile"):
                self._send(*fake.profile(self.headers.get("Authorization", "")))

        def _failed(self, step: Step) -> bool:
            outcome = fake.next_outcome(step)
            if outcome is None:
                return False
            if outcome == "timeout":
                fake.wait_out(5)
                self._send(503, {"error": "too_late"})
            elif outcome == "garbage":
                self._send_raw(200, b"<html>maintenance</html>", "text/html")
            else:
                self._send(int(outcome), {"error": "server_error" if int(outcome) >= 500 else "invalid_request"})
            return True

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
def running_fake_oneid() -> Iterator[FakeOneId]:
    fake = FakeOneId()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake._stop.set()
        server.shutdown()
        server.server_close()
