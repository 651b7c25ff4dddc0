"""The local emulator's own behaviour that the HTTP tests cannot see."""

from __future__ import annotations

from local.gateway import mask_card_numbers


def test_the_access_log_never_shows_a_card_number() -> None:
    line = "GET /api/v1/transactions/check-card?cardNumber=8600%204954%207331%206478&x=1 HTTP/1.1"
    assert mask_card_numbers(line) == "GET /api/v1/transactions/check-card?cardNumber=[masked]&x=1 HTTP/1.1"
    assert mask_card_numbers("GET /api/v1/cars?limit=2 HTTP/1.1") == "GET /api/v1/cars?limit=2 HTTP/1.1"
