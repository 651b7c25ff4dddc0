"""Indexes of the users collection."""

from common.db import Index

INDEXES = [
    Index(
        "users",
        [("phone", 1)],
        "users_phone_unique",
        {"unique": True, "partialFilterExpression": {"phone": {"$type": "string"}}},
    ),
    Index(
        "users",
        [("pin", 1)],
        "users_pin_unique",
        {"unique": True, "partialFilterExpression": {"pin": {"$type": "string"}}},
    ),
]
