"""Prepares a local process: development defaults, a local MongoDB when no MONGODB_URI is set (the real
mongod, or mongoeco where mongod cannot run), indexes and the demo seed."""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Protocol

from local.embedded_db import EmbeddedMongo
from local.mongod import Mongod, MongodUnavailable, port_is_free, wanted_server
from local.template import ROOT

# `make run`'s MongoDB data and its lock (LOCAL_DATA_DIR: elsewhere, e.g. a test's own directory).
DATA_DIR = Path(os.environ.get("LOCAL_DATA_DIR") or ROOT / ".data")
# Held (flock) by the `make run` of this checkout while it runs; says where it serves (its API, its
# database), for a second `make run` and for the operator commands (`running_make_run`).
RUN_LOCK = DATA_DIR / "make-run.lock"
LOCAL_DEFAULTS = {
    "STAGE": "local",
    "POWERTOOLS_METRICS_DISABLED": "true",  # EMF lines would only clutter the console
    "LOG_LEVEL": "INFO",
}


def apply_local_defaults() -> None:
    for name, value in LOCAL_DEFAULTS.items():
        os.environ.setdefault(name, value)


EMBEDDED_MONGO_PORT = 27018  # beside a default MongoDB's 27017, so mongosh and `python -m ops` can find it


class LocalDatabase(Protocol):
    uri: str

    @property
    def description(self) -> str: ...

    def stop(self) -> None: ...


def start_local_database(
    *, dbpath: Path | None, sqlite_path: Path | None, port: int = 0, bind: str = "", test_workload: bool = False
) -> tuple[LocalDatabase, str | None]:
    """The real mongod (a single-node replica set) unless LOCAL_MONGO=mongoeco or it cannot run here;
    then mongoeco. Returns the started server and, when it is the fallback, why (one line). `bind`: more
    addresses mongod listens on (mongoeco listens on 127.0.0.1 only)."""
    reason = "LOCAL_MONGO=mongoeco"
    if wanted_server() != "mongoeco":
        mongod = Mongod(dbpath, port=port, bind=bind, test_workload=test_workload)
        try:
            mongod.start()
            return mongod, None
        except MongodUnavailable as exc:
            reason = f"mongod cannot run here: {exc}"
    embedded = EmbeddedMongo(sqlite_path=sqlite_path, port=port)
    try:
        embedded.start()
    except RuntimeError:
        if not port:
            raise
        embedded = EmbeddedMongo(sqlite_path=sqlite_path)
        embedded.start()
    return embedded, reason


def ensure_database(data_dir: Path = DATA_DIR, *, port: int | None = None) -> LocalDatabase | None:
    """Start the local server unless MONGODB_URI points elsewhere; returns it so the caller can stop it.

    mongod keeps its data in .data/mongod (mongoeco in .data/mongo.sqlite3). It listens on
    EMBEDDED_MONGO_PORT (27018 by default), or on any free port when that one is taken; on 127.0.0.1, and
    also on MONGO_BIND's addresses when set (0.0.0.0: wherever `host.docker.internal` leads, for sam local)."""
    if os.environ.get("MONGODB_URI"):
        return None
    wanted = port if port is not None else int(os.environ.get("EMBEDDED_MONGO_PORT", EMBEDDED_MONGO_PORT))
    server, fallback = start_local_database(
        dbpath=data_dir / "mongod",
        sqlite_path=data_dir / "mongo.sqlite3",
        port=wanted if port_is_free(wanted) else 0,
        bind=os.environ.get("MONGO_BIND", ""),
    )
    if fallback:
        print(f"MongoDB fallback: {server.description}, because {fallback}")
    elif os.environ.get("MONGO_BIND"):
        print(
            f"MongoDB also listens on {os.environ['MONGO_BIND']} (MONGO_BIND): no password, keep it off open networks"
        )
    os.environ["MONGODB_URI"] = server.uri
    return server


MAX_DATABASE_RESTARTS = 3


def database_watch(database: LocalDatabase | None) -> Callable[[], None]:
    """What `make run` checks between requests: a mongod that died is restarted (on its port and data);
    one that keeps dying, or cannot start again, stops the server with the reason, never a 503 forever."""
    restarts = 0

    def check() -> None:
        nonlocal restarts
        if not isinstance(database, Mongod):
            return  # mongoeco runs inside this process
        code = database.exit_code()
        if code is None:
            return
        if restarts == MAX_DATABASE_RESTARTS:
            raise SystemExit(
                f"mongod exited with code {code} again, after {restarts} restarts; stopping (log: {database.log_path})"
            )
        restarts += 1
        print(f"mongod exited with code {code}; restarting it on the same port and data")
        try:
            database.restart()
        except MongodUnavailable as exc:
            raise SystemExit(f"mongod exited with code {code} and did not start again: {exc}") from exc
        print("mongod is back")

    return check


def prepare_database(*, seed: bool, only_if_empty: bool = False) -> dict[str, int]:
    """Create indexes and (optionally) load the demo data into the configured database (`only_if_empty`:
    the demo data file only into a database without a catalog; local.seed.seed_all)."""
    from core.settings import reset_settings
    from data.mongo import create_indexes
    from domain.indexes import ALL_INDEXES
    from local.seed import seed_all

    reset_settings()
    create_indexes(ALL_INDEXES)
    return seed_all(only_if_empty=only_if_empty) if seed else {}


class AlreadyRunning(Exception):
    """Another `make run` of this checkout runs; the message says where, in one line."""


class RunLock:
    """The one `make run` of a checkout: an exclusive lock on RUN_LOCK, held while it runs and dropped by
    the kernel when it ends, however it ends; the file says where it serves, for a second one to tell."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or RUN_LOCK
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or AlreadyRunning naming the process that has it and where it serves."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            text = handle.read()
            handle.close()
            raise AlreadyRunning(_already_running(text)) from None
        self._file = handle
        self.describe(pid=os.getpid())

    @property
    def held(self) -> bool:
        return self._file is not None

    def describe(self, **where: object) -> None:
        """Say where this run serves (its pid, API and database), for a second `make run` to tell."""
        if self._file is None:
            return
        self._file.seek(0)
        self._file.truncate()
        self._file.write(json.dumps(where))
        self._file.flush()

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the lock
            self._file = None


def running_make_run(path: Path | None = None) -> dict[str, object] | None:
    """Where this checkout's running `make run` serves (`pid`, and once its database is up `api`,
    `mongodb`, `database`), or None when none runs: its lock is free, whatever the file still says."""
    try:
        handle = (path or RUN_LOCK).open(encoding="utf-8")
    except FileNotFoundError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:  # held: it runs
            return _description(handle.read()) or {"pid": None}
        fcntl.flock(handle, fcntl.LOCK_UN)
        return None


def _description(text: str) -> dict[str, object]:
    try:
        where = json.loads(text)
    except ValueError:
        return {}
    return where if isinstance(where, dict) else {}


def _already_running(text: str) -> str:
    where = _description(text)
    parts = [f"pid {where['pid']}" if "pid" in where else "", where.get("api", ""), where.get("mongodb", "")]
    said = ", ".join(str(part) for part in parts if part) or "starting"
    return f"make run is already running in this checkout ({said}): use it, or stop it (Ctrl-C in its terminal)"
