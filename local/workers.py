"""`make run`'s process model: several worker processes serving one listening socket.

Each worker is like one Lambda instance: its own Python process with its own warm state (MongoDB
client, caches), running one invocation at a time. With several workers, concurrent requests really
run concurrently against the one database, as on AWS. Like API Gateway, a worker reads each connection's
request on a thread of its own (`WorkerServer`), so clients that send slowly hold only their threads, never
the worker. The parent binds the socket (pre-fork style, so connections wait in the backlog until a worker
accepts them; a worker accepts only while it runs no invocation), starts `WORKERS` workers with
`python -m local.workers`, replaces a worker that dies, and stops them all on Ctrl-C or SIGTERM.

Every answer says which worker served it (X-Local-Worker, its pid) and how many MongoDB commands serving
it sent (X-Local-Mongo-Commands, pymongo command monitoring): `make bench ARGS=--opening` adds up what a
status poll and an order cost.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from pymongo import monitoring
from werkzeug.serving import ThreadedWSGIServer

from local.gateway import LambdaInstance, LocalApiGateway, LocalRequestHandler, WsgiApp

DEFAULT_WORKERS = 2
STOP_TIMEOUT_S = 10.0
WORKER_HEADER = "X-Local-Worker"
MONGO_COMMANDS_HEADER = "X-Local-Mongo-Commands"
# Connections waiting for a worker. API Gateway queues a burst instead of refusing it; with a short backlog
# the kernel drops the connections of a burst beyond it and their clients retry a second later (a sale
# opening's hundreds of buyers at once, `make bench ARGS=--sale`). The kernel caps it (net.core.somaxconn).
LISTEN_BACKLOG = 1024


def worker_count() -> int:
    """WORKERS from the environment (default 2), at least 1."""
    raw = os.environ.get("WORKERS", str(DEFAULT_WORKERS))
    try:
        return max(1, int(raw))
    except ValueError:
        raise SystemExit(f"WORKERS must be a whole number, not {raw!r}") from None


def die_with_parent() -> None:
    """Runs in a child before exec (Linux): the kernel sends it SIGTERM when its parent dies."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def listening_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(LISTEN_BACKLOG)
    # Every idle worker wakes on a new connection and one wins accept(); the others must not block.
    sock.setblocking(False)
    sock.set_inheritable(True)
    return sock


class WorkerPool:
    def __init__(self, host: str, port: int, workers: int) -> None:
        self.host = host
        self.port = port
        self.size = workers
        self.socket = listening_socket(host, port)
        self.workers: list[subprocess.Popen[bytes]] = []

    def _spawn(self) -> subprocess.Popen[bytes]:
        fd = self.socket.fileno()
        command = [sys.executable, "-m", "local.workers", "--fd", str(fd), "--host", self.host]
        command += ["--port", str(self.port)]
        return subprocess.Popen(  # noqa: S603 (this interpreter, this module)
            command,
            pass_fds=(fd,),
            preexec_fn=die_with_parent if sys.platform == "linux" else None,  # noqa: PLW1509
        )

    def run(self, supervise: Callable[[], None] = lambda: None) -> None:
        """Start the workers and keep `size` of them alive until interrupted; `supervise` runs on every
        round (it watches the database, and may stop the server with SystemExit)."""
        previous = signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
        try:
            self.workers = [self._spawn() for _ in range(self.size)]
            while True:
                supervise()
                for index, worker in enumerate(self.workers):
                    if worker.poll() is not None:
                        print(f"worker {worker.pid} exited with code {worker.returncode}; starting another")
                        self.workers[index] = self._spawn()
                time.sleep(0.5)  # supervising, not serving: requests never wait on this loop
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            self.stop()

    def stop(self) -> None:
        for worker in self.workers:
            if worker.poll() is None:
                worker.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for worker in self.workers:
            try:
                worker.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        self.workers = []
        self.socket.close()


