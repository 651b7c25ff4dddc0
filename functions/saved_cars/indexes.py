"""Indexes of the saved_cars collection."""

from data.mongo import Index

INDEXES = [
    # The toggle's race guard, and the `saved` flag lookups of the catalog.
    Index("saved_cars", [("fingerprint", 1), ("carId", 1)], "saved_cars_fingerprint_car_unique", {"unique": True}),
    # The list: a device's saved cars, newest first.
    Index("saved_cars", [("fingerprint", 1), ("createdAt", -1), ("_id", -1)], "saved_cars_fingerprint_newest"),
]
