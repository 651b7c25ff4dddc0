"""Indexes of the dealer network (the Dictionaries function's queries; the documents' are in domain.content.store)."""

from data.mongo import Index

INDEXES = [
    Index("regions", [("slug", 1)], "regions_slug_unique", {"unique": True}),
    Index("regions", [("order", 1), ("_id", 1)], "regions_order"),
    # The branches that sell a brand (multikey on brandIds).
    Index("branches", [("brandIds", 1), ("active", 1)], "branches_brand"),
    # One row per branch, modification and color; serves "which of these branches have it".
    Index(
        "stock",
        [("branchId", 1), ("modificationId", 1), ("colorId", 1)],
        "stock_branch_modification_color_unique",
        {"unique": True},
    ),
]
