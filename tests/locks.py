"""Files of the checkout that tests build and share (the packaged requirements' cache, the SDK's
node_modules, the egg-info of an editable install): one process at a time builds them, whichever
pytest-xdist worker, or other run in this checkout, gets there first; the others wait, then find them built."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager

from local.template import ROOT

LOCKS = ROOT / ".data" / "test-locks"


@contextmanager
def checkout_lock(name: str) -> Iterator[None]:
    """An exclusive lock (flock) on .data/test-locks/<name>.lock, held until the block ends; the kernel
    drops it when the file closes, however the process ends."""
    LOCKS.mkdir(parents=True, exist_ok=True)
    with (LOCKS / f"{name}.lock").open("a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
