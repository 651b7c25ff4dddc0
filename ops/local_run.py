"""Which database an operator command works on when nothing says: on a laptop, with none of STAGE,
MONGODB_URI and MONGODB_URI_SECRET_ID set, the database of this checkout's running `make run` (its
lock says where it serves: local.runtime.running_make_run), with STAGE=local; when none runs, one
line saying how to point the commands at a database. Any of those variables set: they decide."""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

from ops.output import CommandRefused

# Set, any of them: the operator pointed the command somewhere (docs/OPERATIONS.md, Configuration).
POINTERS = ("STAGE", "MONGODB_URI", "MONGODB_URI_SECRET_ID")
NOTHING_RUNS = (
    "no database to work on: start `make run` in this checkout (the commands then use its database), or "
    "export STAGE and MONGODB_URI (or MONGODB_URI_SECRET_ID), e.g. STAGE=local "
    "MONGODB_URI='mongodb://127.0.0.1:27018/?directConnection=true' (docs/OPERATIONS.md, Configuration)"
)


def point_at_make_run(environ: MutableMapping[str, str] = os.environ) -> str | None:
    """Point this process at the running `make run`'s database unless the operator pointed it somewhere;
    what it points at (None: the operator's settings hold). CommandRefused (NO_DATABASE) when nothing
    is set and no `make run` runs, or it is still starting."""
    if any(environ.get(name) for name in POINTERS):
        return None
    from core.settings import reset_settings
    from local.runtime import running_make_run

    running = running_make_run()
    if running is None:
        raise CommandRefused(NOTHING_RUNS, code="NO_DATABASE")
    uri, database = running.get("mongodb"), running.get("database")
    if not isinstance(uri, str):
        raise CommandRefused(
            f"make run is starting in this checkout (pid {running.get('pid')}): run the command again once it "
            "prints `Press CTRL+C`",
            code="NO_DATABASE",
        )
    environ["STAGE"] = "local"
    environ["MONGODB_URI"] = uri
    if isinstance(database, str):
        environ.setdefault("MONGODB_DB", database)
    reset_settings()
    where = f"make run's database: {uri} {environ.get('MONGODB_DB', database)} (STAGE=local)"
    print(where, file=sys.stderr)
    return where
