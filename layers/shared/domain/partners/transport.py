"""One HTTP POST to a partner's webhook endpoint, finished within a deadline for the whole attempt, to
an address that was checked before the connection was made.

- The deadline covers everything (`core.deadline.Deadline`, the type every outbound call keeps; out of
  time is `core.deadline.DeadlineExceeded`): name resolution, connect, the TLS handshake, sending the request and
  reading the answer's status line and headers. Every blocking step gets only the time left (a socket
  timeout is otherwise per read: a receiver trickling one header line every few seconds would hold the
  attempt for as long as it liked). The TLS handshake runs non-blocking, waiting on `select` with the
  time left, for the same reason. The answer's body is not read: only its status and `Retry-After`
  matter, and the connection is closed after the headers.
- The host is resolved once, every address it resolves to is checked (`check_address`, for example:
  no loopback, private or link-local address), and the connection goes to a checked address: a name
  that resolves elsewhere a moment later (DNS rebinding) cannot redirect it. TLS still verifies the
  certificate against the host name (SNI), and `Host` names the host as registered.
- No redirect is followed (a 3xx is an answer like any other), no proxy is used.
"""

import ipaddress
import select
import socket
import ssl
from collections.abc import Callable, Mapping
from functools import cache
from typing import NamedTuple
from urllib.parse import urlsplit

from core.deadline import Deadline, DeadlineExceeded

MAX_HEAD_BYTES = 64 * 1024  # an answer's status line and headers; more is not an HTTP answer we take
type Address = ipaddress.IPv4Address | ipaddress.IPv6Address
type Resolver = Callable[[str, int], list[str]]


class Answer(NamedTuple):
    status: int
    headers: Mapping[str, str]  # lower-case names


class AddressRefused(OSError):
    """The endpoint's host resolves to an address deliveries may not go to."""


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (an IP literal in any spelling the C library accepts, such as
    `0x7f000001` or `2130706433`, resolves to itself)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def parse_address(text: str) -> Address:
    """An address as `getaddrinfo` answers it (an IPv6 zone, `%eth0`, is dropped)."""
    return ipaddress.ip_address(text.split("%", 1)[0])


@cache
def _tls_context() -> ssl.SSLContext:
    """Built on the first https delivery: loading the system's CA certificates is that delivery's cost."""
    return ssl.create_default_context()


def post(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    deadline_seconds: float,
    check_address: Callable[[Address], bool] | None = None,
    resolve: Resolver = system_resolver,
    tls: ssl.SSLContext | None = None,
) -> Answer:
    """POST `body` to `url` and return the answer's status and headers, all within `deadline_seconds`.
    Raises DeadlineExceeded, AddressRefused (an address `check_address` refuses), or another OSError /
    ValueError (refused connection, TLS failure, an answer that is not HTTP). `tls` is the system's
    certificate authorities unless given (a test's own)."""
    deadline = Deadline(deadline_seconds)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = [parse_address(found) for found in resolve(host, port)]
    deadline.left()
    if not addresses:
        raise OSError(f"{host} resolves to no address")
    if check_address is not None:
        refused = [str(address) for address in addresses if not check_address(address)]
        if refused:
            raise AddressRefused(f"{host} resolves to an address webhooks may not go to: {', '.join(refused)}")
    sock = _connect(addresses, port, deadline)
    try:
        if parts.scheme == "https":
            sock = _handshake(sock, tls or _tls_context(), host, deadline)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        authority = parts.netloc.rsplit("@", 1)[-1]
        _send(sock, _request_head(target, authority, headers, len(body)) + body, deadline)
        return _read_answer(sock, deadline)
    finally:
        sock.close()


def _connect(addresses: list[Address], port: int, deadline: Deadline) -> socket.socket:
    """A connection to the first of the checked addresses that takes one."""
    failure: OSError = OSError("no address to connect to")
    for address in addresses:
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(deadline.left())
            sock.connect((str(address), port))
            return sock
        except DeadlineExceeded:
            sock.close()
            raise
        except TimeoutError as exc:
            sock.close()
            raise DeadlineExceeded("connecting took the whole deadline") from exc
        except OSError as exc:
            sock.close()
            failure = exc
    raise failure


def _handshake(sock: socket.socket, context: ssl.SSLContext, host: str, deadline: Deadline) -> ssl.SSLSocket:
    tls = context.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    tls.setblocking(False)
    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            readable, _, _ = select.select([tls], [], [], deadline.left())
            if not readable:
                deadline.left()
        except ssl.SSLWantWriteError:
            _, writable, _ = select.select([], [tls], [], deadline.left())
            if not writable:
                deadline.left()
    tls.setblocking(True)
    return tls


def _request_head(target: str, authority: str, headers: Mapping[str, str], length: int) -> bytes:
    lines = [f"POST {target} HTTP/1.1", f"Host: {authority}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines += [f"Content-Length: {length}", "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


def _send(sock: socket.socket, data: bytes, deadline: Deadline) -> None:
    view = memoryview(data)
    while view:
        sock.settimeout(deadline.left())
        try:
            sent = sock.send(view)
        except TimeoutError as exc:
            raise DeadlineExceeded("sending took the whole deadline") from exc
        view = view[sent:]


def _read_answer(sock: socket.socket, deadline: Deadline) -> Answer:
    """The first final answer's status and headers (an informational 1xx answer is skipped)."""
    buffer = b""
    while True:
        while b"\r\n\r\n" not in buffer:
            if len(buffer) > MAX_HEAD_BYTES:
                raise ValueError("the answer's headers are too long")
            sock.settimeout(deadline.left())
            try:
                chunk = sock.recv(8192)
            except TimeoutError as exc:
                raise DeadlineExceeded("the answer took the whole deadline") from exc
            if not chunk:
                raise ConnectionError("the endpoint closed the connection before answering")
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        status_line, _, header_block = head.partition(b"\r\n")
        version, _, rest = status_line.decode("latin-1").partition(" ")
        code = rest[:3]
        if not version.startswith("HTTP/1.") or not code.isdigit():
            raise ValueError("the answer is not HTTP/1.x")
        status = int(code)
        if 100 <= status < 200:
            continue
        return Answer(status, _headers(header_block))


def _headers(block: bytes) -> dict[str, str]:
    """`Name: value` lines, by lower-case name (the first of a repeated one; an obsolete folded line is
    dropped: only Retry-After is read)."""
    found: dict[str, str] = {}
    for line in block.decode("latin-1").split("\r\n"):
        name, colon, value = line.partition(":")
        if colon and name and not name[0].isspace():
            found.setdefault(name.strip().lower(), value.strip())
    return found
