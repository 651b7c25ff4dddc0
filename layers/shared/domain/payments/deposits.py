"""Deposits: a car sold with a sale rule `depositAmount` (domain.catalog.sale) is kept only by paying at
least that by the order's `payBy`. The first card payment must be at least the deposit (`check_first`),
so a 1-sum payment no longer keeps a car; an order with less paid by then (a smaller payment taken
another way) expires like an unpaid one, and its card payments are marked to be refunded in the
cancellation's transaction (`expire_underpaid`); the payment reconciliation, which has the card
processor, asks the processor for them (`domain.payments.refunds`), as for any cancelled order.

This module reads no card processor setting: the UnpaidOrderExpiry function runs it."""

from __future__ import annotations

from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict
from domain.orders import expiry
from domain.orders.expiry import Expired
from domain.orders.records import ChangeFacts, OrderRecord
from domain.payments import store


def check_first(order: OrderRecord, amount: int, remaining: int) -> None:
    """409 PAYMENT_BELOW_DEPOSIT when nothing is paid yet and `amount` is less than the order's deposit
    (or than what is left to pay, when that is less)."""
    deposit = min(int(order.get("deposit", 0)), remaining)
    if not order.get("paidAmount") and amount < deposit:
        raise Conflict("PAYMENT_BELOW_DEPOSIT", deposit=deposit, details={"deposit": deposit, "amount": amount})


def _refund_card_payments(order: OrderRecord, session: ClientSession) -> ChangeFacts:
    card_payments = [int(payment) for payment in order.get("paymentIds", []) if payment.isdigit()]
    return {"refundAmount": store.request_refunds(order["_id"], card_payments, clock.now(), session=session)}


def expire_underpaid() -> list[Expired]:
    """Cancel the orders with less than their deposit paid past their hold; their card payments are
    marked to be refunded."""
    return expiry.expire_underpaid(_refund_card_payments)
