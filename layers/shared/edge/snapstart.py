"""SnapStart runtime hooks (staging and prod run published versions with SnapStart).

Lambda initializes one instance, runs the before-snapshot hooks, snapshots its memory and starts every
later instance from that snapshot, possibly days later and many at once. So:

- before the snapshot, do once what every instance would otherwise do on its first request and is the
  same everywhere: read the settings, import what the first AWS call imports (boto3 and the Powertools
  parameters utility that fetches the secrets), build the validation models of every route and the
  validators of every model;
- after a restore, forget what belongs to the process that was snapshotted (the MongoDB and
  EventBridge clients with their sockets, cached secrets that may have rotated, every per-process cache
  registered in `data.caches`, such as the partner keys) and draw again what must differ between
  instances (minted ObjectIds, `random`); then open the new MongoDB client's connection, so the first
  request does not pay for the topology's discovery and the handshake (most of what a first request
  cost over a warm one: `make bench ARGS="--instructions --no-cold"`).

Nothing before the snapshot connects to the database or reads a secret.
"""

from __future__ import annotations

import random

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from pydantic import BaseModel
from snapshot_restore_py import register_after_restore, register_before_snapshot

from core import ids, secrets
from core.models import ApiModel
from core.observability import logger
from core.settings import get_settings
from data import aws, caches, mongo
from edge.validation import RequestModel


def warm(app: APIGatewayRestResolver) -> None:
    """Before the snapshot: settings, the deferred AWS imports, every route's validation models."""
    get_settings()
    from aws_lambda_powertools.utilities import parameters  # noqa: F401 (imports boto3 with it)

    # Building the OpenAPI document resolves each route's parameters, body and response models, which
    # request validation then reuses.
    app.get_openapi_schema()
    # Our models build their validators on first use (`defer_build`: a cold start without SnapStart
    # builds only those its request needs); before a snapshot, build them all, the generic ones the
    # document just parametrized (Envelope[Page[...]]) included, so no restored instance builds one.
    for model in (*subclasses(ApiModel), *subclasses(RequestModel)):
        model.model_rebuild(force=True)


def subclasses(model: type[BaseModel]) -> list[type[BaseModel]]:
    """Every class defined so far that derives from `model`, at any depth."""
    found = []
    for child in model.__subclasses__():
        found += [child, *subclasses(child)]
    return found


@register_after_restore
def refresh() -> None:
    """After a restore: drop per-process clients and caches, re-seed what must be unique."""
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
    caches.load_caches()


def register(app: APIGatewayRestResolver) -> None:
    """Warm this function's resolver before the snapshot (lambda_entry calls it once per function)."""
    register_before_snapshot(warm, app)
