"""SnapStart: the hooks a function registers, run as Lambda runs them around a snapshot."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database
from snapshot_restore_py import get_after_restore, get_before_snapshot

from core import ids
from data import mongo
from edge import snapstart
from orders.app import app as orders_app
from tests.databases import reset_process_state


@dataclass
class Restored:
    """What one restored instance did first: an id, a random number, its client and a ping."""

    minted: ObjectId
    random: float
    client: MongoClient[dict[str, Any]]
    ping: float


def run_before_snapshot(app: Any) -> None:
    """The before-snapshot hooks of this function, in the order Lambda runs them (reverse of registration)."""
    for hook, args, kwargs in reversed(get_before_snapshot()):
        if args in ((), (app,)):
            hook(*args, **kwargs)


def run_after_restore() -> None:
    """The after-restore hooks, in registration order."""
    for hook, args, kwargs in get_after_restore():
        hook(*args, **kwargs)


def test_a_function_registers_its_warm_up_and_the_restore_hook():
    # Given / When a function's handler module is imported (orders.app, at the top of this module)
    # Then its resolver is warmed before the snapshot and the restore hook is registered
    assert (snapstart.warm, (orders_app,), {}) in get_before_snapshot()
    assert [hook for hook, _, _ in get_after_restore()].count(snapstart.refresh) == 1


def test_warming_needs_no_database_nor_secret(monkeypatch: pytest.MonkeyPatch):
    # Given a process that knows no database and no JWT key (nothing of either goes into a snapshot)
    for name in ("MONGODB_URI", "MONGODB_URI_SECRET_ID", "JWT_SECRET", "JWT_SECRET_ARN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STAGE", "staging")
    reset_process_state()

    # When the before-snapshot hooks run
    run_before_snapshot(orders_app)

    # Then they complete, with every route's validation resolved
    assert set(orders_app.get_openapi_schema().paths or {}) >= {"/api/v1/orders", "/api/v1/orders/{id}"}
    reset_process_state()


def test_warming_builds_every_model_validator_a_request_would_build():
    from core.models import ApiModel

    # Given a function whose models build their validators on first use (defer_build)
    # When the before-snapshot hooks run
    run_before_snapshot(orders_app)

    # Then every model of the function, the generic envelopes of its routes included, is built
    models = snapstart.subclasses(ApiModel)
    assert {"OrderResponse", "OrderItemPageResponse"} <= {model.__name__ for model in models}
    assert [model.__name__ for model in models if not model.__pydantic_complete__] == []


def test_warming_derives_the_body_budget_of_every_route_that_takes_a_body():
    # Given a function whose routes derive their body budgets on first use, none derived yet
    taking = [declared for declared in orders_app.declarations.values() if declared.takes_body]
    for declared in taking:
        vars(declared).pop("body_budget", None)
    # When the before-snapshot hooks run
    run_before_snapshot(orders_app)

    # Then each route that takes a body holds its budget, so no restored instance derives one
    assert {declared.path for declared in taking} >= {"/api/v1/orders", "/api/v1/orders/apply-promo-code"}
    assert [declared.path for declared in taking if "body_budget" not in vars(declared)] == []


def test_two_instances_restored_from_one_snapshot_mint_different_ids_and_reconnect(seeded: Database[dict[str, Any]]):
    # Given an initialized instance that warmed up, used its database and was snapshotted
    run_before_snapshot(orders_app)
    snapshotted_client = mongo.get_client()
    snapshot = (ids.getstate(), random.getstate())

    # When two instances are restored from that snapshot (the same memory each time)
    instances = []
    for _ in range(2):
        ids.setstate(snapshot[0])
        random.setstate(snapshot[1])
        run_after_restore()
        client = mongo.get_client()
        instances.append(Restored(ids.new_id(), random.random(), client, client.admin.command("ping")["ok"]))

    # Then each mints its own ids and random numbers and talks to the database through a new client
    first, second = instances
    assert first.minted != second.minted
    assert first.random != second.random
    assert first.client is not snapshotted_client
    assert second.client is not snapshotted_client
    assert first.client is not second.client
    assert first.ping == second.ping == 1


def test_without_the_restore_hook_restored_instances_would_mint_the_same_ids():
    # Given the id state a snapshot holds
    snapshot = ids.getstate()

    # When two restored instances mint an id without re-seeding
    ids.setstate(snapshot)
    first = ids.new_id()
    ids.setstate(snapshot)
    second = ids.new_id()

    # Then the ids collide in the same second: why refresh() re-seeds
    assert first.binary[4:] == second.binary[4:]
    ids.reseed()


def test_a_restored_instance_forgets_the_partner_keys_the_snapshot_cached(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
):
    from core.settings import reset_settings
    from domain.partners.store import find_active_partner

    # Given an instance that cached the demo partner's key, which an operator then deactivated
    monkeypatch.setenv("PARTNER_CACHE_SECONDS", "60")
    reset_settings()
    assert find_active_partner("demo-partner-key") is not None
    db.partners.update_many({}, {"$set": {"active": False}})
    assert find_active_partner("demo-partner-key") is not None  # still cached

    # When it is restored from its snapshot
    run_after_restore()

    # Then it asks the database again and refuses the key
    assert find_active_partner("demo-partner-key") is None


def test_a_restored_instance_is_connected_before_its_first_request(seeded: Database[dict[str, Any]]):
    # Given an instance snapshotted after warming up
    run_before_snapshot(orders_app)

    # When it is restored
    run_after_restore()

    # Then its new client already knows a server it can use: the first request does not wait for one
    assert mongo.get_client().nodes


def test_a_restore_completes_when_the_database_does_not_answer(monkeypatch: pytest.MonkeyPatch):
    # Given a database nobody listens for (port 9, discard) and a short server selection timeout
    monkeypatch.setenv("MONGODB_URI", "mongodb://127.0.0.1:9/?directConnection=true")
    monkeypatch.setenv("MONGODB_SERVER_SELECTION_TIMEOUT_MS", "100")
    reset_process_state()

    # When the instance is restored
    run_after_restore()

    # Then the restore completes; the first request will meet the outage as any request does (503)
    assert not mongo.get_client().nodes
    reset_process_state()
