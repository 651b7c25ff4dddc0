"""Data access for card transactions (docs/DATA_MODEL.md): the one module that reads and writes the
`transactions` collection, and the sandbox processor's `sandbox_payments`. Every state change is a
conditional update on the state it was decided from, so racing requests cannot both win."""

from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

from bson import ObjectId
from pymongo import DESCENDING, ReturnDocument
from pymongo.client_session import ClientSession
from pymongo.collection import Collection

from data import outbox
from data.mongo import FoundPage, Index, collection, find_page, in_transaction
from domain.orders import store as orders
from domain.orders.records import OrderRecord
from domain.payments.records import RefundState, Transaction, TransactionChanges, TransactionStatus

NEWEST_FIRST = [("createdAt", DESCENDING), ("_id", DESCENDING)]

INDEXES = [
    # history: the caller's payments of an order, newest first, paged and counted on the keys
    Index(
        collection="transactions",
        keys=[("orderId", 1), ("userId", 1), ("createdAt", -1), ("_id", -1)],
        name="transactions_history",
    ),
    # the amount reserved by an order's open transactions (pending or confirming), however many it had
    Index(
        collection="transactions",
        keys=[("orderId", 1), ("status", 1), ("expiresAt", 1)],
        name="transactions_open_of_order",
    ),
    # resend-code: the caller's pending transaction for a card and amount
    Index(collection="transactions", keys=[("userId", 1), ("cardHash", 1), ("status", 1)], name="transactions_by_card"),
    # the payment reconciliation: stale confirmations, and refunds still to be done (few: sparse)
    Index(collection="transactions", keys=[("status", 1), ("claimedAt", 1)], name="transactions_by_status_claimed"),
    Index(
        collection="transactions",
        keys=[("refund", 1), ("updatedAt", 1)],
        name="transactions_refund_pending",
        options={"sparse": True},
    ),
]

OTP_TTL_SECONDS = 120
MAX_OTP_ATTEMPTS = 3
RESEND_COOLDOWN_SECONDS = 60
MAX_RESENDS = 3
# A claim older than this belongs to an invocation that died: longer than the Lambda timeout (10 s),
# so a live invocation never loses its claim to another.
CLAIM_SECONDS = 60


def _transactions() -> Collection[Transaction]:
    return collection("transactions", Transaction)


def insert(transaction: Transaction) -> None:
    _transactions().insert_one(transaction)


def find_order(order_id: ObjectId, user_id: str | None = None) -> OrderRecord | None:
    """The order a transaction pays (only the caller's when `user_id` is given), read by the orders store."""
    return orders.find_order(order_id) if user_id is None else orders.find_order_of_user(str(order_id), user_id)


def find_own(transaction_id: int, user_id: str) -> Transaction | None:
    return _transactions().find_one({"_id": transaction_id, "userId": ObjectId(user_id)})


def reserved_amount(order_id: ObjectId, now: datetime, *, excluding: int | None = None) -> int:
    """What open transactions of the order (but `excluding`) may still pay: pending ones whose code is
    alive, and the ones being confirmed right now."""
    open_transactions = _transactions().find(
        {
            "orderId": order_id,
            **({"_id": {"$ne": excluding}} if excluding is not None else {}),
            "$or": [
                {"status": TransactionStatus.PENDING.value, "expiresAt": {"$gt": now}},
                {"status": TransactionStatus.CONFIRMING.value},
            ],
        },
        {"amount": 1},
    )
    return sum(int(transaction["amount"]) for transaction in open_transactions)


def claim(transaction_id: int, user_id: str, claim_id: str, now: datetime) -> Transaction | None:
    """Take the transaction for one apply: pending with a live code and attempts left, or abandoned
    mid-confirmation by an invocation that died (its claim ran out)."""
    return _transactions().find_one_and_update(
        {
            "_id": transaction_id,
            "userId": ObjectId(user_id),
            "$or": [
                {
                    "status": TransactionStatus.PENDING.value,
                    "expiresAt": {"$gt": now},
                    "attempts": {"$lt": MAX_OTP_ATTEMPTS},
                },
                {
                    "status": TransactionStatus.CONFIRMING.value,
                    "claimedAt": {"$lte": now - timedelta(seconds=CLAIM_SECONDS)},
                },
            ],
        },
        {
            "$set": {
                "status": TransactionStatus.CONFIRMING.value,
                "claimId": claim_id,
                "claimedAt": now,
                "updatedAt": now,
            }
        },
        return_document=ReturnDocument.AFTER,
    )


def update_claimed(
    transaction_id: int,
    claim_id: str,
    now: datetime,
    changes: TransactionChanges,
    *,
    inc: dict[str, int] | None = None,
) -> Transaction | None:
    """Change a transaction this apply still holds; None if the claim was lost."""
    update: dict[str, Any] = {"$set": {**changes, "updatedAt": now}}
    if inc:
        update["$inc"] = inc
    return _transactions().find_one_and_update(
        {"_id": transaction_id, "status": TransactionStatus.CONFIRMING.value, "claimId": claim_id},
        update,
        return_document=ReturnDocument.AFTER,
    )


