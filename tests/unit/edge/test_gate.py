"""The request gate on its own, with a fake `Callers` (no database): 400 for a missing header, then 403 for
an unknown partner, then 401 for a bad token, each asked only once the one before has passed; and the
caller's user checked once per request, only when a route acts for its caller."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import Response

from core.errors import InvalidInput, NotAuthenticated
from core.locale import parse_accept_language
from core.models import ApiModel
from edge import context, json_budget, responses
from edge.access import PUBLIC, parse_json_body
from edge.app import ApiResolver, create_app, declaration_of, lambda_entry
from edge.app import gate_or_refuse as gate_event
from edge.context import RequestContext, set_current
from edge.envelope import Envelope
from edge.headers import request_headers
from edge.validation import RequestModel
from local.context import LocalLambdaContext
from tests.factories import DEMO_CLIENT_KEY, api_event, bearer

USER_ID = "665f1c2e9b1e8a3d4c5b6a79"
GOOD_TOKEN = "good-access-token"


class FakeCallers:
    """Knows one partner (the demo key), one token and one user; records what the gate asked, in order."""

    def __init__(self) -> None:
        self.partners = {DEMO_CLIENT_KEY: "Demo partner"}
        self.users = {USER_ID}
        self.asked: list[str] = []

    def partner_name(self, client_key: str) -> str | None:
        self.asked.append("partner")
        return self.partners.get(client_key)

    def user_exists(self, user_id: str) -> bool:
        self.asked.append("user")
        return user_id in self.users

    def verify_access_token(self, token: str, partner: str) -> str:
        self.asked.append("token")
        if token != GOOD_TOKEN:
            raise NotAuthenticated("TOKEN_INVALID")
        return USER_ID


class Thing(ApiModel):
    name: str


class ThingBody(RequestModel):
    name: str


def app_with(callers: FakeCallers) -> ApiResolver:
    app = create_app(callers=callers)

    @app.get("/api/v1/things")
    def things() -> Response[Envelope[Thing]]:
        return responses.ok(Thing(name="mine"))

    @app.get("/api/v1/things/public", middlewares=[PUBLIC])
    def public_things() -> Response[Envelope[Thing]]:
        return responses.ok(Thing(name="open"))

    @app.post("/api/v1/things", middlewares=[PUBLIC])
    def add_thing(body: ThingBody) -> Response[Envelope[Thing]]:
        return responses.ok(Thing(name=body.name))

    return app


@pytest.fixture
def callers() -> FakeCallers:
    set_current(RequestContext())
    return FakeCallers()


def gate_or_refuse(app: ApiResolver, event: dict[str, Any]) -> dict[str, Any] | None:
    headers = request_headers(event)
    locale = parse_accept_language(headers.get("accept-language"))
    return gate_event(app, event, headers, locale, declaration_of(app, event))


def refusal(result: dict[str, Any] | None) -> tuple[int, str]:
    assert result is not None, "the gate let the request through"
    return result["statusCode"], json.loads(result["body"])["code"]


def test_a_missing_header_is_400_before_the_partner_is_asked(callers: FakeCallers) -> None:
    # Given a request without its fingerprint, from an unknown partner, with a bad token
    event = api_event("GET", "/api/v1/things", headers={"fingerprint": "", "client": "nobody", **bearer("forged")})
    # When it reaches the gate
    result = gate_or_refuse(app_with(callers), event)
    # Then it is refused 400 naming the header, and nobody was asked anything
    assert refusal(result) == (400, "MISSING_HEADER")
    assert result is not None
    assert json.loads(result["body"])["errors"][0]["field"] == "header.fingerprint"
    assert callers.asked == []


def test_an_unknown_partner_is_403_before_the_token_is_read(callers: FakeCallers) -> None:
    # Given a request with every header, from an unknown partner, with a bad token
    event = api_event("GET", "/api/v1/things", headers={"client": "nobody", **bearer("forged")})
    # When it reaches the gate
    result = gate_or_refuse(app_with(callers), event)
    # Then it is refused 403, and the token was never verified
    assert refusal(result) == (403, "CLIENT_KEY_UNKNOWN")
    assert callers.asked == ["partner"]


def test_a_bad_token_is_401_once_the_partner_is_known(callers: FakeCallers) -> None:
    # Given a request of a known partner with a token the callers refuse
    event = api_event("GET", "/api/v1/things", headers=bearer("forged"))
    # When it reaches the gate
    result = gate_or_refuse(app_with(callers), event)
    # Then it is refused 401 with the callers' reason, after the partner was asked
    assert refusal(result) == (401, "TOKEN_INVALID")
    assert callers.asked == ["partner", "token"]


def test_a_jwt_route_without_a_token_is_401(callers: FakeCallers) -> None:
    result = gate_or_refuse(app_with(callers), api_event("GET", "/api/v1/things"))
    assert refusal(result) == (401, "TOKEN_MISSING")
    assert callers.asked == ["partner"]


def test_a_public_route_never_reads_the_token(callers: FakeCallers) -> None:
    # Given a public route called with a token that would be refused
    event = api_event("GET", "/api/v1/things/public", headers=bearer("forged"))
    # When it reaches the gate, then it passes, knowing the partner and no user
    assert gate_or_refuse(app_with(callers), event) is None
    assert (context.current().partner, context.current().user_id) == ("Demo partner", None)
    assert callers.asked == ["partner"]


def test_the_users_existence_is_checked_once_per_request_and_only_when_asked(callers: FakeCallers) -> None:
    # Given a request with a valid token that passed the gate
    assert gate_or_refuse(app_with(callers), api_event("GET", "/api/v1/things", headers=bearer(GOOD_TOKEN))) is None
    assert callers.asked == ["partner", "token"]
    # When a route asks for its caller twice
    first, second = context.caller_id(), context.caller_id()
    # Then it gets the token's user, whose existence was checked once
    assert first == second == USER_ID
    assert callers.asked == ["partner", "token", "user"]


def test_a_user_deleted_since_the_token_was_issued_is_not_authenticated(callers: FakeCallers) -> None:
    # Given a valid token of a user who no longer exists
    callers.users.clear()
    assert gate_or_refuse(app_with(callers), api_event("GET", "/api/v1/things", headers=bearer(GOOD_TOKEN))) is None
    # When a route acts for its caller, then it is refused
    with pytest.raises(NotAuthenticated, match="USER_NOT_FOUND"):
        context.caller_id()


def test_each_log_line_names_its_own_request(callers: FakeCallers, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import logging

    from aws_lambda_powertools.logging import logger as powertools_logging

    from core.observability import logger
    from edge.app import lambda_entry
    from local.context import LocalLambdaContext

    # Given a function whose route logs a line
    app = create_app(callers=callers)

    @app.get("/api/v1/things/public", middlewares=[PUBLIC])
    def public_things() -> Response[Envelope[Thing]]:
        logger.warning("thing served")
        return responses.ok(Thing(name="open"))

    handler = lambda_entry(app)
    monkeypatch.setattr(powertools_logging, "is_cold_start", True)  # a new instance, not yet invoked
    written = io.StringIO()
    lines_of = logging.StreamHandler(written)
    lines_of.setFormatter(logger.registered_formatter)  # the lines as the function writes them
    function_logger = logging.getLogger(logger.name)  # Powertools logs through the logger of its service name
    function_logger.addHandler(lines_of)
    # When two requests come, each with its own API Gateway and Lambda request ids
    for number in (1, 2):
        event = api_event("GET", "/api/v1/things/public")
        event["requestContext"]["requestId"] = f"gateway-{number}"
        context: Any = LocalLambdaContext(function_name="Things", aws_request_id=f"lambda-{number}")
        handler(event, context)

    # Then each line carries its own request's ids, the function's name, and cold start on the first only
    function_logger.removeHandler(lines_of)
    lines = [json.loads(line) for line in written.getvalue().splitlines() if '"thing served"' in line]
    assert [(line["correlation_id"], line["function_request_id"], line["cold_start"]) for line in lines] == [
        ("gateway-1", "lambda-1", True),
        ("gateway-2", "lambda-2", False),
    ]
    assert {line["function_name"] for line in lines} == {"Things"}


def test_a_body_under_the_allowance_alone_passes_without_deriving_the_routes_budget(
    callers: FakeCallers, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a route taking a body, and a small body sent to it
    app = app_with(callers)
    event = api_event("POST", "/api/v1/things", body={"name": "mine", "note": "x" * 10_000})
    derived: list[type] = []
    monkeypatch.setattr(json_budget, "budget_of_model", derived.append)
    # When it reaches the gate, then it passes, and the route's budget (its model's schema) was not derived
    assert gate_or_refuse(app, event) is None
    assert derived == []


def test_a_body_over_the_routes_budget_is_413_naming_it(callers: FakeCallers) -> None:
    # Given a body of 3,000 strings for a route whose body is one string member, from an English speaker
    event = api_event("POST", "/api/v1/things", body={"name": "mine", "note": ["x"] * 3_000})
    set_current(RequestContext(locale="en"))
    # When it reaches the gate, then it is refused with the route's budget
    result = gate_or_refuse(app_with(callers), event)
    assert refusal(result) == (413, "BODY_TOO_LARGE")
    assert result is not None
    assert "at most 5 levels of nesting and 4006 JSON tokens" in json.loads(result["body"])["message"]


def test_the_gate_leaves_a_base64_body_decoded_for_the_resolver(callers: FakeCallers) -> None:
    # Given a body sent as base64
    event = api_event("POST", "/api/v1/things")
    event.update(body=base64.b64encode(b'{"name": "mine"}').decode(), isBase64Encoded=True)
    # When it passes the gate, then the event holds its text, so the resolver does not decode it again
    assert gate_or_refuse(app_with(callers), event) is None
    assert (event["body"], event["isBase64Encoded"]) == ('{"name": "mine"}', False)


@pytest.mark.parametrize(
    ("text", "code"),
    [("[" * 100_000 + "]" * 100_000, "BODY_TOO_DEEP"), ('{"pin": ' + "1" * 5_000 + "}", "NUMBER_TOO_LONG")],
    ids=["deeper than the parser goes", "an integer too long to convert"],
)
def test_what_the_parser_refuses_beyond_bad_syntax_is_a_400_naming_the_body(text: str, code: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_json_body(text)
    assert refused.value.errors == [{"field": "body", "code": code, "params": {}}]


def test_bad_syntax_is_a_400_on_the_body_with_its_line_and_column() -> None:
    # Given a body whose second line is not JSON; when it is parsed
    with pytest.raises(InvalidInput) as refused:
        parse_json_body('{"a": 1,\n not json}')
    # Then the error names the body, and the line and column in details (never an offset as a field)
    assert refused.value.code == "VALIDATION_FAILED"
    assert refused.value.errors == [{"field": "body", "code": "BODY_NOT_JSON", "params": {}}]
    assert refused.value.details == {"line": 2, "column": 2}


def test_every_answer_names_its_request_and_an_internal_error_quotes_it(callers: FakeCallers) -> None:
    # Given a function with a route that works and one that fails unexpectedly
    app = app_with(callers)

    @app.get("/api/v1/things/broken", middlewares=[PUBLIC])
    def broken() -> Response[Envelope[Thing]]:
        raise RuntimeError("a bug")

    handler = lambda_entry(app)
    lambda_context: Any = LocalLambdaContext(function_name="Things", aws_request_id="lambda-7")

    def answered(event: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
        event["requestContext"]["requestId"] = "gateway-7"
        result = handler(event, lambda_context)
        return result["statusCode"], result["multiValueHeaders"]["X-Request-Id"], json.loads(result["body"])

    # When a success, a refusal of the gate and an unexpected error are answered
    success = answered(api_event("GET", "/api/v1/things/public"))
    refused = answered(api_event("GET", "/api/v1/things/public", headers={"client": ""}))
    failed = answered(api_event("GET", "/api/v1/things/broken", headers={"accept-language": "ru"}))
    # Then each names API Gateway's id of its request, and the error quotes it for support
    assert [(status, request_id) for status, request_id, _ in (success, refused, failed)] == [
        (200, ["gateway-7"]),
        (400, ["gateway-7"]),
        (500, ["gateway-7"]),
    ]
    assert failed[2]["message"] == "Внутренняя ошибка сервера; сообщите в поддержку номер запроса gateway-7"
    assert failed[2]["details"] == {"requestId": "gateway-7"}
    # And invoked without the gateway, the answer names Lambda's id of the invocation
    direct = api_event("GET", "/api/v1/things/public")
    del direct["requestContext"]["requestId"]
    assert handler(direct, lambda_context)["multiValueHeaders"]["X-Request-Id"] == ["lambda-7"]
