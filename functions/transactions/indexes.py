"""Indexes of the transactions collection."""

from data.mongo import Index

INDEXES = [
    # history (newest first) and the amount reserved by an order's open transactions
    Index("transactions", [("orderId", 1), ("createdAt", -1)], "transactions_by_order"),
    # resend-code: the caller's pending transaction for a card and amount
    Index("transactions", [("userId", 1), ("cardHash", 1), ("status", 1)], "transactions_by_card"),
    # the payment reconciliation: stale confirmations, and refunds still to be done (few: sparse)
    Index("transactions", [("status", 1), ("claimedAt", 1)], "transactions_by_status_claimed"),
    Index("transactions", [("refund", 1), ("updatedAt", 1)], "transactions_refund_pending", {"sparse": True}),
]
