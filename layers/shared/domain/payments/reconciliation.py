"""Payment reconciliation: finish the card payments nobody is finishing.

A transaction stays CONFIRMING when its apply stopped midway (the processor's answer was lost, the
invocation timed out, the database stalled at the last write); a refund stays PENDING when the
processor could not be reached to cancel a charge the order refused. Until now they waited for the
client to retry. This pass, scheduled every 5 minutes (the PaymentReconciliation function,
`transactions.reconciliation`, and `python -m ops reconcile` by hand):

- a CONFIRMING transaction claimed more than `STALE_AFTER_SECONDS` ago is taken over (a conditional
  update, so a late apply and the reconciliation never both act) and the processor is asked what
  happened (`CardProcessor.status`); charged: the payment is recorded on the order (once per
  transaction, as apply does) and the transaction CONFIRMED with its event; declined or cancelled: it
  FAILS and the order is untouched; never charged: it goes back to PENDING and the order's charging
  claim is freed; the processor unreachable: it stays, and the next pass asks again;
- a PENDING refund (of a charge the order refused, or of a payment of a cancelled order:
  `domain.payments.refunds`) is asked of the processor again, unless it says nothing is charged.

Each outcome is logged and counted (`Reconciliation<Outcome>`); `PaymentsUnresolvedOverAnHour`
counts the payments still confirming after an hour and `RefundsPendingOverAnHour` the refunds asked
for over an hour ago and not done: the template alarms on each.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from aws_lambda_powertools.metrics import MetricUnit

from core import clock
from core.errors import AppError, Conflict
from core.observability import logger, metrics
from domain.orders import lifecycle
from domain.payments import refunds, settlement, store
from domain.payments.processor import CardProcessor, PaymentState, PaymentStatus, ProcessorError
from domain.payments.processor_factory import get_processor
from domain.payments.records import Transaction, TransactionChanges, TransactionStatus

# Longer than the apply's claim (60 s) and the Lambda timeout: an apply this old has stopped.
STALE_AFTER_SECONDS = 5 * 60
UNRESOLVED_ALARM_SECONDS = 60 * 60
BATCH = 200  # per kind and pass; the rest waits for the next pass


class Outcome(StrEnum):
    CONFIRMED = "Confirmed"  # charged: recorded on the order, transaction CONFIRMED
    FAILED = "Failed"  # declined or cancelled at the processor: FAILED, the order unchanged
    RELEASED = "Released"  # never charged: back to PENDING, the order's charging claim freed
    REFUNDED = "Refunded"  # charged but refused by the order, or a pending refund: money given back
    UNRESOLVED = "Unresolved"  # the processor or the order could not be reached: the next pass retries


@dataclass(frozen=True)
class Report:
    outcomes: dict[str, int]
    unresolved_over_an_hour: int  # card payments still being confirmed
    refunds_pending_over_an_hour: int

    def summary(self) -> dict[str, object]:
        """What the scheduled function returns and `python -m ops reconcile` prints."""
        return {
            "outcomes": self.outcomes,
            "unresolvedOverAnHour": self.unresolved_over_an_hour,
            "refundsPendingOverAnHour": self.refunds_pending_over_an_hour,
        }


def reconcile() -> Report:
    """One pass over stale confirmations and pending refunds."""
    now = clock.now()
    processor = get_processor()
    outcomes: Counter[str] = Counter()
    for transaction in store.stale_confirming(now - timedelta(seconds=STALE_AFTER_SECONDS), BATCH):
        outcome = _reconcile_confirming(processor, transaction, now)
        if outcome is not None:
            _report(outcome, transaction, outcomes)
    for transaction in store.refunds_pending(BATCH):
        refunded = _retry_refund(processor, transaction)
        if refunded is not None:
            _report(refunded, transaction, outcomes)
    an_hour_ago = now - timedelta(seconds=UNRESOLVED_ALARM_SECONDS)
    over_an_hour = store.unresolved_since(an_hour_ago)
    metrics.add_metric(name="PaymentsUnresolvedOverAnHour", unit=MetricUnit.Count, value=over_an_hour)
    if over_an_hour:
        logger.error("card payments unresolved for over an hour", extra={"count": over_an_hour})
    refunds_waiting = store.refunds_pending_since(an_hour_ago)
    metrics.add_metric(name="RefundsPendingOverAnHour", unit=MetricUnit.Count, value=refunds_waiting)
    if refunds_waiting:
        logger.error("card refunds pending for over an hour", extra={"count": refunds_waiting})
    return Report(dict(outcomes), over_an_hour, refunds_waiting)


def _report(outcome: Outcome, transaction: Transaction, outcomes: Counter[str]) -> None:
    outcomes[outcome.value] += 1
    metrics.add_metric(name=f"Reconciliation{outcome.value}", unit=MetricUnit.Count, value=1)
    log = logger.warning if outcome is Outcome.UNRESOLVED else logger.info
    log(
        "card payment reconciled",
        extra={"transaction_id": transaction["_id"], "order_id": str(transaction["orderId"]), "outcome": outcome.value},
    )


def _reconcile_confirming(processor: CardProcessor, transaction: Transaction, now: datetime) -> Outcome | None:
    if transaction.get("processor") != processor.name:
        logger.error("transaction of another card processor", extra={"transaction_id": transaction["_id"]})
        return Outcome.UNRESOLVED
    claim_id = uuid.uuid4().hex
    held = store.take_over(transaction, claim_id, now)
    if held is None:
        return None  # an apply or another pass moved it meanwhile
    if not _known_charged(held):
        try:
            status = _status(processor, held)
        except ProcessorError:
            return Outcome.UNRESOLVED  # held until the claim is stale again, then asked again
        if status.state is PaymentState.NOT_CHARGED:
            return _give_back(held, claim_id, now, {"status": TransactionStatus.PENDING.value}, Outcome.RELEASED)
        if status.state is not PaymentState.CHARGED:
            reason = status.reason or status.state.value
            return _give_back(
                held, claim_id, now, {"status": TransactionStatus.FAILED.value, "failureReason": reason}, Outcome.FAILED
            )
        if status.charge_id is not None:
            # Kept as an apply keeps it: a refund of this charge is asked with it.
            kept = store.update_claimed(int(held["_id"]), claim_id, now, {"processorChargeId": status.charge_id})
            if kept is None:
                return None  # moved meanwhile
            held = kept
    try:
        settlement.record_charged(processor, held, claim_id, now)
    except Conflict:
        # The order refused the payment: record_charged failed the transaction and cancelled the charge.
        current = store.find_own(int(held["_id"]), str(held["userId"])) or held
        return Outcome.UNRESOLVED if current.get("refund") == "PENDING" else Outcome.REFUNDED
    except AppError:
        return Outcome.UNRESOLVED  # the order was busy: the next pass records it
    return Outcome.CONFIRMED


def _known_charged(transaction: Transaction) -> bool:
    """The processor said charged, or the payment is already on the order."""
    if transaction.get("processorConfirmedAt") is not None:
        return True
    order = store.find_order(transaction["orderId"])
    return order is not None and str(transaction["_id"]) in order.get("paymentIds", [])


def _status(processor: CardProcessor, transaction: Transaction) -> PaymentStatus:
    if transaction.get("confirmStartedAt") is None:
        return PaymentStatus(PaymentState.NOT_CHARGED)  # the apply stopped before asking to charge
    return processor.status(settlement.payment_of(transaction))


def _give_back(
    transaction: Transaction, claim_id: str, now: datetime, changes: TransactionChanges, outcome: Outcome
) -> Outcome | None:
    lifecycle.release_charge(transaction["orderId"], str(transaction["_id"]))
    if store.update_claimed(int(transaction["_id"]), claim_id, now, changes) is None:
        return None
    return outcome


def _retry_refund(processor: CardProcessor, transaction: Transaction) -> Outcome | None:
    outcome = refunds.refund(processor, transaction, ask_first=True)
    if outcome is None:
        return None  # done meanwhile, or an attempt holds it right now
    return Outcome.REFUNDED if outcome == refunds.DONE else Outcome.UNRESOLVED
