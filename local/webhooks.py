"""Partner webhooks on a laptop, where there is no SQS queue, and `make run` serves a receiver that
prints what it gets and checks the signature, with the demo partner's endpoint pointed at it.

No request waits on an endpoint, here either: `make run`'s workers (`defer_to_publisher`) leave a
request's webhooks in the outbox, and the serving process's outbox publisher (the deployed
OutboxPublisher function, which `make run`'s scheduler runs every few seconds: local.scheduler) hands
them to `InProcessDelivery`: the deployed delivery code, one attempt at a time, with the deployed
backoff (and `Retry-After`) kept in memory between its runs. A webhook not delivered stays in the
outbox, so it is tried again, in order. A single process without `make run` (`python -m local invoke`,
the operators' commands) installs `InProcessDelivery` itself (`install`) and delivers right after its
change.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from core import clock
from core.settings import get_settings
from data import webhook_queue
from data.webhook_queue import QueuedWebhook
from domain.partners import delivery, store, webhooks
from local.template import ROOT

DEFAULT_RECEIVER_PORT = 3001
LOOPBACK = "127.0.0.1"
RECEIVER_PATH = "/webhooks"


class InProcessDelivery:
    """The local stand-in for the queue and the delivery function: delivers each webhook it is handed,
    unless its backoff (after a failure, as `functions/webhooks` sets it) has not run out yet, in which
    case it is not taken and stays in the outbox."""

    def __init__(self) -> None:
        self.failures: dict[str, tuple[int, datetime]] = {}  # per message: failed attempts, next try at
        self.lock = threading.Lock()

    def __call__(self, batch: list[QueuedWebhook]) -> list[bool]:
        return [self.deliver(webhook) for webhook in batch]

    def deliver(self, webhook: QueuedWebhook) -> bool:
        key = webhook.deduplication_id or webhook.event_id
        now = clock.now()
        with self.lock:
            failed, next_try = self.failures.get(key, (0, now))
        if now < next_try:
            return False
        attempt = delivery.deliver(webhook.partner, webhook.event_id, webhook.body)
        with self.lock:
            if attempt.delivered:
                self.failures.pop(key, None)
            else:
                delay = delivery.retry_delay_seconds(failed + 1, attempt.retry_after_seconds)
                self.failures[key] = (failed + 1, clock.now() + timedelta(seconds=delay))
        return attempt.delivered


def install() -> None:
    """Deliver webhooks in this process when it is local and has no queue (WEBHOOK_QUEUE_URL)."""
    settings = get_settings()
    if settings.is_local and settings.webhook_queue_url is None:
        webhook_queue.use_local_consumer(InProcessDelivery())


def defer_to_publisher() -> None:
    """A `make run` worker: take no webhook, so a request never waits on an endpoint; the serving
    process's outbox publisher delivers them (local.scheduler)."""
    settings = get_settings()
    if settings.is_local and settings.webhook_queue_url is None:
        webhook_queue.use_local_consumer(_not_here)


def _not_here(batch: list[QueuedWebhook]) -> list[bool]:
    return [False] * len(batch)


INTERFACE_DOC = ROOT / "docs" / "INTERFACE.md"
SNIPPET_MARKER = "<!-- webhook-verification-snippet -->"
LIBRARY_SNIPPET_MARKER = "<!-- webhook-library-snippet -->"
TYPESCRIPT_SNIPPET_MARKER = "<!-- webhook-typescript-snippet -->"


def documented_block(marker: str, language: str) -> str:
    """The code block of docs/INTERFACE.md right after `marker`, as published."""
    text = INTERFACE_DOC.read_text(encoding="utf-8")
    block = re.search(re.escape(marker) + rf"\s*```{language}\n(.*?)```", text, re.DOTALL)
    if block is None:
        raise RuntimeError(f"no {language} block after {marker} in {INTERFACE_DOC}")
    return block.group(1)


