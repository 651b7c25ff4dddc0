"""Refunds: a cancelled order gives its card payments back, through the card processor, exactly once.

Cancelling an order (`cancel_order`, the back office's `python -m ops order transition … CANCELLED`)
marks each card payment the order counts (`paymentIds`) as a refund PENDING, in the transaction that
cancels the order, so no cancel loses track of money: the order log and the `OrderStatusChanged`
event say how much is refunded (`refundAmount`). Each refund is then asked of the processor
(`CardProcessor.cancel`, the void or refund of a confirmed payment) and marked DONE. One the
processor could not do stays PENDING, visible in `ops order show` and the transactions history, and
the payment reconciliation tries it again every pass (`retry`) until it is done; the alarm
`refunds-pending` fires when one has waited an hour.

Exactly once: an attempt holds the refund (a conditional claim on the transaction) while it talks to
the processor, so two never run at once; a retry first asks the processor what became of the payment
(`status`), so a refund whose answer was lost is not asked for twice; DONE is set once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock, deadline
from core.errors import AppError
from core.observability import logger
from domain.orders import lifecycle
from domain.orders.records import ChangeFacts, OrderRecord
from domain.orders.states import OrderStatus
from domain.payments import cancellations, settlement, store
from domain.payments.processor import CardProcessor, PaymentState, ProcessorError
from domain.payments.processor_factory import get_processor
from domain.payments.records import RefundState, Transaction

# Longer than one attempt takes (the processor's timeout is at most 8 s, and a request's partner calls
# together at most PROVIDER_BUDGET_SECONDS); a dead attempt's refund is free for the next after it.
REFUND_CLAIM_SECONDS = 60

PENDING: RefundState = "PENDING"
DONE: RefundState = "DONE"


@dataclass(frozen=True)
class Cancellation:
    order: OrderRecord
    refund_amount: int  # the card payments given back, in sums
    refunds_pending: int  # how many the processor could not do yet (the reconciliation retries them)


@deadline.within_request_budget
def cancel_order(order_id: ObjectId, *, cause: str) -> Cancellation:
    """Cancel the order (409 unless it may be cancelled), give its unit of stock back, and refund its card
    payments."""
    asked: list[int] = []

    def refund_payments(order: OrderRecord, session: ClientSession) -> ChangeFacts:
        facts = cancellations.card_refunds(order, session)
        asked[:] = [facts["refundAmount"]]  # the transaction may run more than once: its last run committed
        return facts

    order = lifecycle.transition(order_id, OrderStatus.CANCELLED, cause=cause, along_with=refund_payments)
    pending = [transaction for transaction in store.refunds_of_order(order_id) if transaction["refund"] == PENDING]
    try:
        processor = get_processor()
    except AppError:
        # The order is cancelled and its refunds written down: the reconciliation, which has the
        # processor, does them.
        logger.error("no card processor here to refund with", extra={"order_id": str(order_id)})
        return Cancellation(order, asked[0] if asked else 0, len(pending))
    outcomes = [refund(processor, transaction) for transaction in pending]
    return Cancellation(order, asked[0] if asked else 0, outcomes.count(PENDING))


def refund(processor: CardProcessor, transaction: Transaction, *, ask_first: bool = False) -> RefundState | None:
    """One attempt at a pending refund: DONE, PENDING (the processor could not do it now), or None when it
    is not pending or another attempt holds it. `ask_first`: ask the processor whether the payment is
    still charged before asking to cancel it (a retry: an earlier attempt may have reached it)."""
    if transaction.get("refund") != PENDING:
        return None
    transaction_id = int(transaction["_id"])
    held = store.take_refund(transaction_id, clock.now(), REFUND_CLAIM_SECONDS)
    if held is None:
        return None
    if held.get("processor") != processor.name:
        logger.error("refund of another card processor", extra={"transaction_id": transaction_id})
        store.release_refund(transaction_id)
        return PENDING
    try:
        charged = not ask_first or processor.status(settlement.payment_of(held)).state is PaymentState.CHARGED
    except ProcessorError:
        store.release_refund(transaction_id)
        return PENDING
    if charged and settlement.cancel_charge(processor, held) != DONE:
        store.release_refund(transaction_id)
        return PENDING
    store.settle_refund(transaction_id, DONE, clock.now())
    logger.info(
        "card payment refunded",
        extra={"transaction_id": transaction_id, "order_id": str(held["orderId"]), "amount": held["amount"]},
    )
    return DONE
