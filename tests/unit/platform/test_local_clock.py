"""`make run`'s shared clock (local.clock): the time of every process of the server, moved by writing it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import clock
from local.clock import ENV, SharedClock, use_shared_clock


def test_every_reader_of_the_file_sees_the_time_it_was_moved_to(tmp_path: Path) -> None:
    # Given a shared clock set to noon, and a second reader of its file (another process's)
    writer = SharedClock(tmp_path / "clock")
    writer.set(datetime(2026, 11, 3, 10, 0, tzinfo=UTC))
    reader = SharedClock(tmp_path / "clock")
    # When the writer moves it on by 90 seconds
    writer.advance(90)
    # Then the reader reads the new time
    assert reader() == datetime(2026, 11, 3, 10, 1, 30, tzinfo=UTC)


def test_a_process_reads_the_file_only_when_local_clock_file_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given no LOCAL_CLOCK_FILE
    monkeypatch.delenv(ENV, raising=False)
    use_shared_clock()
    # Then the process keeps the system's clock
    assert abs((clock.now() - datetime.now(UTC)).total_seconds()) < 60
    # When it names a file holding another instant
    SharedClock(tmp_path / "clock").set(datetime(2030, 1, 1, tzinfo=UTC))
    monkeypatch.setenv(ENV, str(tmp_path / "clock"))
    try:
        use_shared_clock()
        # Then the process's time is the file's
        assert clock.now() == datetime(2030, 1, 1, tzinfo=UTC)
    finally:
        clock.reset_clock()
