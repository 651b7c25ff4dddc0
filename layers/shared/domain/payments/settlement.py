"""Settling a claimed card transaction: the saga an apply runs once it holds the transaction (the
reconciliation runs its second half for a charge whose apply died).

Charging: take the order's charging claim (`lifecycle.take_charge`), note that the processor is being
asked, ask it to charge with the code; a wrong or expired code, a decline or a refusal by the order gives
the charging claim back and leaves the transaction as the client may retry it, and an unknown outcome
keeps both claims for a retry once they run out. Recording: record the payment on the order (once per
transaction id), then mark the transaction CONFIRMED with its event; an order that can no longer take
the charge fails the transaction and gives the money back (void or refund). Each step is conditional on
this apply's claim, so a payment is taken at most once (docs/DECISIONS.md, "Card payments").
"""

from datetime import datetime
from typing import NamedTuple

from aws_lambda_powertools.metrics import MetricUnit
from bson import ObjectId

from core.errors import AppError, Conflict, InvalidInput, NotFound, Unavailable
from core.observability import logger, metrics
from domain.orders import holds, lifecycle
from domain.payments import store
from domain.payments.processor import (
    AMOUNT_OUT_OF_RANGE,
    CARD_BLOCKED,
    CARD_DATA_WRONG,
    CARD_EXPIRED,
    INSUFFICIENT_FUNDS,
    LIMIT_EXCEEDED,
    CardProcessor,
    OtpExpired,
    PaymentDeclined,
    ProcessorError,
    ProcessorPayment,
    ProcessorUnavailable,
    WrongOtp,
)
from domain.payments.records import RefundState, Transaction, TransactionChanges, TransactionStatus
from domain.payments.store import CLAIM_SECONDS, MAX_OTP_ATTEMPTS, MAX_RESENDS

DECLINES = {
    INSUFFICIENT_FUNDS: "PAYMENT_DECLINED_INSUFFICIENT_FUNDS",
    CARD_BLOCKED: "PAYMENT_DECLINED_CARD_BLOCKED",
    CARD_EXPIRED: "PAYMENT_DECLINED_CARD_EXPIRED",
    CARD_DATA_WRONG: "PAYMENT_DECLINED_CARD_DATA",
    LIMIT_EXCEEDED: "PAYMENT_DECLINED_LIMIT_EXCEEDED",
    AMOUNT_OUT_OF_RANGE: "PAYMENT_DECLINED_AMOUNT_OUT_OF_RANGE",
}

# What became of a charge the order refused, told to the client (`_fail`): not charged, reversed, or
# being reversed.
REFUSED_PAYMENTS = {
    None: "ORDER_REFUSED_PAYMENT",
    "DONE": "ORDER_REFUSED_PAYMENT_REVERSED",
    "PENDING": "ORDER_REFUSED_PAYMENT_REFUND_PENDING",
}


class ConfirmedPayment(NamedTuple):
    """A confirmed transaction and the order it was recorded on, as they stand after the payment."""

    transaction_id: int
    amount: int
    order_id: ObjectId
    order_status: str
    paid_amount: int
    amount_due: int
    amount_due_now: int
    card_mask: str
    card_type: str


def settle(
    processor: CardProcessor, transaction: Transaction, claim_id: str, otp: str, now: datetime
) -> ConfirmedPayment:
    """Charge the claimed transaction with the code, unless an earlier apply already did, and record the
    payment on the order."""
    transaction_id = int(transaction["_id"])
    order_id = transaction["orderId"]
    if transaction.get("processorConfirmedAt") is None and not _already_recorded(order_id, transaction_id):
        _charge(processor, transaction, claim_id, otp, now)
    return record_charged(processor, transaction, claim_id, now)


