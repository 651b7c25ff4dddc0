"""What a SnapStart snapshot leaves to a restored instance's first requests. The hooks themselves are in
tests/integration/platform/test_snapstart.py."""

from __future__ import annotations

import gc

from orders.app import app as orders_app
from tests.integration.platform.test_snapstart import run_before_snapshot

# Objects a snapshot may leave in the young generation (the collector sweeps it every 2,000).
YOUNG_OBJECTS_LEFT = 100


def test_a_snapshot_holds_no_young_objects_of_init_for_restored_instances_to_sweep():
    # Given a function's handler module imported (orders.app)
    # When the before-snapshot hooks run
    run_before_snapshot(orders_app)

    # Then init's objects are collected or old: a restored instance's first requests do not pay a young
    # collection for the objects init allocated last (about 1,000 of them before)
    assert gc.get_count()[0] < YOUNG_OBJECTS_LEFT
