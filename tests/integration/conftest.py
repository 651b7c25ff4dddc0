"""Fixtures of the tests that run `make run`'s server with several worker processes (tests/local_server.py)
against a seeded database of their module."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from pymongo.database import Database

from tests.databases import seeded_database, use_database
from tests.local_server import LocalServer, ServeWorkers, local_server

Db = Database[dict[str, Any]]


@pytest.fixture(scope="module")
def workers_database(mongo_uri: str) -> Iterator[str]:
    """The demo dataset (LASTONE, the one-use promo code, among it), for one module's worker servers alone."""
    with seeded_database(mongo_uri) as name:
        yield name


@pytest.fixture
def workers_db(mongo_uri: str, workers_database: str, monkeypatch: pytest.MonkeyPatch) -> Db:
    """This process pointed at the database the module's worker servers serve."""
    return use_database(mongo_uri, workers_database, monkeypatch)


@pytest.fixture(scope="module")
def serve_workers(mongo_uri: str, workers_database: str, tmp_path_factory: pytest.TempPathFactory) -> ServeWorkers:
    """`with serve_workers(n, **env) as server`: `python -m local serve` with n worker processes on a free
    port, serving the module's database (`env`: more of its environment) until the block ends."""

    def serve(workers: int, **env: str) -> AbstractContextManager[LocalServer]:
        return local_server(mongo_uri, workers_database, tmp_path_factory.mktemp("workers"), workers=workers, **env)

    return serve
