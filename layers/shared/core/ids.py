"""The ObjectIds this API mints, unique across instances restored from one SnapStart snapshot.

bson's `ObjectId()` draws 5 random bytes and a counter start once per process, and draws again only
when the pid changes (a fork). Every instance Lambda restores from one snapshot shares that memory and
that pid, so they would all mint the same ids in the same second. `new_id()` builds the same layout
(4-byte seconds, 5 process-random bytes, 3-byte counter) through ObjectId's public bytes constructor,
and `reseed()`, which the after-restore hook calls, draws new random bytes and a new counter start.
Documents we insert carry an `_id` from here rather than one the driver would mint.
"""

import os
import secrets
import threading
import time
from typing import NamedTuple

from bson import ObjectId

_COUNTER_MAX = 0xFFFFFF


class IdState(NamedTuple):
    """What makes this process's ids unique: the pid it was drawn in, random bytes, the next count."""

    pid: int
    random: bytes
    counter: int


def _fresh_state() -> IdState:
    return IdState(pid=os.getpid(), random=os.urandom(5), counter=secrets.randbelow(_COUNTER_MAX + 1))


_lock = threading.Lock()
_state = _fresh_state()


def new_id() -> ObjectId:
    """A new ObjectId, unique across processes, forks and restored snapshots."""
    global _state  # noqa: PLW0603 (the process's id state, like bson's own)
    with _lock:
        state = _state if _state.pid == os.getpid() else _fresh_state()
        _state = IdState(state.pid, state.random, (state.counter + 1) & _COUNTER_MAX)
    return ObjectId(int(time.time()).to_bytes(4, "big") + state.random + state.counter.to_bytes(3, "big"))


def reseed() -> None:
    """Draw new random bytes and a new counter start (after a SnapStart restore)."""
    global _state  # noqa: PLW0603
    with _lock:
        _state = _fresh_state()


def getstate() -> IdState:
    """The id state, as `random.getstate()` gives the generator's (what a snapshot captures)."""
    with _lock:
        return _state


def setstate(state: IdState) -> None:
    """Put back a state from `getstate()`, as `random.setstate()` does (what a restore brings back)."""
    global _state  # noqa: PLW0603
    with _lock:
        _state = state
