"""The MongoDB client: created lazily once per process and reused across invocations.

Indexes are declared in code (each store's `INDEXES`, gathered in `domain.indexes`) and created by
`python -m ops indexes`, never per request.
"""

import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, cast

from bson.min_key import MinKey
from pymongo import MongoClient, timeout
from pymongo.client_session import ClientSession
from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import ConnectionFailure, OperationFailure, PyMongoError
from pymongo.monitoring import CommandListener

from core.errors import Unavailable
from core.observability import logger
from core.secrets import mongodb_uri
from core.settings import get_settings

WRITE_CONFLICT = 112  # MongoDB's error code
# How long a transaction may take, its retries included: the driver's own retry limit (120 s) is far past
# a function's timeout (10 s), so a buyer losing every conflict would otherwise meet the gateway's 5xx.
TRANSACTION_SECONDS = 5.0
# How long ending a transaction on the server may take once the driver could not end it (`_end_on_server`):
# a command of its own after the transaction's time, so the request still answers well within the function's.
END_ON_SERVER_SECONDS = 1.0

# A raw document as pymongo reads and writes it; stores turn it into their typed records.
Document = dict[str, Any]

_lock = threading.Lock()
_client: MongoClient[dict[str, Any]] | None = None
_listeners: tuple[CommandListener, ...] = ()
# The configured database's collections of the current client, by database and collection name.
_collections: dict[tuple[str, str], Collection[Document]] = {}


def get_client() -> MongoClient[dict[str, Any]]:
    global _client  # noqa: PLW0603 (the process-wide client Lambda reuses between invocations)
    if _client is None:
        with _lock:
            if _client is None:
                settings = get_settings()
                _client = MongoClient(
                    mongodb_uri(),
                    serverSelectionTimeoutMS=settings.mongodb_server_selection_timeout_ms,
                    connectTimeoutMS=settings.mongodb_server_selection_timeout_ms,
                    timeoutMS=settings.mongodb_timeout_ms,
                    maxPoolSize=settings.mongodb_max_pool_size,
                    tz_aware=True,
                    appname="car-retail-api",
                    retryWrites=True,
                    event_listeners=_listeners,
                )
    return _client


def connect() -> bool:
    """Open the client's connection now (one ping) instead of on its first command; whether the
    database answered. After a SnapStart restore, so the first request does not discover the servers."""
    try:
        get_client().admin.command("ping")
    except PyMongoError:
        return False
    return True


def get_db() -> Database[dict[str, Any]]:
    return get_client()[get_settings().mongodb_db]


def collection[R: Mapping[str, Any]](
    name: str, record: type[R], *, database: Database[Document] | None = None
) -> Collection[R]:
    """A collection of the configured database (or of `database`: seeders and tests name theirs), typed
    with the record its store reads and writes. Only the type changes: pymongo hands over its documents
    as they are, and the store's record type says what they hold. The configured database's are made
    once per client, not per call (docs/DECISIONS.md, "Pages that cost the page")."""
    if database is not None:
        return cast("Collection[R]", database[name])
    key = (get_settings().mongodb_db, name)
    found = _collections.get(key)
    if found is None:
        found = _collections[key] = get_db()[name]
    return cast("Collection[R]", found)


def in_transaction[T](work: Callable[[ClientSession], T], *, seconds: float | None = None) -> T:
    """Run `work(session)` as one MongoDB transaction: every write made with `session` happens, or none
    does. The driver runs `work` again on a transient error (a write conflict with another
    transaction), so it must only read and write through the session; all of it, retries included,
    within `seconds` (a request's TRANSACTION_SECONDS unless given), else 503 DATA_BUSY. A transaction
    that ends with its time spent, or with its connection failed, is ended on the server too
    (`_end_on_server`), so what it wrote is not held for the server's transaction lifetime limit. Needs a
    replica set (Atlas always is; tests and `make run` start a single-node one)."""
    conflicts = 0

    def attempt(session: ClientSession) -> T:
        nonlocal conflicts
        try:
            return work(session)
        except PyMongoError as failure:
            conflicts += failure.has_error_label("TransientTransactionError")
            raise

    limit = seconds or TRANSACTION_SECONDS
    with get_client().start_session() as session:
        deadline = time.monotonic() + limit
        try:
            with timeout(limit):
                return session.with_transaction(attempt)
        except Exception as failure:
            if _may_stay_open(failure, deadline):
                _end_on_server(session)  # while the session is still ours: no other request uses it yet
            if not isinstance(failure, PyMongoError):
                raise  # the work's own refusal (a domain error)
            lost_every_race = failure.timeout and conflicts > 0
            if not (lost_every_race or _is_write_conflict(failure)):
                raise  # the database itself is unreachable or slow: the edge's 503 SERVICE_UNAVAILABLE
            # Out of time while other requests kept changing the same documents, or (the embedded fallback
            # server, mongoeco) a write conflict reported at commit without the transient label.
            raise Unavailable("DATA_BUSY", retry_after=1) from None


