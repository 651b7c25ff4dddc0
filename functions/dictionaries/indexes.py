"""Indexes of the documents (the Dictionaries function's queries; the dealer network's are in
`domain.dealers.store`)."""

from data.mongo import Index

INDEXES = [
    Index("documents", [("slug", 1)], "documents_slug_unique", {"unique": True}),
    Index("documents", [("public", 1), ("order", 1), ("_id", 1)], "documents_public_order"),
]
