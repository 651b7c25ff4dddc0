"""Every index the API needs, collected from the modules that declare them."""

from __future__ import annotations

import importlib

from data.mongo import Index

# Each module lists the indexes of the queries it makes, in an INDEXES list.
INDEX_MODULES = (
    "domain.identity.tokens",
    "data.rate_limit",
    "edge.idempotency",
    "data.outbox",
    "auth.indexes",
    "domain.orders.store",
    "domain.financing.store",
    "transactions.indexes",
    "domain.catalog.store",
    "domain.dealers.store",
    "saved_cars.indexes",
    "dictionaries.indexes",
)


def all_indexes() -> list[Index]:
    return [index for name in INDEX_MODULES for index in importlib.import_module(name).INDEXES]
