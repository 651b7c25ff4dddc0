"""The catalog's documents as `domain.catalog.store` returns them (docs/DATA_MODEL.md, "Catalog").

A read with a projection returns only some fields, so only `_id` is always there.
"""

# No `from __future__ import annotations`: every function imports these declarations (docs/DECISIONS.md,
# "Import-time work").
from datetime import datetime
from typing import Required, TypedDict

from bson import ObjectId

# Stored `{ru, uz, en}` (`core.locale.localize` renders it); some fields hold one plain string instead.
LocalizedText = dict[str, str]


class BrandRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    slug: str
    name: str  # brand names are not translated
    logo: str | None
    country: LocalizedText | None
    description: LocalizedText | None
    order: int
    createdAt: datetime
    searchPrefixes: list[str]  # domain.catalog.search


class OptionRecord(TypedDict, total=False):
    """A body type or a powertrain."""

    _id: Required[ObjectId]
    slug: str
    name: LocalizedText
    image: str | None  # body types only
    order: int


class SpecItemRecord(TypedDict):
    name: LocalizedText
    value: LocalizedText


class SpecSectionRecord(TypedDict):
    title: LocalizedText
    items: list[SpecItemRecord]


class PerPersonLimitRecord(TypedDict):
    count: int  # orders of the car one person may place (not cancelled) within `days`
    days: int


class QueueRecord(TypedDict):
    """A fair opening's queue (`domain.catalog.sale`, `domain.orders.openings`)."""

    registrationOpensAt: datetime
    admissionPerSecond: int
    admissionMinutes: int


class SaleRecord(TypedDict, total=False):
    """A car's sale rules (`domain.catalog.sale`), every member optional; on a modification, the members
    it overrides (a null member is the car's)."""

    startsAt: datetime | None  # before it the car is not sold
    holdMinutes: int | None  # how long an unpaid order holds its unit (default: ORDER_HOLD_HOURS)
    depositAmount: int | None  # sums to pay by then to keep the car
    perPersonLimit: PerPersonLimitRecord | None
    verifiedBuyersOnly: bool | None
    queue: QueueRecord | None  # the car's only: registration, a draw at `startsAt`, paced admission


class ModificationRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    name: str
    price: int
    specs: list[SpecSectionRecord]
    sale: SaleRecord | None


class ColorRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    name: LocalizedText
    hex: str
    image: str | None


class InfoBlockRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    title: LocalizedText
    description: LocalizedText
    image: str | None


class CarRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    slug: str
    brandId: ObjectId
    bodyTypeId: ObjectId | None
    powertrainId: ObjectId | None
    name: LocalizedText
    description: LocalizedText | None
    year: int | None
    image: str | None
    gallery: list[str]
    priceFrom: int
    paymentTypes: list[str]
    isNew: bool
    createdAt: datetime
    info: list[InfoBlockRecord]
    colors: list[ColorRecord]
    modifications: list[ModificationRecord]
    sale: SaleRecord | None
    saleStartsAt: datetime | None  # derived: domain.catalog.sale.starts_at, for the lists
    searchPrefixes: list[str]  # domain.catalog.search: its names' and its brand's
    changedIn: int  # the change version of its last price or sale rules change (`data.counters`)
