"""The fallback database: mongoeco's wire-protocol server on 127.0.0.1, spoken to by the real pymongo.

Used where the real mongod (local/mongod.py) cannot run, or with LOCAL_MONGO=mongoeco. `make run`
then keeps data in a SQLite file under .data/ (git-ignored); tests use the in-memory engine.
The server runs its own asyncio loop in a daemon thread of the current process.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from mongoeco.engines.memory import MemoryEngine
from mongoeco.engines.sqlite import SQLiteEngine
from mongoeco.wire.proxy import AsyncMongoEcoProxyServer


class EmbeddedMongo:
    def __init__(self, *, sqlite_path: Path | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.sqlite_path = sqlite_path
        self.host = host
        self.port = port
        self.uri = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: AsyncMongoEcoProxyServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def description(self) -> str:
        from importlib.metadata import version

        return f"mongoeco {version('mongoeco')} (MongoDB wire-protocol emulator, not a real MongoDB)"

    def _engine(self) -> Any:
        if self.sqlite_path is None:
            return MemoryEngine()
        self.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        return SQLiteEngine(str(self.sqlite_path))

    def start(self) -> str:
        ready = threading.Event()
        failure: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            try:
                self._server = AsyncMongoEcoProxyServer(engine=self._engine(), host=self.host, port=self.port)
                address = loop.run_until_complete(self._server.start())
                self.uri = address.uri
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=serve, name="embedded-mongo", daemon=True)
        self._thread.start()
        ready.wait(timeout=30)
        if failure:
            raise RuntimeError(f"embedded MongoDB failed to start: {failure[0]}") from failure[0]
        if not self.uri:
            raise RuntimeError("embedded MongoDB did not start within 30 s")
        return self.uri

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._loop = self._server = None
