"""`make run` restarts cleanly: its mongod keeps its port across a quick restart (the connections the
first one closed linger in TIME_WAIT), and a second `make run` of the checkout says where the first
one serves, in one line, and exits without touching its database."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from pymongo import MongoClient

from local import __main__ as local_main
from local import runtime
from local.mongod import MongodUnavailable, free_port, mongod_binary
from local.runtime import AlreadyRunning, RunLock, ensure_database


@pytest.fixture
def mongod_runs_here() -> None:
    try:
        mongod_binary()
    except MongodUnavailable as why:
        pytest.skip(f"mongod cannot run here: {why}")


def plain_bind_fails(port: int) -> bool:
    """What the port probe used to do: bind without SO_REUSEADDR, refused while connections linger."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def test_a_quick_restart_keeps_mongod_on_its_port(
    mongod_runs_here: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given `make run`'s mongod on its port, with a client that used it
    for name in ("MONGODB_URI", "MONGO_BIND", "LOCAL_MONGO"):
        monkeypatch.delenv(name, raising=False)
    port = free_port()
    first = ensure_database(tmp_path, port=port)
    assert first is not None
    client: MongoClient[dict[str, object]] = MongoClient(first.uri)
    client.restart.probe.insert_one({"run": 1})
    # When it stops, leaving the connections it closed in TIME_WAIT, and starts again at once
    first.stop()
    client.close()
    assert plain_bind_fails(port)
    monkeypatch.delenv("MONGODB_URI")
    second = ensure_database(tmp_path, port=port)
    assert second is not None
    try:
        # Then it listens on the same port, with the same data
        assert second.uri == f"mongodb://127.0.0.1:{port}/?directConnection=true"
        again: MongoClient[dict[str, object]] = MongoClient(second.uri)
        with again:
            assert again.restart.probe.count_documents({"run": 1}) == 1
    finally:
        second.stop()


def test_a_second_make_run_says_where_the_first_serves_and_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a `make run` of this checkout serving
    monkeypatch.setattr(runtime, "RUN_LOCK", tmp_path / "make-run.lock")
    first = RunLock()
    first.acquire()
    first.describe(pid=4242, api="http://127.0.0.1:3000", mongodb="mongodb://127.0.0.1:27018/?directConnection=true")
    monkeypatch.delenv("MONGODB_URI", raising=False)

    def no_database() -> None:
        raise AssertionError("a second make run must not start a database")

    monkeypatch.setattr(local_main, "ensure_database", no_database)
    try:
        # When a second one starts
        status = local_main.main(["serve"])
        # Then it says, in one line, that one runs and where, and exits
        assert status == 1
        lines = capsys.readouterr().err.strip().splitlines()
        assert lines == [
            "make run is already running in this checkout (pid 4242, http://127.0.0.1:3000, "
            "mongodb://127.0.0.1:27018/?directConnection=true): use it, or stop it (Ctrl-C in its terminal)"
        ]
    finally:
        first.release()


def test_the_lock_is_free_again_once_make_run_ends(tmp_path: Path) -> None:
    # Given a run holding the lock, a second is refused
    path = tmp_path / "make-run.lock"
    first = RunLock(path)
    first.acquire()
    with pytest.raises(AlreadyRunning, match=r"already running in this checkout \(pid \d+\)"):
        RunLock(path).acquire()
    # When the first ends / Then the next one starts
    first.release()
    later = RunLock(path)
    later.acquire()
    later.release()


def test_the_operator_commands_follow_make_run_only_when_nothing_points_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ops.local_run import point_at_make_run
    from ops.output import CommandRefused

    # Given a `make run` of this checkout still starting (its lock held, its database not up yet)
    monkeypatch.setattr(runtime, "RUN_LOCK", tmp_path / "make-run.lock")
    run = RunLock()
    run.acquire()
    try:
        # When a command runs with nothing set / Then it says to wait for it, in one line
        with pytest.raises(CommandRefused, match=r"make run is starting in this checkout \(pid \d+\)"):
            point_at_make_run({})
        # When it serves / Then a command with nothing set works on its database, as STAGE=local
        run.describe(pid=4242, api="http://127.0.0.1:3000", mongodb="mongodb://127.0.0.1:27019/", database="demo")
        environ: dict[str, str] = {}
        point_at_make_run(environ)
        assert environ == {"STAGE": "local", "MONGODB_URI": "mongodb://127.0.0.1:27019/", "MONGODB_DB": "demo"}
        # And a command the operator pointed somewhere keeps its settings
        for pointed in ({"STAGE": "staging"}, {"MONGODB_URI": "mongodb://db.example/"}, {"MONGODB_URI_SECRET_ID": "x"}):
            assert point_at_make_run(dict(pointed)) is None
    finally:
        run.release()
