"""Importing a data set (`python -m ops catalog import`).

An import is checked whole before anything is written (the file's models, `reading`, then every
reference, `checks`), then planned against the database (what is added, changed, kept or removed, per
collection, `planning`) and applied as one MongoDB transaction: it happens entirely or not at all, also
when the process dies half-way. The same file imported twice changes nothing the second time.

Records missing from the file are removed, except what something staying in the database still points
at: a car or branch that orders name is deactivated (orders keep the price and deal they were placed
with, and their snapshot of the car), and what a kept record needs (its brand, region...) is kept.
The bank offers follow the credit products and modifications, and the brands' and cars' search keys
their names, in the same transaction.
"""

from __future__ import annotations

from pymongo.client_session import ClientSession

from domain.catalog.store import refresh_search_prefixes
from domain.dataset import store
from domain.dataset.models import DataSet
from domain.dataset.planning import Plan, plan
from domain.dataset.reading import Parsed
from domain.financing.store import sync_bank_offers


def import_data_set(
    data: DataSet | Parsed, *, dry_run: bool = False, with_stock: bool = False, force: bool = False
) -> Plan:
    """Import the data set (one transaction), or only plan it. Returns what it did or would do. The plan is
    made first outside the transaction (every problem of the file named at once, as a dry run does), then
    again in it, on what the transaction reads."""
    parsed = data if isinstance(data, Parsed) else Parsed(data, [])
    checked = plan(parsed, with_stock=with_stock, force=force)
    if dry_run:
        return checked

    def work(session: ClientSession) -> Plan:
        planned = plan(parsed, with_stock=with_stock, force=force, session=session)
        for changes in planned.changes:
            store.apply(changes, session=session)
        planned.bank_offers = sync_bank_offers(session=session)
        refresh_search_prefixes(session=session)  # the names' search keys, derived as every catalog writer does
        return planned

    return store.replace_in_transaction(work)


def is_empty() -> bool:
    """Whether the database holds no catalog yet (a new environment)."""
    return store.is_empty("cars") and store.is_empty("brands")


def holds_brands_of(data: DataSet) -> bool:
    """Whether the database holds every brand of the data set, by id: it was imported here (ids are the
    file's, so a catalog of the database's own shares none of them)."""
    ids = [brand.id for brand in data.brands or []]
    return bool(ids) and store.holds_all("brands", ids)
