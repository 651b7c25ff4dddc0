"""Every index the service's collections need: each domain area's store declares the indexes of its
queries, the data package those of its own collections. `python -m ops indexes`, the local server and the
tests create them from this one list."""

from __future__ import annotations

from data import idempotency_store, outbox, rate_limit
from data.mongo import Index
from domain.catalog import store as catalog
from domain.content import store as content
from domain.dealers import store as dealers
from domain.financing import store as financing
from domain.identity import store as identity
from domain.orders import store as orders
from domain.partners import store as partners
from domain.payments import store as payments
from domain.saved_cars import store as saved_cars

ALL_INDEXES: tuple[Index, ...] = tuple(
    index
    for owner in (
        catalog,
        dealers,
        financing,
        orders,
        identity,
        partners,
        saved_cars,
        payments,
        content,
        outbox,
        rate_limit,
        idempotency_store,
    )
    for index in owner.INDEXES
)
