"""The template, the resolvers and the contract's route table (tests/route_table.py) describe the same routes."""

from __future__ import annotations

import importlib
import typing

import pytest
from aws_lambda_powertools.event_handler import Response

from edge.envelope import Envelope
from local.template import api_routes
from tests.route_table import FUNCTIONS, ROUTES


def resolver_routes() -> set[tuple[str, str, str, str]]:
    """What each resolver's routes declare: method, path, function, access level."""
    found = set()
    for function, package in FUNCTIONS.items():
        app = importlib.import_module(f"{package}.app").app
        for declared in app.declarations.values():
            found.add((declared.method, declared.path, function, declared.access.name))
    return found


def test_the_route_table_lists_each_route_once() -> None:
    assert len({(r.method, r.path) for r in ROUTES}) == len(ROUTES)


def test_template_declares_exactly_the_spec_routes_on_the_right_functions() -> None:
    # Given the SAM template's explicit Api events
    declared = {(r.method, r.path, r.function) for r in api_routes()}
    # Then they are the contract's routes, each on its function
    assert declared == {(r.method, r.path, r.function) for r in ROUTES}


def test_resolvers_serve_exactly_the_spec_routes_with_the_spec_access_levels() -> None:
    assert resolver_routes() == {(r.method, r.path, r.function, r.access) for r in ROUTES}


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_template_handler_is_importable(function: str) -> None:
    handlers = {r.handler for r in api_routes() if r.function == function}
    assert handlers == {f"{FUNCTIONS[function]}.app.lambda_handler"}
    module = importlib.import_module(f"{FUNCTIONS[function]}.app")
    assert callable(module.lambda_handler)


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_route_declares_the_model_it_returns(function: str) -> None:
    # Powertools checks a response against the handler's return annotation (and documents it from
    # there): a route without one would go out unchecked.
    app = importlib.import_module(f"{FUNCTIONS[function]}.app").app
    for declared in app.declarations.values():
        returns = typing.get_type_hints(declared.func)["return"]
        assert typing.get_origin(returns) is Response, (declared.method, declared.path, returns)
        (payload,) = typing.get_args(returns)
        if payload is not str:  # term-conditions: Markdown, sent without the envelope
            envelopes = [kind for kind in typing.get_args(payload) or (payload,) if kind is not str]
            assert all(issubclass(kind, Envelope) for kind in envelopes), (declared.method, declared.path, payload)
