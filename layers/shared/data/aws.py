"""AWS SDK clients: one per service per process, created on first use and reused across invocations.
boto3 is imported then, so only the code paths that call AWS pay for it at cold start."""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_clients: dict[str, Any] = {}


def client(service: str) -> Any:
    """The process's boto3 client of `service` ("events", "sqs")."""
    with _lock:
        if service not in _clients:
            import boto3

            _clients[service] = boto3.client(service)
        return _clients[service]


def reset_clients() -> None:
    """Forget every client (after a SnapStart restore; tests switching AWS accounts)."""
    with _lock:
        _clients.clear()