def record_charged(
    processor: CardProcessor, transaction: Transaction, claim_id: str, now: datetime
) -> ConfirmedPayment:
    """A charged transaction held by `claim_id`: record the payment on the order (once per transaction)
    and mark it CONFIRMED with its event; if the order refuses it, fail it and give the money back
    (409). Used by apply and by the payment reconciliation."""
    transaction_id = int(transaction["_id"])
    order_id = transaction["orderId"]
    try:
        order = lifecycle.record_payment(
            order_id,
            int(transaction["amount"]),
            payment_id=str(transaction_id),
            cause=f"card payment {transaction_id}",
        )
    except lifecycle.OrderBusy:
        # Charged and not refused: only lost the race for the order document. Keep the claim (and the
        # order's charging claim); the client's retry once they run out records the payment idempotently.
        raise lifecycle.OrderBusy(retry_after=CLAIM_SECONDS) from None
    except (Conflict, NotFound) as refused:
        # Charged, but the order can no longer take it (it was cancelled, or paid by other means).
        raise _fail(transaction, claim_id, now, refused, processor) from None

    confirmed_event = {
        "transactionId": transaction_id,
        "orderId": order["_id"],
        "brandId": transaction["brandId"],
        "amount": transaction["amount"],
        "cardType": transaction["cardType"],
        "orderStatus": order["statusSlug"],
        "paidAmount": order["paidAmount"],
        "amountDue": order["amountDue"],
        "amountDueNow": lifecycle.due_now(order),
        "at": now,
    }
    if store.mark_confirmed(transaction_id, claim_id, now, confirmed_event):
        metrics.add_metric(name="CardPaymentsConfirmed", unit=MetricUnit.Count, value=1)
        logger.info(
            "card payment confirmed",
            extra={"transaction_id": transaction_id, "order_id": str(order["_id"]), "amount": transaction["amount"]},
        )
    return ConfirmedPayment(
        transaction_id=transaction_id,
        amount=transaction["amount"],
        order_id=order["_id"],
        order_status=order["statusSlug"],
        paid_amount=order["paidAmount"],
        amount_due=order["amountDue"],
        amount_due_now=lifecycle.due_now(order),
        card_mask=transaction["cardMask"],
        card_type=transaction["cardType"],
    )


def _already_recorded(order_id: ObjectId, transaction_id: int) -> bool:
    """A previous apply of this transaction recorded the payment and died before marking it confirmed."""
    order = store.find_order(order_id)
    return order is not None and str(transaction_id) in order.get("paymentIds", [])


def _charge(processor: CardProcessor, transaction: Transaction, claim_id: str, otp: str, now: datetime) -> None:
    """Take the order's charging claim, then ask the processor to charge; raise unless it charged."""
    transaction_id = int(transaction["_id"])
    order_id = transaction["orderId"]
    payment_id = str(transaction_id)
    # A previous apply that died after calling the processor may have been charged.
    maybe_charged = transaction.get("confirmStartedAt") is not None
    try:
        lifecycle.take_charge(order_id, payment_id, int(transaction["amount"]), now=now, claim_seconds=CLAIM_SECONDS)
    except lifecycle.ChargeInProgress as busy:
        # Nothing charged by this apply: give the transaction back so the client can apply again.
        _update_claimed(transaction, claim_id, now, {"status": TransactionStatus.PENDING.value})
        raise busy from None
    except holds.HoldExpired as late:
        # The transaction fails as for any refusal by the order; the caller expires the order and answers
        # the late order's own code (`domain.payments.flow.apply`).
        _fail(transaction, claim_id, now, late, processor if maybe_charged else None)
        raise
    except (Conflict, NotFound) as refused:
        raise _fail(transaction, claim_id, now, refused, processor if maybe_charged else None) from None
    try:
        _update_claimed(transaction, claim_id, now, {"confirmStartedAt": now})
    except Conflict:
        lifecycle.release_charge(order_id, payment_id)
        raise
    try:
        charge_id = processor.confirm(payment_of(transaction), otp)
    except WrongOtp:
        lifecycle.release_charge(order_id, payment_id)
        raise _wrong_otp(transaction, claim_id, now) from None
    except OtpExpired:
        lifecycle.release_charge(order_id, payment_id)
        _update_claimed(transaction, claim_id, now, {"status": TransactionStatus.PENDING.value, "expiresAt": now})
        raise otp_expired(transaction) from None
    except PaymentDeclined as declined:
        lifecycle.release_charge(order_id, payment_id)
        _update_claimed(
            transaction, claim_id, now, {"status": TransactionStatus.FAILED.value, "failureReason": declined.reason}
        )
        raise processor_refusal(declined, failed=True) from None
    except ProcessorUnavailable:
        # The outcome is unknown: keep the claim and the order's charging claim. Once they run out a retry
        # asks the processor again (its apply is idempotent); until then the amount stays reserved.
        raise Unavailable("PROCESSOR_NO_ANSWER", retry_after=CLAIM_SECONDS) from None
    charged: TransactionChanges = {"processorConfirmedAt": now}
    if charge_id is not None:
        charged["processorChargeId"] = charge_id  # what a refund of this charge is asked with
    _update_claimed(transaction, claim_id, now, charged)


