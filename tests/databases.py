"""Pointing the process at a test database, emptying it between tests, and databases holding the
whole demo dataset."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pymongo import timeout
from pymongo.database import Database

from core import clock

# The tests' own housekeeping (emptying, indexing, seeding a database) is not what they measure: it gets a
# generous deadline instead of the API's MONGODB_TIMEOUT_MS, which 2 busy cores (pytest-xdist workers,
# their mongods, the servers some tests start) can exceed when a test left a thousand documents behind.
HOUSEKEEPING_SECONDS = 120


def reset_process_state() -> None:
    from core.secrets import reset_secrets
    from core.settings import reset_settings
    from data.caches import clear_caches
    from data.mongo import reset_client

    reset_settings()
    reset_secrets()
    reset_client()
    clear_caches()
    clock.reset_clock()


def create_indexes_for(database: Database[dict[str, Any]]) -> None:
    from data.mongo import create_indexes
    from domain.indexes import ALL_INDEXES

    with timeout(HOUSEKEEPING_SECONDS):
        create_indexes(ALL_INDEXES, database=database)


def clear_database(database: Database[dict[str, Any]]) -> None:
    """Empty every collection, keeping collections and indexes: much cheaper for mongod than dropping
    and re-creating them (files, file handles, checkpoints) before every test."""
    with timeout(HOUSEKEEPING_SECONDS):
        for name in database.list_collection_names():
            if not name.startswith("system."):
                database[name].delete_many({})


def redact_uri(uri: str) -> str:
    """A connection string without its password, for the test report."""
    return re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", uri)


@contextmanager
def seeded_database(mongo_uri: str) -> Iterator[str]:
    """A new database with indexes and the whole demo dataset, by name; dropped afterwards."""
    from data.mongo import get_db
    from local.seed import seed_all

    name = f"demo_{uuid.uuid4().hex[:12]}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MONGODB_URI", mongo_uri)
        patch.setenv("MONGODB_DB", name)
        reset_process_state()
        database = get_db()
        create_indexes_for(database)
        with timeout(HOUSEKEEPING_SECONDS):
            seed_all()
        reset_process_state()
    try:
        yield name
    finally:
        drop_database(mongo_uri, name)


def use_database(mongo_uri: str, name: str, monkeypatch: pytest.MonkeyPatch) -> Database[dict[str, Any]]:
    from data.mongo import get_db

    monkeypatch.setenv("MONGODB_URI", mongo_uri)
    monkeypatch.setenv("MONGODB_DB", name)
    reset_process_state()
    return get_db()


def drop_database(mongo_uri: str, name: str) -> None:
    from pymongo import MongoClient

    client: MongoClient[dict[str, Any]] = MongoClient(mongo_uri)
    with client:
        client.drop_database(name)
