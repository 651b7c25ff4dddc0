"""Partner webhooks on a laptop, where there is no SQS queue: the outbox hands webhooks straight to
`deliver_in_process` (one attempt, the deployed delivery code), and `make run` serves a receiver that
prints what it gets and checks the signature, with the demo partner's endpoint pointed at it.

A webhook the receiver (or any endpoint) did not take stays in the outbox: `make run` runs the outbox
publisher every few seconds (`publish_pending_forever`), as EventBridge Scheduler does deployed every
minute, so it is tried again, in order.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from core import clock
from core.observability import logger
from core.settings import get_settings
from data import outbox, webhook_queue
from data.webhook_queue import QueuedWebhook
from domain.partners import delivery, store, webhooks
from local.template import ROOT

DEFAULT_RECEIVER_PORT = 3001
LOOPBACK = "127.0.0.1"
RECEIVER_PATH = "/webhooks"
PUBLISH_EVERY_SECONDS = 5.0


def deliver_in_process(batch: list[QueuedWebhook]) -> list[bool]:
    return [delivery.deliver(webhook.partner, webhook.event_id, webhook.body).delivered for webhook in batch]


def install() -> None:
    """Deliver webhooks in this process when it is local and has no queue (WEBHOOK_QUEUE_URL)."""
    settings = get_settings()
    if settings.is_local and settings.webhook_queue_url is None:
        webhook_queue.use_local_consumer(deliver_in_process)


INTERFACE_DOC = ROOT / "docs" / "INTERFACE.md"
SNIPPET_MARKER = "<!-- webhook-verification-snippet -->"


def documented_verifier() -> Callable[..., bool]:
    """`verify_webhook` exactly as docs/INTERFACE.md publishes it for partners (the Python block after
    SNIPPET_MARKER): the local receiver checks deliveries with it, as a partner would, and so do the tests."""
    text = INTERFACE_DOC.read_text(encoding="utf-8")
    block = re.search(re.escape(SNIPPET_MARKER) + r"\s*```python\n(.*?)```", text, re.DOTALL)
    if block is None:
        raise RuntimeError(f"no webhook verification snippet in {INTERFACE_DOC}")
    namespace: dict[str, Any] = {}
    exec(compile(block.group(1), str(INTERFACE_DOC), "exec"), namespace)  # noqa: S102 (our own documentation)
    verify: Callable[..., bool] = namespace["verify_webhook"]
    return verify


@dataclass(frozen=True)
class DocumentedExample:
    signature: str
    body: bytes
    timestamp: int


def documented_example() -> DocumentedExample:
    """The example delivery of docs/INTERFACE.md: its X-Signature, body and signing time."""
    text = INTERFACE_DOC.read_text(encoding="utf-8")
    example = re.search(r"```http\n.*?X-Signature: (t=(\d+),v1=[0-9a-f]+)\n\n(.*?)\n```", text, re.DOTALL)
    if example is None:
        raise RuntimeError(f"no webhook example in {INTERFACE_DOC}")
    return DocumentedExample(example.group(1), example.group(3).encode(), int(example.group(2)))


def signature_matches(partner: str, header: str, body: bytes, verify: Callable[..., bool]) -> bool:
    """Whether `verify` (the documented snippet) accepts the delivery under one of the partner's secrets."""
    endpoint = store.find_webhook(partner)
    if endpoint is None:
        return False
    now = clock.now()
    return any(verify(secret, header, body, now=now.timestamp()) for secret in webhooks.signing_secrets(endpoint, now))


class _Receiver(BaseHTTPRequestHandler):
    partner = ""
    verify: Callable[..., bool]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        header = self.headers.get(webhooks.SIGNATURE_HEADER, "")
        verified = signature_matches(self.partner, header, body, type(self).verify)
        try:
            event = json.loads(body)
            change = f"{event.get('contractNumber')} {event.get('from')} -> {event.get('to')}"
        except ValueError:
            change = "(not JSON)"
        print(
            f"webhook received: {change}  event {self.headers.get(webhooks.EVENT_ID_HEADER)}  "
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


def publish_pending_forever(stop: threading.Event) -> threading.Thread:
    """The scheduled outbox publisher of a laptop: every few seconds, until `stop` is set."""

    def run() -> None:
        while not stop.wait(PUBLISH_EVERY_SECONDS):
            try:
                outbox.publish_pending()
            except Exception:
                logger.exception("local outbox publisher failed; trying again")

    thread = threading.Thread(target=run, name="outbox-publisher", daemon=True)
    thread.start()
    return thread
