"""The dealer network's documents as `domain.dealers.store` returns them (docs/DATA_MODEL.md)."""

# No `from __future__ import annotations`: every function imports these declarations (docs/DECISIONS.md,
# "Import-time work").
from typing import Required, TypedDict

from bson import ObjectId

from domain.catalog.records import LocalizedText


class RegionRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    slug: str
    name: LocalizedText
    order: int


class GeoPoint(TypedDict):
    lat: float
    lng: float


class BranchRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    slug: str
    regionId: ObjectId
    brandIds: list[ObjectId]
    name: LocalizedText
    address: LocalizedText
    phone: str | None
    hours: LocalizedText | None
    location: GeoPoint | None
    active: bool


class StockRecord(TypedDict, total=False):
    """How many cars of a modification and color a branch has (`quantity` > 0: it has the car)."""

    _id: Required[ObjectId]
    branchId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    colorId: ObjectId
    quantity: int  # bucket 0's units when the row is split (`buckets` > 1), else all of them
    buckets: int  # the documents its units are split into (absent: 1), buckets 1.. in `stock_buckets`
    bucketsAsked: int  # what its last operator change asked for (`buckets` is at most its units)
    changedIn: int  # the change version of its last operator change (`data.counters`)


class StockBucketRecord(TypedDict, total=False):
    """One more document of a split stock row's units (`domain.dealers.store`, "buckets")."""

    _id: Required[ObjectId]
    stockId: ObjectId  # the row's id
    branchId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    colorId: ObjectId
    bucket: int  # 1..buckets-1
    quantity: int
