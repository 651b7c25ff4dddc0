"""The status a payment history shows for each stored transaction (domain.payments.flow)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from domain.payments import flow
from domain.payments.records import TransactionStatus
from domain.payments.store import MAX_RESENDS, ListedTransaction

NOW = datetime(2026, 11, 25, 6, 0, tzinfo=UTC)


def _shown_before(transaction: ListedTransaction, now: datetime) -> str:
    """The rule as it was written with the status looked up as a `TransactionStatus` member."""
    status = TransactionStatus(transaction["status"])
    if status is TransactionStatus.CONFIRMING:
        return TransactionStatus.PENDING.value
    if (
        status is TransactionStatus.PENDING
        and transaction["expiresAt"] <= now
        and transaction["resends"] >= MAX_RESENDS
    ):
        return TransactionStatus.EXPIRED.value
    return status.value


def _listed(status: TransactionStatus, expires_at: datetime, resends: int) -> ListedTransaction:
    return {
        "_id": 1,
        "amount": 1_000_000,
        "cardMask": "860049******6478",
        "cardType": "UZCARD",
        "status": status.value,
        "resends": resends,
        "expiresAt": expires_at,
        "createdAt": NOW - timedelta(minutes=10),
    }


def test_the_shown_status_of_every_stored_state_is_the_rule_as_it_was() -> None:
    # Given every stored status, with its code expired or not, and every count of resends
    expiries = [NOW - timedelta(seconds=1), NOW, NOW + timedelta(seconds=1)]
    cases = [
        _listed(status, expires_at, resends)
        for status, expires_at, resends in itertools.product(TransactionStatus, expiries, range(MAX_RESENDS + 2))
    ]

    # When each is shown
    shown = [flow._shown_status(transaction, NOW) for transaction in cases]

    # Then each shows what the rule gave, as plain text
    assert shown == [_shown_before(transaction, NOW) for transaction in cases]
    assert all(type(status) is str for status in shown)
    # (CONFIRMING is internal; a pending code that expired with no resend left is dead)
    assert flow._shown_status(_listed(TransactionStatus.CONFIRMING, NOW, 0), NOW) == "PENDING"
    assert flow._shown_status(_listed(TransactionStatus.PENDING, NOW, MAX_RESENDS), NOW) == "EXPIRED"
    assert flow._shown_status(_listed(TransactionStatus.PENDING, NOW, MAX_RESENDS - 1), NOW) == "PENDING"