def _may_stay_open(failure: Exception, deadline: float) -> bool:
    """Whether a transaction that failed may still be open on the server. pymongo aborts it when `work`
    fails, but within the same time limit: once that is spent the abort is refused before it is sent, a
    commit that timed out is not aborted at all, and an abort's errors are ignored (the transactions
    specification's rule). So: its time ran out, or its connection failed."""
    if isinstance(failure, PyMongoError) and (failure.timeout or isinstance(failure, ConnectionFailure)):
        return True
    return time.monotonic() >= deadline


def _end_on_server(session: ClientSession) -> None:
    """Kill the session on the server (`killSessions`, which aborts its open transaction), so the documents
    its transaction wrote are free at once rather than held until the server's transaction lifetime limit
    ends it. Within its own short time; never raises over the transaction's own failure: if the server
    cannot be told either, that limit still ends the transaction."""
    try:
        with timeout(END_ON_SERVER_SECONDS):
            session.client.admin.command("killSessions", [session.session_id])
    except PyMongoError as failure:
        code = failure.code if isinstance(failure, OperationFailure) else None
        logger.warning(
            "a failed transaction could not be ended on the server; it holds what it wrote "
            "until the server's transaction lifetime limit",
            extra={"error": type(failure).__name__, "error_code": code},
        )


def _is_write_conflict(failure: PyMongoError) -> bool:
    code = failure.code if isinstance(failure, OperationFailure) else None
    return code == WRITE_CONFLICT or "write conflict" in str(failure).lower()


def drop_database() -> None:
    """Drop the configured database with everything in it (the benchmark's throwaway database)."""
    get_client().drop_database(get_settings().mongodb_db)


def reset_client(*, event_listeners: Sequence[CommandListener] = ()) -> None:
    """Close and forget the client (tests, or the local server switching databases). The next one is
    created with these pymongo command listeners (the benchmark and tests count round trips with one)."""
    global _client, _listeners  # noqa: PLW0603
    with _lock:
        if _client is not None:
            _client.close()
        _client = None
        _collections.clear()
        _listeners = tuple(event_listeners)


# How far past the page a list counts its matches: counting costs one index key per match, so a total
# beyond this is reported as a lower bound (`Page.exact` false) instead of counted to the end.
COUNT_AHEAD = 1000


class FoundPage[R](NamedTuple):
    """One page of matches and how many match: exactly, or at least `total` when `exact` is false."""

    items: list[R]
    total: int
    exact: bool


def find_page[R: Mapping[str, Any]](
    collection: Collection[R],
    query: Mapping[str, Any],
    sort: list[tuple[str, int]],
    *,
    offset: int,
    limit: int,
    projection: Mapping[str, Any] | None = None,
    collation: Mapping[str, Any] | None = None,
    index: str | None = None,
    exact_count: Callable[[], int] | None = None,
) -> FoundPage[R]:
    """A page (the API's `{items, total}`) that costs the page: `find().sort().skip().limit()`, which an
    index serving the query and the sort (declared beside the query) reads key by key up to the page's
    end, and a count the same index covers (no document read), stopped `COUNT_AHEAD` matches past the
    page. Limit 0 only counts. `sort` should end on `_id` so pages never overlap. The `collation` orders
    the page; the count goes without it, so the query must compare no text a collation would compare
    differently (ids, numbers, folded search keys). `index` names the index the page is read with, where
    the planner could tie it with a worse one (the `_id` index, for a list sorted by id). `exact_count`
    counts every match at no cost worth a cap, where the caller knows how (all but a few documents)."""
    items: list[R] = []
    if limit > 0:
        # The planner gives a sort's index the filter's other fields (checked on its keys, not on fetched
        # documents) only when the filter names the index's first field: name it, with a bound that
        # every value and a missing field meet.
        lead = sort[0][0]
        served = {**query, lead: {"$gte": MinKey()}} if query and lead not in query else query
        # The cursor's options given to find(): chained, each method call checked and copied them again.
        items = list(
            collection.find(served, projection, collation=collation, sort=sort, skip=offset, limit=limit, hint=index)
        )
    if not query:  # the collection's own count, kept by the server: no key read
        return FoundPage(items, collection.estimated_document_count(), exact=True)
    if exact_count is not None:
        return FoundPage(items, exact_count(), exact=True)
    if limit > 0 and len(items) < limit and (items or offset == 0):  # the last page: counted already
        return FoundPage(items, offset + len(items), exact=True)
    cap = offset + limit + COUNT_AHEAD
    counted = int(collection.database.command("count", collection.name, query=dict(query), limit=cap)["n"])
    return FoundPage(items, counted, exact=counted < cap)


class Index(NamedTuple):
    collection: str
    keys: list[tuple[str, int]]
    name: str
    options: Mapping[str, Any] = MappingProxyType({})  # create_index's keyword options (unique, ...)


def create_indexes(indexes: Iterable[Index], *, database: Database[dict[str, Any]] | None = None) -> list[str]:
    """Create the indexes (idempotent) in the configured database, or in `database` (the tests make one each)."""
    db = get_db() if database is None else database
    created = []
    for index in indexes:
        db[index.collection].create_index(index.keys, name=index.name, **index.options)
        created.append(f"{index.collection}.{index.name}")
    return created
