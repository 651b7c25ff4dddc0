"""Fixed-window rate limits counted atomically in MongoDB, shared by every Lambda instance."""

from __future__ import annotations

from datetime import timedelta

from core import clock
from core.errors import TooManyAttempts
from data.mongo import Index, get_db

INDEXES = [Index("rate_limits", [("expiresAt", 1)], "rate_limits_ttl", {"expireAfterSeconds": 0})]


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
    if counter["count"] > limit:
        retry_after = window_start + window_seconds - int(now.timestamp())
        raise TooManyAttempts(error_code, retry_after=retry_after)
