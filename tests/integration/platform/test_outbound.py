"""The outbound port (`core.outbound`), the one way the service calls a partner over HTTP: JSON in and out,
one deadline for the whole exchange within the request's budget, no redirect followed, and failures
that name their kind, never the URL, a header or a body."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator

import pytest

from core import deadline, outbound
from tests.fake_http import Answer, FakeServer, serving


class Partner(FakeServer):
    """Echoes what it was sent as JSON; `/moved` answers a redirect to `/elsewhere`."""

    def __init__(self) -> None:
        super().__init__("echo", "moved", "elsewhere")

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if path == "/echo":
            return "echo", lambda: (200, {"method": method, "type": headers.get("content-type"), "body": body.decode()})
        if path == "/moved":
            return "moved", lambda: (302, {"location": "/elsewhere"})
        if path == "/elsewhere":
            return "elsewhere", lambda: (200, {})
        return None


@pytest.fixture
def partner() -> Iterator[Partner]:
    with serving(Partner()) as running:
        yield running


def test_json_goes_out_and_comes_back(partner: Partner) -> None:
    # When JSON is sent / Then the partner got it as JSON, and its answer is read as JSON
    reply = outbound.exchange(outbound.json_request("POST", f"{partner.base_url}/echo", {"a": 1}), timeout=5)
    assert reply.status == 200
    assert reply.body == {"method": "POST", "type": "application/json", "body": '{"a": 1}'}


def test_a_redirect_is_an_answer_not_followed(partner: Partner) -> None:
    reply = outbound.exchange(outbound.json_request("GET", f"{partner.base_url}/moved"), timeout=5)
    assert reply.status == 302
    assert partner.calls["elsewhere"] == 0


def test_a_partner_that_never_answers_ends_at_the_request_budget(partner: Partner) -> None:
    # Given a partner that never answers, and a request budget of 0.3 s for a call allowed 30 s
    partner.fail("echo", "hang")
    started = time.monotonic()
    # When it is called / Then the one DeadlineExceeded ends it at the budget
    with deadline.budget(0.3), pytest.raises(deadline.DeadlineExceeded):
        outbound.exchange(outbound.json_request("GET", f"{partner.base_url}/echo"), timeout=30)
    assert time.monotonic() - started < 5


def test_an_unreachable_partner_is_named_by_the_kind_of_failure_never_the_url() -> None:
    # Given a port nobody listens on, and a URL carrying a secret in its query
    with socket.socket() as placeholder:
        placeholder.bind(("127.0.0.1", 0))
        port = placeholder.getsockname()[1]
    url = f"http://127.0.0.1:{port}/data?code=secret-code-123456"
    # When it is called / Then it is Unreachable, and nothing of the URL is in the error
    with pytest.raises(outbound.Unreachable) as failed:
        outbound.exchange(outbound.json_request("GET", url), timeout=5)
    assert "secret-code" not in str(failed.value)
    assert "secret-code" not in repr(outbound.json_request("GET", url, {"card": "8600"}))