def _raise_keyboard_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def local_app(instance: LambdaInstance) -> WsgiApp:
    """The WSGI app every worker serves: the API, plus the seed's assets and the Swagger UI
    (ASSETS_BASE_URL comes from the parent, `python -m local serve`). Its database client reports every
    command to the worker's tally."""
    from data.mongo import reset_client
    from local.docs import DOCS_PREFIX, ApiDocs
    from local.static import ASSETS_PREFIX, EDGE_FILES_PREFIX, assets_app, edge_files_app

    tally = CommandTally()
    reset_client(event_listeners=[tally])
    return NamedWorker(
        LocalApiGateway(
            extra={ASSETS_PREFIX: assets_app(), DOCS_PREFIX: ApiDocs(), EDGE_FILES_PREFIX: edge_files_app()},
            instance=instance,
        ),
        tally,
    )


class CommandTally(monitoring.CommandListener):
    """The MongoDB commands each thread has sent so far (heartbeats are not commands). pymongo reports a
    command on the thread that sends it, and an invocation runs on its request's thread, so a request's
    count holds only its own commands while other threads read theirs."""

    def __init__(self) -> None:
        self._threads = threading.local()

    @property
    def sent(self) -> int:
        return getattr(self._threads, "sent", 0)

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        self._threads.sent = self.sent + 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class WorkerServer(ThreadedWSGIServer):
    """One worker's server: a thread per connection reads its request (LocalRequestHandler's read timeout
    and deadline), while `instance` runs the functions one at a time. A new connection is accepted only
    while the instance runs no invocation, has none waiting and no connection just accepted: a connection
    that arrives while it is busy is left to an idle worker of the same listening socket (or waits in the
    backlog), as API Gateway sends a request to an instance that is free."""

    def __init__(self, host: str, port: int, app: WsgiApp, instance: LambdaInstance, fd: int | None = None) -> None:
        self.instance = instance
        super().__init__(host, port, app, WorkerRequestHandler, fd=fd)

    def get_request(self) -> tuple[socket.socket, Any]:
        self.instance.idle()
        connection, address = super().get_request()  # another worker may have taken it: socketserver skips the OSError
        self.instance.arrival(connection)
        return connection, address

    def shutdown_request(self, request: Any) -> None:
        self.instance.departure(request)
        super().shutdown_request(request)


class WorkerRequestHandler(LocalRequestHandler):
    """A worker's connection: once its first request is answered, it no longer holds the worker back."""

    server: WorkerServer

    def handle_one_request(self) -> None:
        super().handle_one_request()
        self.server.instance.departure(self.connection)


class NamedWorker:
    """Adds X-Local-Worker (the worker's pid) to every response: which instance served it; and
    X-Local-Mongo-Commands: the commands its thread sent while serving it (an answer starts once its handler
    is done)."""

    def __init__(
        self, app: Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]], tally: CommandTally
    ) -> None:
        self.app = app
        self.tally = tally
        self.name = str(os.getpid())

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        before = self.tally.sent

        def named_start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            sent = str(self.tally.sent - before)
            return start_response(status, [*headers, (WORKER_HEADER, self.name), (MONGO_COMMANDS_HEADER, sent)], *args)

        return self.app(environ, named_start_response)


def serve_worker(fd: int, host: str, port: int) -> None:
    """One worker: one invocation at a time, like one Lambda instance; its connections read concurrently."""
    instance = LambdaInstance()
    server = WorkerServer(host, port, local_app(instance), instance, fd=fd)
    server.serve_forever()  # returns on KeyboardInterrupt (Ctrl-C reaches every process of the group)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.workers", description="one worker of `make run`")
    parser.add_argument("--fd", type=int, required=True, help="the listening socket inherited from the parent")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    from local import webhooks
    from local.clock import use_shared_clock
    from local.runtime import apply_local_defaults

    apply_local_defaults()
    use_shared_clock()  # LOCAL_CLOCK_FILE: the serving process's time (local.clock)
    webhooks.defer_to_publisher()  # no request waits on an endpoint: the serving process delivers them
    serve_worker(args.fd, args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
