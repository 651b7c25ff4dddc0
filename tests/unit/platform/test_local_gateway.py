"""The local emulator's own behaviour that the HTTP tests cannot see."""

from __future__ import annotations

import threading

import pytest

from local.gateway import ARRIVAL_SECONDS, LambdaInstance, mask_card_numbers


def test_the_access_log_never_shows_a_card_number() -> None:
    line = "GET /api/v1/transactions/check-card?cardNumber=8600%204954%207331%206478&x=1 HTTP/1.1"
    assert mask_card_numbers(line) == "GET /api/v1/transactions/check-card?cardNumber=[masked]&x=1 HTTP/1.1"
    assert mask_card_numbers("GET /api/v1/cars?limit=2 HTTP/1.1") == "GET /api/v1/cars?limit=2 HTTP/1.1"


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        # written with spaces: the request line splits the number into words
        (
            "GET /api/v1/transactions/check-card?cardNumber=8600 4954 7331 6478 HTTP/1.1",
            "GET /api/v1/transactions/check-card?cardNumber=[masked] HTTP/1.1",
        ),
        ("GET /api/v1/cars?q=8600 4954 7331 6478 HTTP/1.1", "GET /api/v1/cars?q=[masked] HTTP/1.1"),
        # in a path segment, plain, encoded or with dashes
        ("GET /api/v1/cars/8600495473316478 HTTP/1.1", "GET /api/v1/cars/[masked] HTTP/1.1"),
        ("GET /api/v1/cars/8600%204954%207331%206478/info HTTP/1.1", "GET /api/v1/cars/[masked]/info HTTP/1.1"),
        ("GET /api/v1/orders/8600-4954-7331-6478 HTTP/1.1", "GET /api/v1/orders/[masked] HTTP/1.1"),
        # a bare query word, and plus-encoded spaces
        ("GET /api/v1/cars?8600495473316478 HTTP/1.1", "GET /api/v1/cars?[masked] HTTP/1.1"),
        ("GET /api/v1/cars?q=8600+4954+7331+6478 HTTP/1.1", "GET /api/v1/cars?q=[masked] HTTP/1.1"),
    ],
)
def test_a_card_number_is_masked_wherever_and_however_it_is_written(line: str, logged: str) -> None:
    assert mask_card_numbers(line) == logged


def test_ids_and_short_numbers_stay_readable() -> None:
    # An ObjectId, a 24-digit id and a short number are not card numbers
    for line in (
        "GET /api/v1/cars/65a1b2c3d4e5f60718293a4b HTTP/1.1",
        "GET /api/v1/orders/650000000000000000000001 HTTP/1.1",
        "GET /api/v1/payments/installment?price=350000000&limit=20 HTTP/1.1",
    ):
        assert mask_card_numbers(line) == line


def test_an_instance_is_idle_once_its_invocation_ends() -> None:
    # Given an instance running an invocation, and someone waiting for it to be idle
    instance = LambdaInstance()
    assert instance.idle(timeout=0)
    waited: list[bool] = []
    with instance.invocation():
        assert not instance.idle(timeout=0)
        waiting = threading.Thread(target=lambda: waited.append(instance.idle(timeout=60)))
        waiting.start()
    # When the invocation ends, Then the instance is idle, and the waiting one was told so
    waiting.join(timeout=60)
    assert waited == [True]
    assert instance.idle(timeout=0)


def test_a_connection_just_accepted_keeps_the_instance_busy_until_answered_or_for_a_moment() -> None:
    # Given an idle instance on a clock the test moves
    now = [100.0]
    instance = LambdaInstance(monotonic=lambda: now[0])
    # When it accepts a connection, Then it is busy: the next connection of a burst goes to another worker
    instance.arrival("first")
    assert not instance.idle(timeout=0)
    # When the connection's first request is answered, Then it is idle again
    instance.departure("first")
    assert instance.idle(timeout=0)
    # And a connection whose request trickles holds it back only ARRIVAL_SECONDS
    instance.arrival("slow")
    now[0] += ARRIVAL_SECONDS
    assert instance.idle(timeout=0)
