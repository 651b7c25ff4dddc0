"""One webhook attempt against real sockets on this machine: the deadline covers the whole attempt (a
receiver trickling its answer cannot stretch it), the connection goes to the address that was checked
(never to what the name resolves to later), and a refused address is never connected to."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from core.deadline import DeadlineExceeded
from core.settings import reset_settings
from domain.partners import delivery, destinations, transport, webhooks
from local.seed.core import DEMO_PARTNER

TRICKLE_EVERY_SECONDS = 0.3
TRICKLED_LINES = 40  # 12 s of headers, one line at a time: far past the test's deadline
DEADLINE_SECONDS = 1.0


@dataclass
class RawReceiver:
    """An HTTP endpoint written on a bare socket, to answer as slowly or oddly as a test needs."""

    port: int = 0
    requests: list[bytes] = field(default_factory=list)
    answer: list[bytes] = field(default_factory=lambda: [b"HTTP/1.1 204 No Content\r\n\r\n"])
    pause: float = 0.0  # between the answer's pieces
    stop: threading.Event = field(default_factory=threading.Event)

    def serve(self, listener: socket.socket) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue  # a chance to see `stop`
            except OSError:
                return
            with connection:
                connection.settimeout(5)
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    request += chunk
                self.requests.append(request)
                try:
                    for piece in self.answer:
                        connection.sendall(piece)
                        if self.stop.wait(self.pause):
                            break
                except OSError:
                    pass  # the sender hung up (its deadline): what the test wants


@pytest.fixture
def raw_receiver() -> Iterator[RawReceiver]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    state = RawReceiver(port=listener.getsockname()[1])
    thread = threading.Thread(target=state.serve, args=(listener,), daemon=True)
    thread.start()
    yield state
    state.stop.set()
    thread.join(timeout=5)
    listener.close()


def trickling(receiver: RawReceiver) -> None:
    receiver.answer = [b"HTTP/1.1 200 OK\r\n", *(b"X-Slow-%d: 1\r\n" % n for n in range(TRICKLED_LINES)), b"\r\n"]
    receiver.pause = TRICKLE_EVERY_SECONDS


def test_a_receiver_trickling_its_headers_cannot_hold_an_attempt_past_its_deadline(raw_receiver: RawReceiver) -> None:
    # Given a receiver that answers one header line every 0.3 s (no single read ever times out)
    trickling(raw_receiver)
    url = f"http://127.0.0.1:{raw_receiver.port}/hooks"
    # When an attempt with a 1 s deadline posts to it
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        transport.post(url, b"{}", {"Content-Type": "application/json"}, deadline_seconds=DEADLINE_SECONDS)
    took = time.monotonic() - started
    # Then it gave up at the deadline, though the receiver was still sending
    assert DEADLINE_SECONDS <= took < DEADLINE_SECONDS + 0.5
    assert len(raw_receiver.requests) == 1


def test_the_delivery_of_a_webhook_to_a_trickling_receiver_fails_at_the_deadline_setting(
    raw_receiver: RawReceiver, monkeypatch: pytest.MonkeyPatch, db: object
) -> None:
    # Given the partner's endpoint on a trickling receiver, and a 1 s WEBHOOK_TIMEOUT_SECONDS
    trickling(raw_receiver)
    monkeypatch.setenv("WEBHOOK_TIMEOUT_SECONDS", str(DEADLINE_SECONDS))
    reset_settings()
    webhooks.set_endpoint(DEMO_PARTNER, f"http://127.0.0.1:{raw_receiver.port}/hooks")
    # When a webhook is delivered
    started = time.monotonic()
    attempt = delivery.deliver(DEMO_PARTNER, "evt-slow", "{}")
    took = time.monotonic() - started
    # Then the attempt failed at its deadline and will be retried
    assert not attempt.delivered
    assert attempt.reason.startswith("DeadlineExceeded")
    assert took < DEADLINE_SECONDS + 0.5
    reset_settings()


def test_the_connection_goes_to_the_checked_address_and_host_names_the_registered_host(
    raw_receiver: RawReceiver,
) -> None:
    # Given a name that resolved to an address the check accepted (here this machine's, for the test)
    checked: list[str] = []

    def check(address: transport.Address) -> bool:
        checked.append(str(address))
        return True

    # When the attempt posts to it
    answer = transport.post(
        f"http://hooks.partner.invalid:{raw_receiver.port}/car-retail?x=1",
        b'{"a":1}',
        {"Content-Type": "application/json"},
        deadline_seconds=5,
        check_address=check,
        resolve=lambda host, port: ["127.0.0.1"],
    )
    # Then the checked address took the request, sent for the registered host, path and query
    assert answer.status == 204
    assert checked == ["127.0.0.1"]
    [request] = raw_receiver.requests
    assert request.startswith(b"POST /car-retail?x=1 HTTP/1.1\r\n")
    assert f"Host: hooks.partner.invalid:{raw_receiver.port}\r\n".encode() in request


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "::a9fe:a9fe", "::ffff:0:7f00:1", "fec0::1", "::ffff:127.0.0.1"],
    ids=["loopback", "ipv4-compatible", "ipv4-translated", "site-local", "ipv4-mapped"],
)
def test_a_name_resolving_to_an_internal_address_is_never_connected_to(raw_receiver: RawReceiver, address: str) -> None:
    # Given a name that now resolves to an internal address, in any IPv4 or IPv6 form (a DNS rebinding after
    # registration), and the public-only check
    url = f"http://rebound.partner.invalid:{raw_receiver.port}/hooks"
    # When the attempt is made / Then it is refused before any connection
    with pytest.raises(transport.AddressRefused):
        transport.post(
            url,
            b"{}",
            {},
            deadline_seconds=5,
            check_address=destinations.is_public_address,
            resolve=lambda host, port: [address],
        )
    assert raw_receiver.requests == []


def test_an_informational_answer_is_skipped_and_retry_after_is_read(raw_receiver: RawReceiver) -> None:
    # Given a receiver that answers 100 Continue, then 503 with Retry-After
    raw_receiver.answer = [b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Busy\r\nRetry-After: 120\r\n\r\n"]
    # When the attempt posts / Then it reads the final answer's status and headers
    answer = transport.post(f"http://127.0.0.1:{raw_receiver.port}/", b"{}", {}, deadline_seconds=5)
    assert (answer.status, answer.headers["retry-after"]) == (503, "120")


def test_an_answer_that_is_not_http_fails_the_attempt(raw_receiver: RawReceiver) -> None:
    # Given a receiver that answers something else / When posted to / Then the attempt fails
    raw_receiver.answer = [b"SSH-2.0-OpenSSH_9.6\r\n\r\n"]
    with pytest.raises(ValueError, match="not HTTP"):
        transport.post(f"http://127.0.0.1:{raw_receiver.port}/", b"{}", {}, deadline_seconds=5)


# --- https ------------------------------------------------------------------------------------------

TLS_HOST = "hooks.partner.test"


@dataclass
class TlsEndpoint:
    port: int
    client: ssl.SSLContext  # trusts the endpoint's self-signed certificate, as a system CA would a real one
    requests: list[str]


@pytest.fixture
def tls_endpoint(tmp_path: Path) -> Iterator[TlsEndpoint]:
    """An HTTPS endpoint on this machine with a certificate for TLS_HOST (self-signed, made here)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, TLS_HOST)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(TLS_HOST)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    requests: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            requests.append(f"{self.path} Host={self.headers['Host']}")
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert_file, key_file)
    server.socket = serving.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client = ssl.create_default_context(cafile=str(cert_file))
    yield TlsEndpoint(server.server_port, client, requests)
    server.shutdown()
    server.server_close()


