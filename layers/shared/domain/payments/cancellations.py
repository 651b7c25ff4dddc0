"""What a cancelled order gives back by card: its card payments marked to be refunded, in the transaction
that cancels it, whoever cancels it (the back office: `domain.payments.refunds`; the expiry of a late
order: `domain.orders.expiry`). The payment reconciliation, or the back office's cancel, then asks the
processor (`domain.payments.refunds`).

This module reads no card processor setting: the UnpaidOrderExpiry function runs it."""

from __future__ import annotations

from pymongo.client_session import ClientSession

from core import clock
from domain.orders.records import ChangeFacts, OrderRecord
from domain.payments import store


def card_refunds(order: OrderRecord, session: ClientSession) -> ChangeFacts:
    """Mark the order's card payments to be refunded (in its cancellation's transaction); the amount, for
    its log entry and event."""
    card_payments = [int(payment) for payment in order.get("paymentIds", []) if payment.isdigit()]
    return {"refundAmount": store.request_refunds(order["_id"], card_payments, clock.now(), session=session)}
