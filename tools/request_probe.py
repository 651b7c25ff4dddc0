"""What `make bench ARGS=--instructions` runs under valgrind for the warm requests of one function.

python -m tools.request_probe [--events-root DIR] <function> [<sample event>...]

Imports the function's handler module as Lambda's init does, runs the SnapStart before-snapshot hook,
then makes the measured calls: the after-restore hook (what a published version runs before its first
request), the first request after it, the second one, the same request once more after the caches were
emptied and refilled as the hook fills them (a warm instance whose reference data expired), and each
sample event after a few warm-up calls.
Function `floor` instead measures the floors: a bare validated Powertools route returning a constant
model, and the same route making one `find_one` by `_id`.

Each sample event is also measured against the floor of its own answer (`answer_floor`): a bare
validated Powertools route declared with the sample's route's parameters, body and return model, which
makes as many `find_one` by `_id` as the sample's call sent commands and answers the very answer our
handler gave, built before the call. That is what Powertools alone costs to take this request and give
this answer; what our call costs over it is our own (the edge, the service, the reads' documents).

The sample events are read as they are: `make bench` gives them with their access tokens already
issued (`local.invoke.load_event`), so nothing reaches the database before the restore hook, as in a
restored instance. Given sample files with placeholders, the probe issues the tokens itself first.
Labels are the events' paths under `--events-root` (events/ by default).

Only the measured calls are counted: each runs inside a ctypes callback, and valgrind (callgrind) is
started with collection off, toggled on inside libffi's `ffi_call` and dumped after it, so each call
writes its own count. Prints one JSON line: the labels of the measured calls, in order, each with the
MongoDB commands one warm call of it sent.
"""

from __future__ import annotations

import ctypes
import inspect
import json
import re
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler import Response
from pydantic import BaseModel

from edge.envelope import Envelope

WARMUP = 3
FLOOR_FUNCTION = "floor"
BARE = "bare validated route"
FIND_ONE = "bare route + one find_one"
ANSWER_FLOOR = "answer floor"
OUR_EDGE = "our edge, constant route"
RESTORE = "after-restore hook"
# The first sample once more, after the caches were emptied and their loaders ran again (not reconnected):
# what a warm instance pays when its reference data expires, the cache misses of a first request without
# the restore's first runs of code.
REFILLED = "after the caches were refilled"
# What every request of a client carries (docs/INTERFACE.md: the gate requires client, fingerprint, User-Agent).
FLOOR_HEADERS = {"Accept": "application/json", "client": "floor", "fingerprint": "floor", "User-Agent": "bench"}

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]


class Constant(BaseModel):
    """What the floor routes answer (module level: Powertools resolves the annotations by name)."""

    id: str
    name: str


def measured(call: Callable[[], object]) -> None:
    """Run `call` where callgrind counts it: inside libffi's ffi_call, through a ctypes callback."""

    def body() -> int:
        call()
        return 0

    ctypes.CFUNCTYPE(ctypes.c_int)(body)()


def find_one_by_id() -> Callable[[], object]:
    """The floor's read: a `find_one` by `_id` of a car, answering the id alone."""
    from domain.catalog.store import all_brands, find_car_fields, modifications_of_brands

    car_id = str(modifications_of_brands(list(all_brands()))[0]["_id"])
    return lambda: find_car_fields(car_id, "_id")


def floor_handlers() -> dict[str, Handler]:
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver

    bare = APIGatewayRestResolver(enable_validation=True)

    @bare.get("/floor")
    def constant() -> Constant:
        return Constant(id="1", name="floor")

    found = APIGatewayRestResolver(enable_validation=True)
    read = find_one_by_id()

    @found.get("/floor")
    def one() -> Constant:
        document = read()
        return Constant(id=str(document and document["_id"]), name="floor")  # type: ignore[index]

    return {BARE: bare.resolve, FIND_ONE: found.resolve, OUR_EDGE: our_edge()}


class FloorCallers:
    """The gate's answers for the floor: any client key is the floor's partner; no user exists."""

    def partner_name(self, client_key: str) -> str | None:
        return "floor"

    def user_exists(self, user_id: str) -> bool:
        return False

    def verify_access_token(self, token: str, partner: str) -> str:
        raise NotImplementedError


class FloorRefusal(Exception):
    """How the answer floor gives an error answer: through an exception handler, as ours do."""


