"""Fixed-window rate limits counted atomically in MongoDB, shared by every Lambda instance.

Each request remembers the tightest limit it counted against (`request_quota`), which the edge answers
as `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (IETF draft RateLimit header fields).
"""

from contextvars import ContextVar
from datetime import timedelta
from typing import NamedTuple

from core import clock
from core.errors import TooManyAttempts
from data.mongo import Index, get_db

INDEXES = [
    Index(collection="rate_limits", keys=[("expiresAt", 1)], name="rate_limits_ttl", options={"expireAfterSeconds": 0})
]


class Quota(NamedTuple):
    limit: int
    remaining: int
    reset_seconds: int  # until the window ends

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }


_request_quota: ContextVar[Quota | None] = ContextVar("request_quota", default=None)


def start_request() -> None:
    _request_quota.set(None)


def request_quota() -> Quota | None:
    """The limit this request came closest to, if it counted against any."""
    return _request_quota.get()


def _remember(quota: Quota) -> None:
    tightest = _request_quota.get()
    if tightest is None or (quota.remaining, -quota.reset_seconds) < (tightest.remaining, -tightest.reset_seconds):
        _request_quota.set(quota)


def hit(key: str, *, limit: int, window_seconds: int, error_code: str) -> None:
    """Count one attempt for `key`; 429 `error_code` with Retry-After once `limit` attempts fall in this window."""
    now = clock.now()
    window_start = int(now.timestamp()) // window_seconds * window_seconds
    counter = get_db().rate_limits.find_one_and_update(
        {"_id": f"{key}:{window_start}"},
        {
            "$inc": {"count": 1},
            "$setOnInsert": {"expiresAt": now + timedelta(seconds=2 * window_seconds)},
        },
        upsert=True,
        return_document=True,
    )
    assert counter is not None  # an upsert always returns the document
    reset = window_start + window_seconds - int(now.timestamp())
    _remember(Quota(limit, max(limit - counter["count"], 0), reset))
    if counter["count"] > limit:
        raise TooManyAttempts(error_code, retry_after=reset)
