"""SnapStart: the hooks a function registers, run as Lambda runs them around a snapshot."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import OperationFailure
from snapshot_restore_py import get_after_restore, get_before_snapshot

from core import clock, ids
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


def test_only_static_reads_that_require_a_query_parameter_are_asked_before_the_snapshot():
    # Given an OpenAPI document with a read requiring a query parameter, one with optional ones only, one
    # with a path parameter, and a write requiring one
    def operation(*parameters: tuple[str, str, bool]) -> dict[str, Any]:
        return {
            "parameters": [{"name": name, "in": where, "required": required} for name, where, required in parameters]
        }

    document = {
        "paths": {
            "/regions": {"get": operation(("brandId", "query", True), ("limit", "query", False))},
            "/cars": {"get": operation(("limit", "query", False))},
            "/cars/{id}": {"get": operation(("id", "path", True), ("brandId", "query", True))},
            "/orders": {"post": operation(("brandId", "query", True))},
        }
    }
    # When the warm-up picks the paths it may ask without parameters
    # Then only the read that refuses such a request before its handler is picked
    assert snapstart.refused_paths(document) == ["/regions"]


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


def test_a_restored_instance_has_prepared_the_signing_key_before_its_first_request(
    seeded: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
):
    from jwt.algorithms import HMACAlgorithm

    from domain.identity import sessions, tokens

    # Given an instance that signed tokens before a restore
    sessions.issue_pair(str(ObjectId()))
    tokens._prepared_key.cache_clear()

    # When the instance is restored, and the key checks PyJWT makes of a key stop working afterwards
    run_after_restore()

    def unchecked(self: Any, key: Any) -> bytes:
        raise AssertionError("the key was checked by the first request")

    monkeypatch.setattr(HMACAlgorithm, "prepare_key", unchecked)

    # Then its first sign-in signs its tokens with the key the restore prepared
    assert sessions.issue_pair(str(ObjectId())).access_token.count(".") == 2


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


def cache_for_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Partner keys and reference data cached as deployed (the tests' default is no caching)."""
    from core.settings import reset_settings

    monkeypatch.setenv("PARTNER_CACHE_SECONDS", "60")
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    reset_settings()


def test_a_restored_instance_has_read_the_partner_keys_and_its_reference_data_before_its_first_request(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
):
    from domain.catalog.store import all_brands
    from domain.partners.store import find_active_partner, hash_client_key
    from local.seed.core import DEMO_PARTNER_KEY

    # Given caching as deployed, a brand, a partner whose key was rotated an hour ago with a day's grace,
    # one whose previous key's grace is over, and a function whose routes read brands (orders.app: placing
    # an order), snapshotted after its warm-up, which named them
    cache_for_a_minute(monkeypatch)
    run_before_snapshot(orders_app)
    now = clock.now()
    db.brands.insert_one({"_id": ObjectId(), "name": "Chevrolet", "order": 1})
    for name, previous_until in (("Rotated", now + timedelta(days=1)), ("Expired", now - timedelta(hours=1))):
        db.partners.insert_one(
            {
                "_id": hash_client_key(f"{name}-new-key"),
                "name": name,
                "active": True,
                "createdAt": now,
                "previousKeyHash": hash_client_key(f"{name}-old-key"),
                "previousKeyExpiresAt": previous_until,
            }
        )

    # When the instance is restored, and then an operator disables every partner and removes the brands
    run_after_restore()
    restored = mongo.get_db()  # the restore closed the client `db` was read through
    restored.partners.update_many({}, {"$set": {"active": False}})
    restored.brands.delete_many({})

    # Then its first requests find what the restore read (until the caches' lifetime ends), a previous
    # key only within its grace period
    assert find_active_partner(DEMO_PARTNER_KEY) is not None
    assert find_active_partner("Rotated-new-key") is not None
    assert find_active_partner("Rotated-old-key") is not None
    assert find_active_partner("Expired-old-key") is None
    assert [brand["name"] for brand in all_brands().values()] == ["Chevrolet"]


def test_a_cache_that_cannot_be_read_after_a_restore_is_logged_and_the_restore_completes(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
):
    from domain.catalog.store import all_brands
    from domain.partners import store as partners

    # Given caching as deployed, a brand, and a partners collection that cannot be read
    cache_for_a_minute(monkeypatch)
    db.brands.insert_one({"_id": ObjectId(), "name": "Chevrolet", "order": 1})

    def unreadable() -> Any:
        raise OperationFailure("not authorized on partners")

    monkeypatch.setattr(partners, "_partners", unreadable)
    logged: list[str] = []
    monkeypatch.setattr(snapstart.logger, "error", lambda message, **kwargs: logged.append(kwargs["extra"]["loader"]))

    # When the instance is restored
    run_after_restore()

    # Then the restore completed: the failure is logged, and the other caches were read
    mongo.get_db().brands.delete_many({})
    assert [brand["name"] for brand in all_brands().values()] == ["Chevrolet"]
    assert logged == ["load_active_partners"]


def test_every_function_is_warmed_through_its_resolver_without_a_database(monkeypatch: pytest.MonkeyPatch):
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from auth.app import app as auth_app
    from catalog.app import app as catalog_app
    from dictionaries.app import app as dictionaries_app
    from payments.app import app as payments_app
    from sales.app import app as sales_app
    from saved_cars.app import app as saved_cars_app
    from transactions.app import app as transactions_app

    # Given processes that know no database and no secret (nothing of either goes into a snapshot)
    for name in ("MONGODB_URI", "MONGODB_URI_SECRET_ID", "JWT_SECRET", "JWT_SECRET_ARN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STAGE", "staging")
    reset_process_state()

    def no_database() -> Any:
        raise AssertionError("a database client before the snapshot")

    monkeypatch.setattr(mongo, "get_client", no_database)
    apps = [
        auth_app,
        catalog_app,
        dictionaries_app,
        orders_app,
        payments_app,
        sales_app,
        saved_cars_app,
        transactions_app,
    ]

    # When each function's before-snapshot hook runs
    for app in apps:
        run_before_snapshot(app)

    # Then none asked for a database client; each served the request for a path no route has (404: no
    # handler ran), and those for its routes that require a query parameter, asked without any (400:
    # refused before the handler), and its handlers' annotations are the types Powertools reads on a
    # route's first call
    for app in apps:
        assert app.resolve(snapstart.unrouted_event(), LambdaContext())["statusCode"] == 404
        document = app.get_openapi_schema().model_dump(by_alias=True, exclude_none=True, mode="json")
        for path in snapstart.refused_paths(document):
            event = snapstart.unrouted_event() | {"path": path, "resource": path}
            assert app.resolve(event, LambdaContext())["statusCode"] == 400, path
        for handler in snapstart.route_handlers(app):
            assert not any(isinstance(hint, str) for hint in handler.__annotations__.values()), handler
    reset_process_state()
