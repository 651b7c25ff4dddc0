"""Prepares a local process: development defaults, the embedded MongoDB when no MONGODB_URI is set,
indexes and the demo seed."""

from __future__ import annotations

import os
from pathlib import Path

from local.embedded_db import EmbeddedMongo
from local.template import ROOT

DATA_DIR = ROOT / ".data"
LOCAL_DEFAULTS = {
    "STAGE": "local",
    "POWERTOOLS_METRICS_DISABLED": "true",  # EMF lines would only clutter the console
    "LOG_LEVEL": "INFO",
}


def apply_local_defaults() -> None:
    for name, value in LOCAL_DEFAULTS.items():
        os.environ.setdefault(name, value)


EMBEDDED_MONGO_PORT = 27018  # beside a real MongoDB's 27017, so mongosh and `python -m ops` can find it


def ensure_database(sqlite_path: Path = DATA_DIR / "mongo.sqlite3", *, port: int | None = None) -> EmbeddedMongo | None:
    """Start the embedded server unless MONGODB_URI points elsewhere; returns it so the caller can stop it.

    It listens on EMBEDDED_MONGO_PORT (27018 by default), or on any free port when that one is taken."""
    if os.environ.get("MONGODB_URI"):
        return None
    wanted = port if port is not None else int(os.environ.get("EMBEDDED_MONGO_PORT", EMBEDDED_MONGO_PORT))
    try:
        embedded = EmbeddedMongo(sqlite_path=sqlite_path, port=wanted)
        os.environ["MONGODB_URI"] = embedded.start()
    except RuntimeError:
        embedded = EmbeddedMongo(sqlite_path=sqlite_path)
        os.environ["MONGODB_URI"] = embedded.start()
    return embedded


def prepare_database(*, seed: bool) -> dict[str, int]:
    """Create indexes and (optionally) load the demo data into the configured database."""
    from common.db import create_indexes, get_db
    from common.settings import reset_settings
    from local.seed import seed_all
    from ops.indexes import all_indexes

    reset_settings()
    db = get_db()
    create_indexes(db, all_indexes())
    return seed_all(db) if seed else {}