def documented_function(marker: str, name: str) -> Callable[..., Any]:
    """The function `name` of the Python snippet after `marker`, run exactly as published."""
    namespace: dict[str, Any] = {}
    code = compile(documented_block(marker, "python"), str(INTERFACE_DOC), "exec")
    exec(code, namespace)  # noqa: S102 (our own documentation)
    function: Callable[..., Any] = namespace[name]
    return function


def documented_verifier() -> Callable[..., bool]:
    """`verify_webhook` exactly as docs/INTERFACE.md publishes it for partners (the Python block after
    SNIPPET_MARKER): the local receiver checks deliveries with it, as a partner would, and so do the tests."""
    return documented_function(SNIPPET_MARKER, "verify_webhook")


@dataclass(frozen=True)
class DocumentedExample:
    headers: dict[str, str]
    body: bytes
    timestamp: int


def documented_example() -> DocumentedExample:
    """The example delivery of docs/INTERFACE.md: its headers, body and signing time."""
    text = INTERFACE_DOC.read_text(encoding="utf-8")
    example = re.search(r"```http\nPOST [^\n]*\n(.*?)\n\n(.*?)\n```", text, re.DOTALL)
    if example is None:
        raise RuntimeError(f"no webhook example in {INTERFACE_DOC}")
    headers = dict(line.split(": ", 1) for line in example.group(1).splitlines())
    return DocumentedExample(headers, example.group(2).encode(), int(headers["webhook-timestamp"]))


def signature_matches(partner: str, headers: Mapping[str, str], body: bytes, verify: Callable[..., bool]) -> bool:
    """Whether `verify` (the documented snippet) accepts the delivery under one of the partner's secrets."""
    endpoint = store.find_webhook(partner)
    if endpoint is None:
        return False
    now = clock.now()
    return any(verify(secret, headers, body, now=now.timestamp()) for secret in webhooks.signing_secrets(endpoint, now))


class _Receiver(BaseHTTPRequestHandler):
    partner = ""
    verify: Callable[..., bool]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {name.lower(): value for name, value in self.headers.items()}
        verified = signature_matches(self.partner, headers, body, type(self).verify)
        try:
            event = json.loads(body)
            change = f"{event.get('contractNumber')} {event.get('from')} -> {event.get('to')}"
        except ValueError:
            change = "(not JSON)"
        print(
            f"webhook received: {change}  event {self.headers.get(webhooks.ID_HEADER)}  "
            f"signature {'ok' if verified else 'DOES NOT MATCH'}",
            flush=True,
        )
        self.send_response(204 if verified else 401)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: do_POST prints one line per delivery."""


def start_receiver(partner: str) -> ThreadingHTTPServer | None:
    """Serve the local receiver on 127.0.0.1 (LOCAL_WEBHOOK_PORT, default 3001) in a thread and point
    `partner`'s endpoint at it; returns the server, to shut down. LOCAL_WEBHOOK_PORT=0 serves none and
    forgets an endpoint an earlier run pointed at its receiver (deliveries would fail forever)."""
    port = int(os.environ.get("LOCAL_WEBHOOK_PORT", str(DEFAULT_RECEIVER_PORT)))
    if port == 0:
        endpoint = store.find_webhook(partner)
        if endpoint and re.fullmatch(rf"http://{LOOPBACK}:\d+{RECEIVER_PATH}", endpoint["url"]):
            webhooks.remove_endpoint(partner)
        return None
    receiver = type("Receiver", (_Receiver,), {"partner": partner, "verify": staticmethod(documented_verifier())})
    try:
        server = ThreadingHTTPServer((LOOPBACK, port), receiver)
    except OSError:
        server = ThreadingHTTPServer((LOOPBACK, 0), receiver)  # the port is taken: any free one
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True).start()
    webhooks.set_endpoint(partner, receiver_url(server))
    return server


def receiver_url(server: ThreadingHTTPServer) -> str:
    return f"http://{LOOPBACK}:{server.server_port}{RECEIVER_PATH}"
