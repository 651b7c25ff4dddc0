"""`make run`'s server (`python -m local serve`) as a subprocess of a test: several worker processes (each
one request at a time, like Lambda instances) serving parallel requests against one MongoDB, over real
HTTP, on a free port. The fixtures are tests/integration/conftest.py's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from local.mongod import free_port
from local.template import ROOT

START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class LocalServer:
    url: str
    process: subprocess.Popen[bytes]
    console: Path  # what `make run` prints


# tests/integration/conftest.py's `serve_workers`: `with serve_workers(n, **env) as server`.
ServeWorkers = Callable[..., AbstractContextManager[LocalServer]]


def server_environment(mongo_uri: str, database: str, **env: str) -> dict[str, str]:
    """The environment of a process of this checkout pointed at `database` (`env` added)."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
        "MONGODB_URI": mongo_uri,
        "MONGODB_DB": database,
        **env,
    }


@contextmanager
def local_server(mongo_uri: str, database: str, log_dir: Path, *, workers: int, **env: str) -> Iterator[LocalServer]:
    """`python -m local serve` with `workers` worker processes, serving until the block ends."""
    port = free_port()
    log_path = log_dir / "server.log"
    environment = server_environment(mongo_uri, database, WORKERS=str(workers), **env)
    command = [sys.executable, "-m", "local", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base_url, server, log_path)
        yield LocalServer(base_url, server, log_path)
    finally:
        server.send_signal(signal.SIGTERM)  # the parent stops its workers
        server.wait(timeout=30)


def wait_until_serving(base_url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the local server exited ({server.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            # Once the port is bound a request waits in its backlog until a worker takes it.
            requests.get(f"{base_url}/api/docs/openapi.json", timeout=START_TIMEOUT_S)
            return
        except requests.ConnectionError:
            time.sleep(0.1)  # waiting for a subprocess to bind its port, not for behaviour under test
    pytest.fail(f"the local server did not answer within {START_TIMEOUT_S:.0f} s:\n{log_path.read_text()[-3000:]}")
