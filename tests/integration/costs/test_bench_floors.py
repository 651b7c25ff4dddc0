"""`make bench --instructions` compares each warm call with the floor of its own answer (tools.request_probe
`answer_floor`): a bare validated Powertools route declared as the sample's route. That comparison holds only
if the floor takes the same request and gives the very answer ours gave."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.invoke import handler_name, invoke, load_event
from local.seed import core
from local.template import api_routes
from tests.integration.platform.test_events import GETS_ANSWERED_ON_DEMO_DATA, sample_name
from tools.request_probe import answer_floor

FUNCTION_OF = {(route.method, route.path): route.function for route in api_routes()}


@pytest.mark.parametrize("event_file", GETS_ANSWERED_ON_DEMO_DATA, ids=sample_name)
def test_the_floor_of_an_answer_gives_the_same_answer_to_the_same_request(
    event_file: Path, seeded: Database[dict[str, Any]]
) -> None:
    # Given a GET sample event of the demo data and what its function answered
    event = load_event(event_file, user_id=str(core.DEMO_USER_ID))
    function = FUNCTION_OF[(event["httpMethod"], event["resource"])]
    ours = invoke(function, event)
    app = importlib.import_module(handler_name(function).rpartition(".")[0]).app
    route = app.declaration(event["httpMethod"], event["resource"]).func

    # When the floor of that answer, making two reads, takes the same request
    floor = answer_floor(route, event, ours, 2)(event, None)

    # Then it answers the same status and body, byte for byte (written by the same encoder)
    assert floor["statusCode"] == ours["statusCode"] == 200
    assert floor["body"] == ours["body"]