def mark_confirmed(transaction_id: int, claim_id: str, now: datetime, event: dict[str, Any]) -> bool:
    """CONFIRMING -> CONFIRMED, once, by the apply holding the claim, with its `PaymentConfirmed` event
    in the outbox in the same transaction."""

    def confirm(session: ClientSession) -> bool:
        result = _transactions().update_one(
            {"_id": transaction_id, "status": TransactionStatus.CONFIRMING.value, "claimId": claim_id},
            {"$set": {"status": TransactionStatus.CONFIRMED.value, "confirmedAt": now, "updatedAt": now}},
            session=session,
        )
        if result.modified_count != 1:
            return False
        outbox.add(
            session, aggregate=f"transaction:{transaction_id}", sequence=1, detail_type="PaymentConfirmed", detail=event
        )
        return True

    return in_transaction(confirm)


def expire(transaction_id: int, now: datetime) -> None:
    _transactions().update_one(
        {"_id": transaction_id, "status": TransactionStatus.PENDING.value, "expiresAt": {"$lte": now}},
        {"$set": {"status": TransactionStatus.EXPIRED.value, "failureReason": "OTP_EXPIRED", "updatedAt": now}},
    )


def find_pending_for_card(user_id: str, card_hash: str, amount: int) -> Transaction | None:
    return _transactions().find_one(
        {
            "userId": ObjectId(user_id),
            "cardHash": card_hash,
            "amount": amount,
            "status": TransactionStatus.PENDING.value,
        },
        sort=[("_id", DESCENDING)],
    )


def take_resend_slot(transaction: Transaction, now: datetime) -> bool:
    """Count one resend, if nobody else resent or applied since `transaction` was read."""
    result = _transactions().update_one(
        {
            "_id": transaction["_id"],
            "status": TransactionStatus.PENDING.value,
            "resends": transaction["resends"],
            "lastSentAt": transaction["lastSentAt"],
        },
        {
            "$inc": {"resends": 1},
            "$set": {
                "lastSentAt": now,
                "expiresAt": now + timedelta(seconds=OTP_TTL_SECONDS),
                "updatedAt": now,
            },
        },
    )
    return result.modified_count == 1


def record_resend(transaction_id: int, sent_at: datetime, otp_hash: str | None, expires_at: datetime) -> None:
    """Keep what the new send produced: the sandbox's hash of the new code, and how long the processor
    says the code lives."""
    _transactions().update_one(
        {"_id": transaction_id, "status": TransactionStatus.PENDING.value, "lastSentAt": sent_at},
        {"$set": {"otpHash": otp_hash, "expiresAt": expires_at}},
    )


def undo_resend(transaction: Transaction, sent_at: datetime) -> None:
    """Give the slot back when the processor could not send: an outage must not cost a resend."""
    _transactions().update_one(
        {"_id": transaction["_id"], "status": TransactionStatus.PENDING.value, "lastSentAt": sent_at},
        {
            "$inc": {"resends": -1},
            "$set": {"lastSentAt": transaction["lastSentAt"], "expiresAt": transaction["expiresAt"]},
        },
    )


class ListedTransaction(TypedDict):
    """What an order's payment history shows of a transaction, and what its shown status depends on."""

    _id: int
    amount: int
    cardMask: str
    cardType: str
    status: str
    resends: int
    expiresAt: datetime
    createdAt: datetime
    confirmedAt: NotRequired[datetime]
    refund: NotRequired[RefundState]
    refundedAt: NotRequired[datetime]


LISTED_FIELDS = dict.fromkeys(ListedTransaction.__annotations__, 1)


def of_order(order_id: ObjectId, user_id: str, *, offset: int, limit: int) -> FoundPage[ListedTransaction]:
    """A page of the user's transactions of the order (their `ListedTransaction` fields), newest first,
    and how many there are."""
    query = {"orderId": order_id, "userId": ObjectId(user_id)}
    listed = collection("transactions", ListedTransaction)
    return find_page(listed, query, NEWEST_FIRST, offset=offset, limit=limit, projection=LISTED_FIELDS)


# --- payment reconciliation -------------------------------------------------------------------------


def stale_confirming(claimed_before: datetime, limit: int) -> list[Transaction]:
    """Transactions left CONFIRMING by an apply that stopped (claimed before `claimed_before`), oldest first."""
    return list(
        _transactions()
        .find({"status": TransactionStatus.CONFIRMING.value, "claimedAt": {"$lte": claimed_before}})
        .sort([("claimedAt", 1), ("_id", 1)])
        .limit(limit)
    )


def refunds_pending(limit: int) -> list[Transaction]:
    """Failed transactions whose charge still has to be cancelled, oldest first."""
    return list(_transactions().find({"refund": "PENDING"}).sort([("updatedAt", 1), ("_id", 1)]).limit(limit))


