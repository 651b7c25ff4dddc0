"""SnapStart runtime hooks (staging and prod run published versions with SnapStart).

Lambda initializes one instance, runs the before-snapshot hooks, snapshots its memory and starts every
later instance from that snapshot, possibly days later and many at once. So:

- before the snapshot, do once what every instance would otherwise do on its first request and is the
  same everywhere: read the settings, import what the first AWS call imports (boto3 and the Powertools
  parameters utility that fetches the secrets) and the outbox's destinations, build the validation
  models of every route, the validators of every model, the inputs (body model, query parameters) and
  body budget of every route (edge.app.route_inputs, edge.json_budget), evaluate the route handlers'
  annotations (Powertools reads them on each route's first call), and serve one request through the
  resolver for a path no route has: it passes the validation middlewares and the adapter every route
  passes (Powertools inspects each on its first call) and our not-found answer (whose message loads
  the error catalogue, edge.error_codes); and one for each read that requires a query parameter, asked
  without any (refused by request validation before its handler). No route's handler runs: every one
  reads MongoDB. Then run the cold-start metric's code with its output discarded, and what the function
  registered with `before_snapshot` (its own code on made-up data). Last, collect the garbage init
  left, so restored instances start with an empty young generation;
- after a restore, forget what belongs to the process that was snapshotted (the MongoDB and
  EventBridge clients with their sockets, cached secrets that may have rotated, every per-process cache
  registered in `data.caches`, such as the partner keys) and draw again what must differ between
  instances (minted ObjectIds, `random`); then open the new MongoDB client's connection and fill the
  caches again with what requests read (the loaders registered in `data.caches`: the active partners'
  keys, the reference data the function's routes read), so the first request pays neither the
  topology's discovery and the handshake nor those reads (`make bench ARGS="--instructions --no-cold"`
  prints the hook's instructions beside the first and the second request). What fails there is logged;
  a restore never fails.

Nothing before the snapshot connects to the database or reads a secret.
"""

from __future__ import annotations

import contextlib
import gc
import io
import random
import typing
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from aws_lambda_powertools.metrics import MetricUnit, single_metric
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel
from snapshot_restore_py import register_after_restore, register_before_snapshot

from core import ids, secrets
from core.models import ApiModel
from core.observability import logger, metrics
from core.settings import read_settings
from data import aws, caches, mongo
from edge.validation import RequestModel

UNROUTED_PATH = "/snapstart/warm-up"
# What functions run before the snapshot besides the resolver's warm-up (`before_snapshot`).
_warm_ups: list[Callable[[], object]] = []


class Resolver(Protocol):
    """What the warm-up needs of a function's resolver (edge.app.ApiResolver, which imports this module)."""

    @property
    def declarations(self) -> Mapping[Any, Any]: ...

    def get_openapi_schema(self) -> Any: ...

    def resolve(self, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]: ...


