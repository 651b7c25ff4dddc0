"""The demo dataset, loaded idempotently: documents are inserted when missing and never overwritten."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pymongo.database import Database

from data.mongo import get_db
from local.seed import catalog, core, financing, orders

Seeder = Callable[[Database[dict[str, Any]]], int]

# In dependency order: later seeders may look up what earlier ones inserted.
SEEDERS: list[tuple[str, Seeder]] = [
    ("core", core.seed),
    ("catalog", catalog.seed),
    ("financing", financing.seed),  # after the catalog: products and offers attach to seeded brands and cars
    ("orders", orders.seed),  # after the catalog: demo orders point at a seeded car
]


def seed_all(db: Database[dict[str, Any]] | None = None) -> dict[str, int]:
    """Load the demo data into the configured database, or into `db` (the tests make one each).

    The seeders write the documents of docs/DATA_MODEL.md as they are, beside the stores: this loader
    is the one writer outside them (tests/unit/test_architecture.py names it)."""
    database = get_db() if db is None else db
    return {name: seeder(database) for name, seeder in SEEDERS}
