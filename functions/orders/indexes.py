"""Indexes of the orders collection (order_logs: domain.orders.lifecycle; promo codes are found by _id)."""

from data.mongo import Index

INDEXES = [
    Index("orders", [("userId", 1), ("createdAt", -1), ("_id", -1)], "orders_by_user_newest"),
    Index("orders", [("contractNumber", 1)], "orders_contract_number_unique", {"unique": True}),
]