def warm(app: Resolver) -> None:
    """Before the snapshot: settings, the deferred AWS imports, every route's validation models, inputs and
    body budget, the handlers' annotations, one request through the resolver that no route serves and one per
    read refused for want of a query parameter, the cold-start metric's code, the function's own
    warm-ups, and a garbage collection."""
    read_settings()
    from aws_lambda_powertools.utilities import parameters  # noqa: F401 (imports boto3 with it)

    from data import events, webhook_queue  # noqa: F401 (the outbox's destinations, imported on first delivery)

    # Building the OpenAPI document resolves each route's parameters, body and response models, which
    # request validation then reuses.
    document = app.get_openapi_schema()
    # Our models build their validators on first use (`defer_build`: a cold start without SnapStart
    # builds only those its request needs); before a snapshot, build them all, the generic ones the
    # document just parametrized (Envelope[Page[...]]) included, so no restored instance builds one.
    for model in (*subclasses(ApiModel), *subclasses(RequestModel)):
        model.model_rebuild(force=True)
    for declared in app.declarations.values():
        if declared.takes_body:  # its inputs, read from its handler's annotations on first use
            declared.body_budget  # noqa: B018 (derived on first use, kept per body model)
    # On a route's first call Powertools reads its handler's type hints (is there a Request parameter, a
    # Depends()?): with `from __future__ import annotations` they are strings, compiled and evaluated
    # then. Evaluated here once, that call only reads them.
    for handler in route_handlers(app):
        handler.__annotations__ = typing.get_type_hints(handler, include_extras=True)
    # Every handler reads MongoDB, so none runs here. A request for a path no route serves goes through
    # the same validation middlewares and adapter as any route (Powertools inspects each on its first
    # call) and through our not-found handler and error envelope, and reads nothing.
    app.resolve(unrouted_event(), LambdaContext())
    # A route that requires a query parameter, asked without any, is refused by Powertools' request
    # validation before its handler: its own middleware stack and parameters' validation run once here.
    # (Only paths without a path parameter: a static route is matched before any pattern.)
    for path in refused_paths(document.model_dump(by_alias=True, exclude_none=True, mode="json")):
        app.resolve(unrouted_event() | {"path": path, "resource": path}, LambdaContext())
    # A restored instance's first invocation emits the cold-start metric through Powertools'
    # `single_metric`: its code runs once here on the same arguments, what it prints discarded.
    discarded = contextlib.redirect_stdout(io.StringIO())
    cold_start = single_metric(name="ColdStart", unit=MetricUnit.Count, value=1, namespace=metrics.namespace)
    with discarded, cold_start as metric:
        metric.add_dimension(name="function_name", value="snapstart-warm-up")
        metric.add_dimension(name="service", value=str(metrics.service))
    for warm_up in _warm_ups:
        warm_up()
    # Last, collect what init left: the snapshot then holds no garbage and an empty young generation,
    # which every restored instance's first requests would otherwise sweep again (a collection of some
    # 2,000 objects, most of them init's, paid by the first request).
    gc.collect()


def refused_paths(document: Mapping[str, Any]) -> list[str]:
    """The paths of the GET operations in an OpenAPI document that have no path parameter and require a
    query parameter: asked without one, their route refuses the request before its handler runs."""
    found = []
    for path, item in document.get("paths", {}).items():
        parameters = item.get("get", {}).get("parameters", [])
        if "{" not in path and any(p.get("in") == "query" and p.get("required") for p in parameters):
            found.append(path)
    return found


def before_snapshot(warm_up: Callable[[], object]) -> None:
    """Have `warm` run `warm_up` too: a function's own code that its first requests run, exercised on
    made-up data (never the database, a secret or a cache), so that no restored instance runs it first."""
    if warm_up not in _warm_ups:
        _warm_ups.append(warm_up)


def route_handlers(app: Resolver) -> list[Callable[..., Any]]:
    """The functions of the routes `app` declared."""
    return list(dict.fromkeys(declared.func for declared in app.declarations.values()))


def unrouted_event() -> dict[str, Any]:
    """An API Gateway proxy event for a path none of our routes has."""
    return {
        "httpMethod": "GET",
        "path": UNROUTED_PATH,
        "resource": UNROUTED_PATH,
        "headers": {},
        "multiValueHeaders": {},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": None,
        "requestContext": {"requestId": "snapstart-warm-up"},
        "body": None,
        "isBase64Encoded": False,
    }


def subclasses(model: type[BaseModel]) -> list[type[BaseModel]]:
    """Every class defined so far that derives from `model`, at any depth."""
    found = []
    for child in model.__subclasses__():
        found += [child, *subclasses(child)]
    return found


@register_after_restore
def refresh() -> None:
    """After a restore: drop per-process clients and caches, re-seed what must be unique, connect and
    fill the caches again."""
    mongo.reset_client()
    aws.reset_clients()
    secrets.reset_secrets()
    caches.clear_caches()
    ids.reseed()
    random.seed()
    if not mongo.connect():
        # The first request meets the outage as any request would (503); never a failed restore.
        logger.warning("database not reachable after restore")
        return
    # The caches just emptied, read again from the database now (what every request reads: the
    # active partners' keys, the reference data); a loader that fails is logged, never raised.
    for loader, error in caches.load_caches():
        logger.error("cache not loaded after restore", extra={"loader": loader}, exc_info=error)


def register(app: Resolver) -> None:
    """Warm this function's resolver before the snapshot (lambda_entry calls it once per function)."""
    register_before_snapshot(warm, app)
