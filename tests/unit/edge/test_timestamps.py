"""A moment as the API writes it (`core.models.Timestamp`): ISO 8601 text in UTC, `...Z`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import bson
from bson.codec_options import CodecOptions
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from core.models import Timestamp

TIMESTAMP = TypeAdapter(Timestamp)
ZONES = [None, UTC, bson.tz_util.utc, timezone(timedelta(hours=5), "Asia/Tashkent"), timezone(timedelta(0), "Z0")]


def _as_written_before(value: datetime) -> str:
    """How a moment was written before UTC moments skipped asking their zone for its offset."""
    return value.isoformat().replace("+00:00", "Z") + ("Z" if value.tzinfo is None else "")


@given(moment=st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 30)), zone=st.sampled_from(ZONES))
def test_a_moment_is_written_as_it_was_in_every_zone(moment: datetime, zone: timezone | None) -> None:
    # Given a moment, naive or in any zone (with or without microseconds)
    value = moment.replace(tzinfo=zone)

    # When it is validated as a Timestamp, Then its text is the one written before
    assert TIMESTAMP.validate_python(value) == _as_written_before(value)


def test_a_moment_read_from_mongodb_is_utc_with_a_z() -> None:
    # Given a moment as the tz-aware client decodes it (bson's own UTC zone)
    stored: datetime = bson.decode(
        bson.encode({"at": datetime(2026, 11, 25, 4, 56, 28, 969000, tzinfo=UTC)}), CodecOptions(tz_aware=True)
    )["at"]

    # When it is validated as a Timestamp, Then it is written in UTC with a Z, milliseconds kept
    assert TIMESTAMP.validate_python(stored) == "2026-11-25T04:56:28.969000Z"
    assert TIMESTAMP.validate_python(stored.replace(microsecond=0)) == "2026-11-25T04:56:28Z"
