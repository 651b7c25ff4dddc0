"""Indexes of the users and identity_codes collections."""

from data.mongo import Index

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
    # Used authorization codes: `_id` is the code's keyed hash (unique by nature); kept 30 days.
    Index("identity_codes", [("expiresAt", 1)], "identity_codes_ttl", {"expireAfterSeconds": 0}),
]
