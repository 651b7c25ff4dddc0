"""Every index the API needs, collected from the modules that declare them."""

from __future__ import annotations

import importlib

from data.mongo import Index

# Each module lists the indexes of the queries it makes, in an INDEXES list.
INDEX_MODULES = (
    "domain.identity.store",
    "domain.partners.store",
    "data.rate_limit",
    "data.idempotency_store",
    "data.outbox",
    "domain.orders.lifecycle",
    "orders.indexes",
    "payments.indexes",
    "domain.payments.store",
    "catalog.indexes",
    "domain.saved_cars.store",
    "dictionaries.indexes",
    "domain.content.store",
)


def all_indexes() -> list[Index]:
    return [index for name in INDEX_MODULES for index in importlib.import_module(name).INDEXES]
