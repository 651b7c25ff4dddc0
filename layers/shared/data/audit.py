"""An operator's audited change of live data (`car-retail-ops prices set`, `sale set`, `stock set`): in one
transaction, raise the change version (`data.counters`), write the change stamped with it, and record who
made it and why; all of it happens, or none does (docs/DECISIONS.md, "Catalog imports never undo live
changes")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple, Protocol

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock, ids
from data import counters
from data.mongo import in_transaction


class Stamp(NamedTuple):
    """What a change's write is given: the change version its records are stamped with (`changedIn`), and
    the id, author, cause and moment of its audit record."""

    version: int
    id: ObjectId
    by: str
    cause: str
    at: datetime


class Recorder[C](Protocol):
    """A store's function that keeps a change's audit record in the change's transaction."""

    def __call__(self, change: C, /, *, session: ClientSession) -> None: ...


def operator_change[C](write: Callable[[ClientSession, Stamp], C], record: Recorder[C], *, by: str, cause: str) -> C:
    """Run `write(session, stamp)` (it reads what it needs, raises the area's error when it finds nothing
    to change, writes through `session` and returns the audit record it built from `stamp`), then
    `record` its audit record, as one transaction (`data.mongo.in_transaction`: run again on a transient
    conflict with another change); the audit record. An error of `write` or `record` leaves the data, the
    change version and the audit log as they were."""

    def work(session: ClientSession) -> C:
        stamp = Stamp(
            version=counters.raise_change_version(session=session),
            id=ids.new_id(),
            by=by,
            cause=cause,
            at=clock.now(),
        )
        change = write(session, stamp)
        record(change, session=session)
        return change

    return in_transaction(work)