def take_over(transaction: Transaction, claim_id: str, now: datetime) -> Transaction | None:
    """Claim a stale CONFIRMING transaction for the reconciliation, if nobody touched it since it was read."""
    return _transactions().find_one_and_update(
        {
            "_id": transaction["_id"],
            "status": TransactionStatus.CONFIRMING.value,
            "claimId": transaction.get("claimId"),
        },
        {"$set": {"claimId": claim_id, "claimedAt": now, "updatedAt": now}},
        return_document=ReturnDocument.AFTER,
    )


def request_refunds(order_id: ObjectId, payment_ids: list[int], now: datetime, *, session: ClientSession) -> int:
    """Mark these payments of the order to be refunded (in the caller's transaction, the order's
    cancellation), unless they already are; what they amount to, in sums."""
    wanted = {"_id": {"$in": payment_ids}, "orderId": order_id, "refund": {"$exists": False}}
    to_refund = list(_transactions().find(wanted, {"amount": 1}, session=session))
    _transactions().update_many(
        wanted,
        {"$set": {"refund": "PENDING", "refundRequestedAt": now, "updatedAt": now}},
        session=session,
    )
    return sum(int(transaction["amount"]) for transaction in to_refund)


def refunds_of_order(order_id: ObjectId) -> list[Transaction]:
    """The order's payments with a refund, pending or done."""
    return list(_transactions().find({"orderId": order_id, "refund": {"$exists": True}}).sort("_id", 1))


def take_refund(transaction_id: int, now: datetime, claim_seconds: int) -> Transaction | None:
    """Hold a pending refund for one attempt at the processor, unless another attempt holds it (and is
    not presumed dead): two passes never ask the processor to give the same money back at once."""
    return _transactions().find_one_and_update(
        {
            "_id": transaction_id,
            "refund": "PENDING",
            "$or": [{"refundClaimedUntil": None}, {"refundClaimedUntil": {"$lte": now}}],
        },
        {"$set": {"refundClaimedUntil": now + timedelta(seconds=claim_seconds)}},
        return_document=ReturnDocument.AFTER,
    )


def release_refund(transaction_id: int) -> None:
    """Let the next attempt take a refund this one could not finish."""
    _transactions().update_one({"_id": transaction_id, "refund": "PENDING"}, {"$set": {"refundClaimedUntil": None}})


def settle_refund(transaction_id: int, outcome: RefundState, now: datetime) -> bool:
    """Record what became of a pending refund ("DONE"), once."""
    result = _transactions().update_one(
        {"_id": transaction_id, "refund": "PENDING"},
        {"$set": {"refund": outcome, "refundedAt": now, "refundClaimedUntil": None, "updatedAt": now}},
    )
    return result.modified_count == 1


def unresolved_since(before: datetime) -> int:
    """Card payments still being confirmed that started before `before`."""
    return _transactions().count_documents(
        {"status": TransactionStatus.CONFIRMING.value, "createdAt": {"$lte": before}}
    )


def refunds_pending_since(before: datetime) -> int:
    """Refunds still to be done that were asked for before `before` (those of a charge the order refused
    before refunds carried the time: by the payment's)."""
    return _transactions().count_documents(
        {
            "refund": "PENDING",
            "$or": [
                {"refundRequestedAt": {"$lte": before}},
                {"refundRequestedAt": {"$exists": False}, "createdAt": {"$lte": before}},
            ],
        }
    )


# --- the sandbox processor's own ledger ------------------------------------------------------------


class SandboxPayment(TypedDict):
    """What the sandbox processor did with one payment, as a real processor remembers it: its state
    (`processor.PaymentState`) and why it was declined. Shared by every process (the API's functions
    and the reconciliation), like a processor's database."""

    _id: str  # the sandbox's payment id
    state: str
    reason: str | None
    updatedAt: datetime


def _sandbox_payments() -> Collection[SandboxPayment]:
    return collection("sandbox_payments", SandboxPayment)


def record_sandbox_payment(payment_id: str, state: str, now: datetime) -> None:
    _sandbox_payments().insert_one({"_id": payment_id, "state": state, "reason": None, "updatedAt": now})


def move_sandbox_payment(
    payment_id: str, from_states: tuple[str, ...], state: str, now: datetime, *, reason: str | None = None
) -> SandboxPayment | None:
    """Move the sandbox payment to `state` if it is in one of `from_states`; the payment as it is after
    (moved or not), None if the sandbox never registered it."""
    payments = _sandbox_payments()
    moved = payments.find_one_and_update(
        {"_id": payment_id, "state": {"$in": list(from_states)}},
        {"$set": {"state": state, "reason": reason, "updatedAt": now}},
        return_document=ReturnDocument.AFTER,
    )
    return moved or payments.find_one({"_id": payment_id})


def find_sandbox_payment(payment_id: str) -> SandboxPayment | None:
    return _sandbox_payments().find_one({"_id": payment_id})
