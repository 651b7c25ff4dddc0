"""The local database servers of `make run` and the tests: the real mongod, and the mongoeco fallback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pymongo import MongoClient

from local import mongod as mongod_module
from local.embedded_db import EmbeddedMongo
from local.mongod import Mongod, MongodUnavailable, mongod_binary
from local.runtime import start_local_database


def mongod_runs_here() -> bool:
    try:
        mongod_binary()
    except MongodUnavailable:
        return False
    return True


needs_mongod = pytest.mark.skipif(not mongod_runs_here(), reason="no runnable mongod on this platform")


@needs_mongod
def test_mongod_keeps_its_data_and_replica_set_across_restarts_even_on_another_port(tmp_path: Path) -> None:
    # Given a mongod on a data directory that stored an order, then stopped
    first = Mongod(tmp_path / "mongod")
    first.start()
    client: MongoClient[dict[str, Any]] = MongoClient(first.uri)
    with client:
        client.shop.orders.insert_one({"_id": "CR-1", "status": "NEW"})
    first.stop()
    # When it starts again on the same data (on another port, as when the usual one is taken)
    second = Mongod(tmp_path / "mongod")
    try:
        second.start()
        client = MongoClient(second.uri)
        with client:
            hello = client.admin.command("hello")
            # Then the order is still there and the replica set is PRIMARY again, with transactions
            assert client.shop.orders.find_one({"_id": "CR-1"}) == {"_id": "CR-1", "status": "NEW"}
            assert hello["isWritablePrimary"] is True
            assert hello["setName"] == "rs0"
            with client.start_session() as session, session.start_transaction():
                client.shop.orders.update_one({"_id": "CR-1"}, {"$set": {"status": "PAID"}}, session=session)
            assert client.shop.orders.find_one({"_id": "CR-1"})["status"] == "PAID"  # type: ignore[index]
    finally:
        second.stop()
    assert second.process is None


def test_falls_back_to_mongoeco_and_says_why_when_mongod_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a platform where the mongod binary does not run
    def no_mongod() -> Path:
        raise MongodUnavailable("no mongod binary for this platform")

    monkeypatch.setattr(mongod_module, "mongod_binary", no_mongod)
    monkeypatch.delenv("LOCAL_MONGO", raising=False)
    # When a local database is asked for
    server, reason = start_local_database(dbpath=None, sqlite_path=None)
    try:
        # Then mongoeco serves, and the reason is one line naming the problem
        assert isinstance(server, EmbeddedMongo)
        assert reason == "mongod cannot run here: no mongod binary for this platform"
        client: MongoClient[dict[str, Any]] = MongoClient(server.uri)
        with client:
            assert client.admin.command("ping")["ok"] == 1
    finally:
        server.stop()


def test_local_mongo_switch_forces_the_mongoeco_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given LOCAL_MONGO=mongoeco (CI's smoke run of the fallback)
    monkeypatch.setenv("LOCAL_MONGO", "mongoeco")
    # When a local database is asked for
    server, reason = start_local_database(dbpath=None, sqlite_path=None)
    try:
        # Then it is mongoeco, and it says so
        assert isinstance(server, EmbeddedMongo)
        assert reason == "LOCAL_MONGO=mongoeco"
        assert "mongoeco" in server.description
    finally:
        server.stop()


@needs_mongod
def test_make_run_restarts_a_mongod_that_died_and_stops_with_the_reason_when_it_keeps_dying(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import signal

    from local.runtime import MAX_DATABASE_RESTARTS, database_watch

    # Given make run's mongod holding an order, watched between requests
    server = Mongod(tmp_path / "mongod")
    server.start()
    watch = database_watch(server)
    try:
        client: MongoClient[dict[str, Any]] = MongoClient(server.uri, serverSelectionTimeoutMS=30_000)
        with client:
            client.shop.orders.insert_one({"_id": "CR-1"})
            watch()  # alive: nothing to do
            # When mongod dies (killed, out of memory)
            assert server.process is not None
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(timeout=30)
            watch()
            # Then it is reaped and started again on the same port and data, and the same client goes on
            assert server.exit_code() is None
            assert client.shop.orders.find_one({"_id": "CR-1"}) == {"_id": "CR-1"}
        assert "mongod exited with code -9; restarting it" in capsys.readouterr().out
        # And one that keeps dying stops the server with the reason instead of answering 503 forever
        for _ in range(MAX_DATABASE_RESTARTS - 1):
            assert server.process is not None
            server.process.kill()
            server.process.wait(timeout=30)
            watch()
        assert server.process is not None
        server.process.kill()
        server.process.wait(timeout=30)
        with pytest.raises(SystemExit, match=r"mongod exited with code -9 again, after 3 restarts; stopping \(log: "):
            watch()
    finally:
        server.stop()


def test_mongo_bind_serves_the_database_beyond_loopback_only_when_asked(tmp_path: Path) -> None:
    # Given make run's mongod by default, and with MONGO_BIND (sam local's containers reach the host there)
    assert Mongod(tmp_path / "a").bind_ip == "127.0.0.1"
    assert Mongod(tmp_path / "b", bind="0.0.0.0").bind_ip == "0.0.0.0"  # noqa: S104 (what MONGO_BIND asks)
    assert Mongod(tmp_path / "c", bind="172.17.0.1").bind_ip == "127.0.0.1,172.17.0.1"
