"""The CORS rule (edge.cors) and how the template and samconfig configure it per environment."""

from __future__ import annotations

import tomllib

import pytest

from edge import cors
from edge.cors import origin_allowed
from local.template import ROOT, load_template

LOCAL = ("http://localhost:*", "http://127.0.0.1:*")


@pytest.mark.parametrize("origin", ["http://localhost:5173", "http://127.0.0.1:3000", "http://localhost:65535"])
def test_a_port_wildcard_allows_that_host_on_any_port(origin: str) -> None:
    assert origin_allowed(origin, LOCAL)


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "",
        "null",
        "http://localhost",
        "http://localhost:",
        "https://localhost:5173",
        "http://localhost:5173.evil.example",
        "http://localhost.evil.example:5173",
        "http://localhost:٣٠٠٠",  # non-ASCII digits
        "http://localhost:123456",
    ],
)
def test_anything_else_is_refused(origin: str | None) -> None:
    assert not origin_allowed(origin, LOCAL)


def test_exact_origins_match_exactly() -> None:
    allowed = ("https://app.partner.uz",)
    assert origin_allowed("https://app.partner.uz", allowed)
    assert not origin_allowed("https://app.partner.uz.evil.example", allowed)
    assert not origin_allowed("http://app.partner.uz", allowed)


def test_every_environment_lists_its_origins_and_none_allows_every_origin() -> None:
    template = load_template()
    assert template["Parameters"]["AllowedOrigins"]["Type"] == "CommaDelimitedList"
    assert "Default" not in template["Parameters"]["AllowedOrigins"]  # each environment must say
    assert "ALLOWED_ORIGINS" in template["Globals"]["Function"]["Environment"]["Variables"]
    config = tomllib.loads((ROOT / "samconfig.toml").read_text())
    for env in ("default", "dev", "staging", "prod"):
        overrides = config[env]["deploy"]["parameters"]["parameter_overrides"]
        origins = next(part for part in overrides.split() if part.startswith("AllowedOrigins="))
        assert "*" not in origins, env


def test_the_gateway_answers_preflights_and_its_own_errors_carry_cors_headers() -> None:
    api = load_template()["Resources"]["Api"]["Properties"]
    assert "Idempotency-Key" in api["Cors"]["AllowHeaders"]
    assert "AllowCredentials" not in api["Cors"]  # the token is a header, never a cookie
    assert api["Cors"]["AllowHeaders"] == "'" + ",".join(cors.ALLOWED_HEADERS) + "'"
    for name, response in api["GatewayResponses"].items():
        headers = response["ResponseParameters"]["Headers"]
        assert headers["Access-Control-Allow-Origin"] == "method.request.header.Origin", name
        # a page reads the same headers of the gateway's answers as of the functions' (the request's id...)
        assert headers["Access-Control-Expose-Headers"] == "'" + ",".join(cors.EXPOSED_HEADERS) + "'", name


def test_the_gateways_own_answers_name_the_request_for_support() -> None:
    answers = load_template()["Resources"]["Api"]["Properties"]["GatewayResponses"]
    for name, response in answers.items():
        for body in response.get("ResponseTemplates", {}).values():
            assert '"details":{"requestId":"$context.requestId"}' in body, name
