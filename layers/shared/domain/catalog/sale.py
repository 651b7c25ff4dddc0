"""A car's sale rules: the optional `sale` object of a car, overridable per modification (docs/DATA_MODEL.md,
"Catalog"), part of the reference data set and set by an operator (`python -m ops sale set`).

    startsAt            before it the car is listed with its start and not sold (orders refuse it)
    holdMinutes         minutes an order of the car has to pay its deposit (default: ORDER_DEPOSIT_MINUTES;
                        the deadlines are domain.orders.holds')
    depositAmount       sums that must be paid by then to keep the car (an absolute amount, not a share of
                        the price: a buyer and an operator read the same number)
    perPersonLimit      {count, days}: orders of the car one person may place within `days`, not cancelled
    verifiedBuyersOnly  only a buyer whose identity was verified may order it
    queue               {registrationOpensAt, admissionPerSecond, admissionMinutes}: a fair opening, the
                        car's alone (a modification has none): people register from registrationOpensAt, a
                        draw at the car's startsAt orders them, and they are admitted to order at a pace
                        (domain.orders.openings); a car without one sells to whoever orders first

A modification's member overrides the car's when it is not null; the rules of what is bought are the
car's merged with its modification's (`rules_of`). The catalog answers them with the car
(`domain.catalog.views.sale_terms`), so a buyer knows them before ordering. An operator sets them
through `domain.catalog.sale_changes`."""

from datetime import datetime
from typing import NamedTuple

from domain.catalog.records import CarRecord, ModificationRecord, SaleRecord

MEMBERS = ("startsAt", "holdMinutes", "depositAmount", "perPersonLimit", "verifiedBuyersOnly", "queue")


class PerPersonLimit(NamedTuple):
    """`orders` of the car not cancelled within `days` days, per person (the file's `count`)."""

    orders: int
    days: int


class SaleQueue(NamedTuple):
    """A car's fair opening: registration from `registration_opens_at`, the draw at `draw_at` (the car's
    `startsAt`), then `admission_per_second` people admitted a second, each for `admission_minutes`."""

    registration_opens_at: datetime
    draw_at: datetime
    admission_per_second: int
    admission_minutes: int


class SaleRules(NamedTuple):
    """The sale rules of one modification of a car; every member None (False) when not set."""

    starts_at: datetime | None = None
    hold_minutes: int | None = None
    deposit_amount: int | None = None
    per_person_limit: PerPersonLimit | None = None
    verified_buyers_only: bool = False
    queue: SaleQueue | None = None

    def started(self, now: datetime) -> bool:
        return self.starts_at is None or now >= self.starts_at


NO_RULES = SaleRules()


def merged(car_sale: SaleRecord | None, modification_sale: SaleRecord | None) -> SaleRecord:
    """The car's rules with the modification's non-null members over them."""
    rules: SaleRecord = {}
    for source in (car_sale or {}, modification_sale or {}):
        for member in MEMBERS:
            value = source.get(member)
            if value is not None:
                rules[member] = value  # type: ignore[literal-required]
    return rules


def rules_of(car: CarRecord, modification: ModificationRecord | None = None) -> SaleRules:
    """The rules an order of this modification of the car follows (the car's own without one: what its
    queue's registration checks)."""
    record = merged(car.get("sale"), modification.get("sale") if modification else None)
    if not record:
        return NO_RULES
    limit = record.get("perPersonLimit")
    return SaleRules(
        starts_at=record.get("startsAt"),
        hold_minutes=record.get("holdMinutes"),
        deposit_amount=record.get("depositAmount"),
        per_person_limit=PerPersonLimit(limit["count"], limit["days"]) if limit else None,
        verified_buyers_only=bool(record.get("verifiedBuyersOnly")),
        queue=queue_of(car),
    )


def queue_of(car: CarRecord) -> SaleQueue | None:
    """The car's fair opening, or None: its own `sale.queue`, drawn at its own `startsAt`."""
    own = car.get("sale") or {}
    queue, draw_at = own.get("queue"), own.get("startsAt")
    if queue is None or draw_at is None:
        return None
    return SaleQueue(
        registration_opens_at=queue["registrationOpensAt"],
        draw_at=draw_at,
        admission_per_second=queue["admissionPerSecond"],
        admission_minutes=queue["admissionMinutes"],
    )


def starts_at(car: CarRecord) -> datetime | None:
    """When the car's sale opens, as the catalog lists it: the earliest start of its modifications (a
    modification's own `startsAt`, else the car's); None when one of them has none (it is on sale)."""
    own = (car.get("sale") or {}).get("startsAt")
    starts = [(m.get("sale") or {}).get("startsAt") or own for m in car.get("modifications", [])] or [own]
    if any(start is None for start in starts):
        return None
    return min(start for start in starts if start is not None)