def answer_floor(route: Callable[..., Any], event: dict[str, Any], answer: dict[str, Any], commands: int) -> Handler:
    """A bare validated Powertools route declared as `route` (the route handler of `event`) is: its
    parameters, body model and return model. Each call makes `commands` find_one by _id and answers
    `answer` (our handler's proxy response to `event`): a success as its model, built from it before the
    call; an error (which ours give from an exception handler, unvalidated) as its text, from an
    exception handler. Written by pydantic-core as ours are (`serializer=body_text`): the floor of the
    answer, not of the encoder."""
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver
    from pydantic import TypeAdapter

    from edge.app import body_text

    hints = typing.get_type_hints(route, include_extras=True)
    returned = hints["return"]
    answered = typing.get_args(returned)[0]  # Response[Envelope[Model]] -> Envelope[Model]
    headers = {name.lower(): values[-1] for name, values in (answer.get("multiValueHeaders") or {}).items()}
    content_type = headers.get("content-type", "application/json")
    status = answer["statusCode"]
    succeeded = status < 400
    body = (
        TypeAdapter(answered).validate_json(answer["body"]) if succeeded and "json" in content_type else answer["body"]
    )
    read = find_one_by_id()

    def handler(**parameters: Any) -> Any:
        for _ in range(commands):
            read()
        if not succeeded:
            raise FloorRefusal
        return Response(status_code=status, content_type=content_type, body=body)

    signature = inspect.signature(route)
    parameters = [parameter.replace(annotation=hints[name]) for name, parameter in signature.parameters.items()]
    handler.__signature__ = signature.replace(parameters=parameters, return_annotation=returned)  # type: ignore[attr-defined]
    bare = APIGatewayRestResolver(enable_validation=True, serializer=body_text)

    @bare.exception_handler(FloorRefusal)
    def refused(exc: FloorRefusal) -> Response:
        return Response(status_code=status, content_type=content_type, body=body)

    rule = re.sub(r"\{(\w+)\}", r"<\1>", event["resource"])
    bare.route(rule, event["httpMethod"])(handler)
    return bare.resolve


def our_edge() -> Handler:
    """The bare route served as ours are: the gate, CORS, the logger and metrics decorators, the outbox
    hooks and the envelope (`edge.app.lambda_entry`): what every request pays beyond its own work."""
    from edge import responses
    from edge.access import PUBLIC
    from edge.app import create_app, lambda_entry

    app = create_app(callers=FloorCallers())

    @app.get("/floor", middlewares=[PUBLIC])
    def constant() -> Response[Envelope[Constant]]:
        return responses.ok(Constant(id="1", name="floor"))

    return lambda_entry(app)


def floor_event() -> dict[str, Any]:
    return {
        "httpMethod": "GET",
        "path": "/floor",
        "resource": "/floor",
        "headers": {**FLOOR_HEADERS},
        "multiValueHeaders": {name: [value] for name, value in FLOOR_HEADERS.items()},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": None,
        "requestContext": {"requestId": "floor", "stage": "local"},
        "body": None,
        "isBase64Encoded": False,
    }


def after_restore(app: Any, handler: Handler, name: str, event: dict[str, Any], context: Any) -> list[dict[str, Any]]:
    """Measure the after-restore hook of a snapshotted instance, the first request after it, the second,
    and the same request after the caches were emptied and refilled as the hook fills them; their labels."""
    from data.caches import clear_caches, load_caches
    from edge import snapstart

    snapstart.warm(app)  # what the published version did before its snapshot
    measured(snapstart.refresh)  # and what it does after a restore
    measured(lambda: handler(event, context))
    measured(lambda: handler(event, context))
    clear_caches()
    load_caches()
    measured(lambda: handler(event, context))
    labels = [RESTORE, f"first request ({name})", f"second request ({name})", f"{REFILLED} ({name})"]
    return [{"label": label, "commands": 0} for label in labels]


def main(argv: list[str]) -> None:
    import argparse
    import importlib

    from data.mongo import reset_client
    from local.context import LocalLambdaContext
    from local.invoke import load_event
    from local.template import ROOT, api_routes
    from tools.command_counter import CommandCounter

    parser = argparse.ArgumentParser(prog="python -m tools.request_probe")
    parser.add_argument("--events-root", type=Path, default=ROOT / "events")
    parser.add_argument("function")
    parser.add_argument("events", nargs="*", type=Path)
    args = parser.parse_args(argv)
    function, paths = args.function, args.events
    counter = CommandCounter()
    reset_client(event_listeners=[counter])
    labels: list[dict[str, Any]] = []

    def measure(label: str, handler: Handler, event: dict[str, Any], context: Any) -> tuple[dict[str, Any], int]:
        """Count one warm call of `handler`; its answer and the commands it sent, both taken from the call
        before it, made in the same state: a first call may fill a cache the measured call reads from it
        (or use up what later calls find used: a refresh token), so its commands are not a warm call's."""
        for _ in range(WARMUP):
            handler(event, context)
        with counter.counting() as counts:
            answer = handler(event, context)
        measured(lambda: handler(event, context))
        labels.append({"label": label, "commands": counts.total})
        return answer, counts.total

    if function == FLOOR_FUNCTION:
        for label, resolve in floor_handlers().items():
            measure(label, resolve, floor_event(), LocalLambdaContext(function_name=FLOOR_FUNCTION))
        print(json.dumps(labels))
        return

    route = next(route for route in api_routes() if route.function == function)
    module_name, _, attribute = route.handler.rpartition(".")
    module = importlib.import_module(module_name)  # Lambda's init: the handler module, nothing else of ours
    handler: Handler = getattr(module, attribute)
    context = LocalLambdaContext(function_name=function)
    events = [(str(path.relative_to(args.events_root)), load_event(path)) for path in paths]

    labels += after_restore(module.app, handler, *events[0], context)
    reset_client(event_listeners=[counter])  # the warm calls below count their commands
    for name, event in events:
        answer, commands = measure(name, handler, event, context)
        route = module.app.declaration(event["httpMethod"], event["resource"]).func
        floor = answer_floor(route, event, answer, commands)
        measure(f"{ANSWER_FLOOR} ({name})", floor, event, context)
    print(json.dumps(labels))


if __name__ == "__main__":
    main(sys.argv[1:])
