"""The demo data (docs/DEMO_DATA.md): `demo-data.json`, a reference data set file loaded by the same
import operators use (`python -m ops catalog import`), then the demo partner key, user and orders.

The file is written from the tables of this package (`python -m local demo-data`; a test checks it is
current): edit the tables, regenerate, commit both.
"""

from __future__ import annotations

from pathlib import Path

from data.mongo import Document
from domain.dataset.exporting import data_set_of
from domain.dataset.importing import holds_brands_of, import_data_set, is_empty
from domain.dataset.models import DataSet
from domain.dataset.reading import parse
from domain.dataset.sections import SECTIONS
from local.seed import catalog, core, financing, orders

DEMO_DATA_FILE = Path(__file__).parent / "demo-data.json"


def demo_data_set() -> DataSet:
    """The demo data, built from the tables."""
    found = catalog.documents()
    found |= financing.documents(found["brands"], found["cars"])
    found["promo_codes"] = orders.PROMO_CODES
    by_section: dict[str, list[Document]] = {section: found[name] for section, name in SECTIONS.items()}
    return data_set_of(by_section)


def demo_data_text() -> str:
    return demo_data_set().model_dump_json(indent=1, exclude={"exportedFrom"}) + "\n"


def write_demo_data() -> Path:
    DEMO_DATA_FILE.write_text(demo_data_text(), encoding="utf-8")
    return DEMO_DATA_FILE


def seed_all(*, only_if_empty: bool = False) -> dict[str, int]:
    """Load the demo data into the configured database: the file through the data set import (always, or
    `only_if_empty`: when the database has no catalog yet), with the demo partner, user and orders if
    missing. `only_if_empty` adds demo records only to a database this seed loaded (the demo partner
    registered, the demo brands there): a catalog of the database's own, or the demo data file imported
    by an operator (`car-retail-ops catalog import`), gets nothing, neither partner key nor orders taking
    its stock. What changed, per collection; the same file again changes nothing."""
    data = parse(DEMO_DATA_FILE.read_text(encoding="utf-8"))
    load = not only_if_empty or is_empty()
    if not load and not (core.seeded_here() and holds_brands_of(data)):
        return {}
    users = core.seed()  # first: the demo partner marks the database as this seed's, even if the import fails
    changed: dict[str, int] = {}
    if load:
        # The demo data whole, its stock included, over whatever the demo database was changed to since.
        for collection, counts in import_data_set(data, with_stock=True, force=True).counts().items():
            changed[collection] = sum(counts.values())
    changed["users"] = users
    changed["orders"] = orders.seed(data)
    return changed
