"""Sale queue logic: a person's entry in a car's fair opening (`domain.orders.openings`)."""

from __future__ import annotations

from domain.orders import openings
from domain.orders.buyers import buyer_of
from sales.models import MySaleQueueEntry, SaleQueueEntry


def register(car_id: str, *, user_id: str) -> SaleQueueEntry:
    entry = openings.register(buyer_of(user_id), car_id)
    return SaleQueueEntry(
        entryId=entry.entry_id,
        carId=entry.car_id,
        status=entry.status.value,
        position=entry.position,
        drawAt=entry.draw_at,
    )


def my_entry(car_id: str, *, user_id: str) -> MySaleQueueEntry:
    entry = openings.my_entry(buyer_of(user_id), car_id)
    return MySaleQueueEntry(
        entryId=entry.entry_id,
        position=entry.position,
        status=entry.status.value,
        admittedUntil=entry.admitted_until,
    )