def _update_claimed(
    transaction: Transaction,
    claim_id: str,
    now: datetime,
    changes: TransactionChanges,
    *,
    inc: dict[str, int] | None = None,
) -> Transaction:
    """Change the transaction this apply holds; 409 when the claim was lost (it ran out and
    another apply took it over: that one carries on)."""
    updated = store.update_claimed(int(transaction["_id"]), claim_id, now, changes, inc=inc)
    if updated is None:
        raise Conflict("TRANSACTION_BEING_CONFIRMED", details={"status": TransactionStatus.CONFIRMING.value})
    return updated


def _wrong_otp(transaction: Transaction, claim_id: str, now: datetime) -> InvalidInput:
    attempts = int(transaction["attempts"]) + 1
    left = MAX_OTP_ATTEMPTS - attempts
    changes: TransactionChanges = {"status": TransactionStatus.PENDING.value}
    if left <= 0:
        changes = {"status": TransactionStatus.FAILED.value, "failureReason": "OTP_ATTEMPTS"}
    _update_claimed(transaction, claim_id, now, changes, inc={"attempts": 1})
    if left <= 0:
        return InvalidInput(
            "OTP_ATTEMPTS_EXHAUSTED", details={"attemptsLeft": 0, "status": TransactionStatus.FAILED.value}
        )
    return InvalidInput("OTP_WRONG", details={"attemptsLeft": left})


def _fail(
    transaction: Transaction, claim_id: str, now: datetime, refused: AppError, refund_with: CardProcessor | None
) -> Conflict:
    """The order refused the payment: fail the transaction, giving the money back if it may have moved."""
    changes: TransactionChanges = {"status": TransactionStatus.FAILED.value, "failureReason": "ORDER_REFUSED"}
    if refund_with is not None:
        changes["refund"] = cancel_charge(refund_with, transaction)
        changes["refundRequestedAt"] = now
        if changes["refund"] == "DONE":
            changes["refundedAt"] = now
    lifecycle.release_charge(transaction["orderId"], str(transaction["_id"]))
    store.update_claimed(int(transaction["_id"]), claim_id, now, changes)
    # The order's own refusal (ORDER_NOT_PAYABLE...) stays readable as `details.orderRefusal`.
    details = {**(refused.details or {}), "orderRefusal": refused.code, "status": TransactionStatus.FAILED.value}
    return Conflict(REFUSED_PAYMENTS[changes.get("refund")], details=details)


def cancel_charge(processor: CardProcessor, transaction: Transaction) -> RefundState:
    """Void or refund the charge: "DONE", or "PENDING" when the processor could not be reached (the
    payment reconciliation tries again)."""
    try:
        processor.cancel(payment_of(transaction))
    except ProcessorError:
        logger.error(
            "card payment could not be cancelled; the reconciliation retries it",
            extra={"transaction_id": transaction["_id"]},
        )
        metrics.add_metric(name="CardRefundFailures", unit=MetricUnit.Count, value=1)
        return "PENDING"
    return "DONE"


# --- what the processor is told and what the client is answered ----------------------------------


def payment_of(transaction: Transaction) -> ProcessorPayment:
    """The processor's handle of a stored transaction."""
    return ProcessorPayment(
        processor_id=str(transaction["processorId"]),
        token=str(transaction["processorToken"]),
        otp_hash=transaction.get("otpHash"),
        charge_id=transaction.get("processorChargeId"),
    )


def processor_refusal(error: ProcessorError, *, failed: bool = False) -> AppError:
    """What the client is answered when the processor declined (400) or could not be reached (503)."""
    if isinstance(error, PaymentDeclined):
        details = {"reason": error.reason, **({"status": TransactionStatus.FAILED.value} if failed else {})}
        return InvalidInput(DECLINES.get(error.reason, "PAYMENT_DECLINED"), details=details)
    return Unavailable("PROCESSOR_UNAVAILABLE")


def otp_expired(transaction: Transaction) -> InvalidInput:
    """The code has expired: a new one may be asked for while resends are left."""
    resends_left = max(0, MAX_RESENDS - int(transaction["resends"]))
    if resends_left == 0:
        return InvalidInput(
            "OTP_EXPIRED_NO_RESENDS", details={"status": TransactionStatus.EXPIRED.value, "resendsLeft": 0}
        )
    return InvalidInput("OTP_EXPIRED", details={"resendsLeft": resends_left})
