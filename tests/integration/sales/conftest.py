"""The fair openings' tests: each writes its public files (status.json, draw.json) to a folder of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import reset_settings


@pytest.fixture(autouse=True)
def edge_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The public files of this test's openings, where the local gateway would serve them."""
    monkeypatch.setenv("EDGE_FILES_DIR", str(tmp_path / "edge"))
    reset_settings()
    yield tmp_path / "edge"
    reset_settings()