def test_https_goes_to_the_checked_address_and_verifies_the_certificate_for_the_registered_host(
    tls_endpoint: TlsEndpoint,
) -> None:
    # Given the partner's host resolving to the endpoint's address, which the check accepted
    url = f"https://{TLS_HOST}:{tls_endpoint.port}/hooks"
    # When the attempt posts over TLS to that address
    answer = transport.post(
        url,
        b"{}",
        {},
        deadline_seconds=5,
        check_address=lambda a: True,
        resolve=lambda h, p: ["127.0.0.1"],
        tls=tls_endpoint.client,
    )
    # Then the certificate was checked against the host name (SNI) and the request arrived
    assert answer.status == 204
    assert tls_endpoint.requests == [f"/hooks Host={TLS_HOST}:{tls_endpoint.port}"]


def test_https_to_a_certificate_of_another_name_fails(tls_endpoint: TlsEndpoint) -> None:
    # Given a host name the endpoint's certificate does not name / When posted to / Then TLS refuses it
    with pytest.raises(ssl.SSLCertVerificationError):
        transport.post(
            f"https://other.partner.test:{tls_endpoint.port}/hooks",
            b"{}",
            {},
            deadline_seconds=5,
            resolve=lambda h, p: ["127.0.0.1"],
            tls=tls_endpoint.client,
        )
    assert tls_endpoint.requests == []


def test_a_tls_handshake_that_never_comes_ends_at_the_deadline(raw_receiver: RawReceiver) -> None:
    # Given an endpoint that accepts the connection and never answers the TLS hello
    raw_receiver.answer = [b"", b""]
    raw_receiver.pause = 10
    # When an https attempt with a 1 s deadline is made
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        transport.post(f"https://127.0.0.1:{raw_receiver.port}/", b"{}", {}, deadline_seconds=DEADLINE_SECONDS)
    # Then it gave up at the deadline
    assert time.monotonic() - started < DEADLINE_SECONDS + 0.5
