"""Card payment by OTP: check-card, create, resend-code, apply, history.

Rules (docs/INTERFACE.md): UZCARD and HUMO only; a 6-digit code valid as long as the processor says it
is (Payme's `wait`), else 120 s, from the last send; 3 wrong codes fail the transaction; a new code after
a 60 s cooldown, at most 3 times. The card comes as its number and expiry (ATMOS, the sandbox) or as a
card token the partner's app got from the processor (Payme, the sandbox): each processor says which it
takes. Amounts are whole sums, sent to the processor in tiyin. Card numbers, expiry dates, card tokens
and codes are never stored in clear or logged.

Each step that calls the processor runs within the request's budget for partner calls
(core.deadline): what it cannot finish in time is a 503, and an apply left in doubt is the payment
reconciliation's to settle.

Apply pays at most once (docs/DECISIONS.md, "Card payments"): one apply claims the transaction
(PENDING -> CONFIRMING, conditional), and only the holder of the claim settles it (`settlement`: the
order's charging claim, the processor's charge, the payment recorded on the order, CONFIRMED).
"""

import math
import uuid
from datetime import datetime, timedelta
from typing import NamedTuple

from bson import ObjectId
from pydantic_core import PydanticCustomError

from core import clock, deadline
from core.errors import AppError, Conflict, FieldProblem, InvalidInput, NotFound, TooManyAttempts
from core.observability import logger
from data import counters, rate_limit
from data.mongo import FoundPage
from domain.orders import expiry, holds, lifecycle
from domain.orders.records import OrderRecord
from domain.payments import cancellations, cards, settlement, store
from domain.payments.cards import ECardType
from domain.payments.processor import (
    CardDetails,
    CardEntry,
    CardProcessor,
    CardToken,
    ProcessorError,
    ProcessorPayment,
    to_tiyin,
)
from domain.payments.processor_factory import get_processor
from domain.payments.records import RefundState, Transaction, TransactionStatus
from domain.payments.settings import get_payment_settings
from domain.payments.settlement import ConfirmedPayment
from domain.payments.store import (
    CLAIM_SECONDS,
    MAX_RESENDS,
    OTP_TTL_SECONDS,
    RESEND_COOLDOWN_SECONDS,
    ListedTransaction,
)


class CardEntered(NamedTuple):
    """The card as the buyer's app sent it: its number (16 digits), expiry (MM/YY) and network, or a
    processor's card token."""

    number: str | None = None
    expiry: str | None = None
    card_type: ECardType | None = None
    token: str | None = None


class SentPaymentCode(NamedTuple):
    """A transaction whose code was sent, and until when the code is valid."""

    transaction_id: int
    code_expires_at: datetime
    code_valid_seconds: int


class HistoryEntry(NamedTuple):
    """One card transaction of an order, with the status the caller sees."""

    transaction_id: int
    amount: int
    status: str
    card_mask: str
    card_type: str
    created_at: datetime
    confirmed_at: datetime | None
    refund: RefundState | None
    refunded_at: datetime | None


def card_type_of(raw_number: str) -> ECardType:
    """The network of a card number (the `cardNumber` query parameter); 400 for one that is not a card's."""
    try:
        digits = cards.parse_card_number(raw_number)
    except PydanticCustomError as exc:
        raise InvalidInput.field("query.cardNumber", exc.type) from None
    card_type = cards.detect_type(digits)
    if card_type is None:
        raise InvalidInput.field("query.cardNumber", "CARD_NETWORK_UNKNOWN")
    return card_type


@deadline.within_request_budget
def create(user_id: str, *, order_id: str, brand_id: str, amount: int, card: CardEntered) -> SentPaymentCode:
    """Check the order, the amount and the card, register the payment and send the code."""
    now = clock.now()
    order = _own_order(order_id, user_id)
    if str(order["brandId"]) != brand_id:
        raise InvalidInput.field("body.brandId", "BRAND_NOT_OF_ORDER")
    _check_fits_with_open(order, amount, now)
    processor = get_processor()
    entered = _card_for(processor, card, now)
    card_hash = (
        cards.token_lookup_hash(entered.token) if isinstance(entered, CardToken) else cards.lookup_hash(entered.number)
    )
    _limit_creates(user_id, card_hash)

    transaction_id = counters.next_value("transaction")
    try:
        payment = processor.create(entered, to_tiyin(amount), str(transaction_id))
    except ProcessorError as exc:
        raise settlement.processor_refusal(exc) from None
    card_mask, card_type = _shown_card(processor, entered, payment)
    valid_for = payment.code_lifetime_seconds or OTP_TTL_SECONDS
    store.insert(
        {
            "_id": transaction_id,
            "userId": ObjectId(user_id),
            "orderId": order["_id"],
            "brandId": order["brandId"],
            "amount": amount,
            "cardMask": card_mask,
            "cardType": card_type.value,
            "cardHash": card_hash,
            "processor": processor.name,
            "processorId": payment.processor_id,
            "processorToken": payment.token,
            "otpHash": payment.otp_hash,
            "status": TransactionStatus.PENDING.value,
            "attempts": 0,
            "resends": 0,
            "lastSentAt": now,
            "expiresAt": now + timedelta(seconds=valid_for),
            "createdAt": now,
            "updatedAt": now,
        }
    )
    logger.info(
        "card transaction created",
        extra={"transaction_id": transaction_id, "order_id": str(order["_id"]), "amount": amount},
    )
    return SentPaymentCode(transaction_id, now + timedelta(seconds=valid_for), valid_for)


def _card_for(processor: CardProcessor, card: CardEntered, now: datetime) -> CardDetails | CardToken:
    """The card in the form the processor takes (400 for a form it does not take), its number checked."""
    entry: CardEntry = "token" if card.token is not None else "number"
    if entry not in processor.card_entries:
        accepted = sorted(processor.card_entries)
        field = "body.cardToken" if entry == "token" else "body.cardNumber"
        raise InvalidInput(
            "CARD_ENTRY_NOT_ACCEPTED",
            errors=[{"field": field, "code": "CARD_ENTRY_NOT_ACCEPTED", "params": {}}],
            details={"accepted": accepted},
        )
    if card.token is not None:
        return CardToken(card.token)
    if card.number is None or card.expiry is None or card.card_type is None:
        raise InvalidInput.field("body.cardNumber", "CARD_ENTRY_NOT_ACCEPTED")  # the model requires all three
    detected = cards.detect_type(card.number)
    if detected != card.card_type:
        raise InvalidInput.field("body.cardType", "CARD_TYPE_MISMATCH")
    if detected not in cards.PAYABLE_TYPES:
        raise InvalidInput.field("body.cardType", "CARD_TYPE_NOT_ACCEPTED")
    year, month = cards.parse_expiry(card.expiry)
    if cards.expiry_has_passed(year, month, now):
        raise InvalidInput.field("body.expiry", "CARD_EXPIRED")
    return CardDetails(card.number, year, month)


def _shown_card(
    processor: CardProcessor, entered: CardDetails | CardToken, payment: ProcessorPayment
) -> tuple[str, ECardType]:
    """The card's mask and network: from its number, or as the processor shows a tokenized card (a
    network we do not take: the registered payment is cancelled and the card refused)."""
    if isinstance(entered, CardDetails):
        detected = cards.detect_type(entered.number)
        assert detected is not None  # checked by _card_for
        return cards.mask(entered.number), detected
    shown = payment.card_mask or ""
    detected = cards.detect_type(shown) if shown[:6].isdigit() else None
    if detected not in cards.PAYABLE_TYPES or detected is None:
        try:
            processor.cancel(payment)
        except ProcessorError:
            logger.warning("a refused tokenized card's payment could not be cancelled; it was never charged")
        raise InvalidInput.field("body.cardToken", "CARD_TYPE_NOT_ACCEPTED")
    return shown, detected


@deadline.within_request_budget
def resend(user_id: str, *, card: CardEntered, amount: int) -> SentPaymentCode:
    """A new code for the caller's pending transaction of this card and amount."""
    now = clock.now()
    card_hash = cards.token_lookup_hash(card.token) if card.token is not None else cards.lookup_hash(card.number or "")
    transaction = store.find_pending_for_card(user_id, card_hash, amount)
    if transaction is None:
        raise NotFound("NO_PENDING_TRANSACTION")
    processor = _processor_of(transaction)
    _check_resend_allowed(transaction, now)
    if transaction["expiresAt"] <= now:
        # An expired code held nothing on the order: reviving it must fit like a new payment.
        order = store.find_order(transaction["orderId"])
        if order is None:
            raise Conflict("ORDER_GONE")
        _check_fits_with_open(order, int(transaction["amount"]), now, excluding=int(transaction["_id"]))
    if not store.take_resend_slot(transaction, now):
        # Another resend or an apply got there first: judge again from what it left.
        current = store.find_own(transaction["_id"], user_id) or transaction
        if current["status"] != TransactionStatus.PENDING:
            raise _not_pending(current)
        _check_resend_allowed(current, now)
        raise TooManyAttempts(
            "OTP_RESEND_TOO_EARLY", seconds=RESEND_COOLDOWN_SECONDS, retry_after=RESEND_COOLDOWN_SECONDS
        )
    try:
        sent = processor.resend_otp(settlement.payment_of(transaction))
    except ProcessorError as exc:
        store.undo_resend(transaction, now)
        raise settlement.processor_refusal(exc) from None
    valid_for = sent.lifetime_seconds or OTP_TTL_SECONDS
    store.record_resend(transaction["_id"], now, sent.otp_hash, now + timedelta(seconds=valid_for))
    logger.info("card transaction code resent", extra={"transaction_id": transaction["_id"]})
    return SentPaymentCode(int(transaction["_id"]), now + timedelta(seconds=valid_for), valid_for)


@deadline.within_request_budget
def apply(
    user_id: str, *, transaction_id: int, otp: str, amount: int, brand_id: str, order_id: str
) -> ConfirmedPayment:
    """Confirm the transaction with the code and pay the order, exactly once. `amount`, `brand_id` and
    `order_id` must be the transaction's."""
    transaction = store.find_own(transaction_id, user_id)
    if transaction is None:
        raise NotFound("TRANSACTION_NOT_FOUND")
    given = {"amount": amount, "brandId": brand_id, "orderId": order_id}
    expected = {
        "amount": transaction["amount"],
        "brandId": str(transaction["brandId"]),
        "orderId": str(transaction["orderId"]),
    }
    mismatched: list[FieldProblem] = [
        {"field": f"body.{field}", "code": "TRANSACTION_MISMATCH", "params": {}}
        for field, value in expected.items()
        if given[field] != value
    ]
    if mismatched:
        raise InvalidInput("TRANSACTION_MISMATCH", errors=mismatched)
    processor = _processor_of(transaction)
    now = clock.now()
    claim_id = uuid.uuid4().hex
    claimed = store.claim(transaction_id, user_id, claim_id, now)
    if claimed is None:
        raise _not_claimable(store.find_own(transaction_id, user_id) or transaction, now)
    try:
        return settlement.settle(processor, claimed, claim_id, otp, now)
    except holds.HoldExpired as late:
        # The order is late: it is cancelled now, as when a payment of it is created.
        expiry.expire_met(late.order, now, cancellations.card_refunds)
        raise


def history(user_id: str, order_id: str, *, offset: int, limit: int) -> FoundPage[HistoryEntry]:
    """A page of the caller's order's card transactions, newest first, and how many there are; 404 when
    the order is not the caller's (looked up only for an empty page: a transaction is its payer's)."""
    found = store.of_order(ObjectId(order_id), user_id, offset=offset, limit=limit)
    if not found.items:
        _own_order(order_id, user_id)
    now = clock.now()
    entries = [
        HistoryEntry(
            transaction_id=transaction["_id"],
            amount=transaction["amount"],
            status=_shown_status(transaction, now),
            card_mask=transaction["cardMask"],
            card_type=transaction["cardType"],
            created_at=transaction["createdAt"],
            confirmed_at=transaction.get("confirmedAt"),
            refund=transaction.get("refund"),
            refunded_at=transaction.get("refundedAt"),
        )
        for transaction in found.items
    ]
    return FoundPage(entries, found.total, found.exact)


# --- shared checks and refusals --------------------------------------------------------------------


def _own_order(order_id: str, user_id: str) -> OrderRecord:
    order = store.find_order(ObjectId(order_id), user_id)
    if order is None:
        raise NotFound("ORDER_NOT_FOUND")
    return order


def _check_fits_with_open(order: OrderRecord, amount: int, now: datetime, *, excluding: int | None = None) -> None:
    """409 unless the order can take `amount` on top of its other open transactions. Advisory: it reads
    and the transaction is stored later, so two racing creates may both pass; the charging claim taken at
    apply (`lifecycle.take_charge`) is what keeps the charges within what is due. A late order takes no
    payment: it is expired here and now (409 ORDER_HOLD_EXPIRED, `domain.orders.holds`)."""
    expiry.expire_if_late(order, cancellations.card_refunds)
    remaining = lifecycle.ensure_can_take(order, amount)
    holds.check_first_payment(order, amount, remaining)
    in_progress = store.reserved_amount(order["_id"], now, excluding=excluding)
    if amount > remaining - in_progress:
        raise Conflict(
            "AMOUNT_ABOVE_DUE_WITH_PENDING",
            details={"remaining": remaining, "inProgress": in_progress, "amount": amount},
        )


def _limit_creates(user_id: str, card_hash: str) -> None:
    """Each create sends a code and gives 3 tries at it: limit them per caller and per card."""
    settings = get_payment_settings()
    for key in (f"card-create:user:{user_id}", f"card-create:card:{card_hash}"):
        rate_limit.hit(
            key,
            limit=settings.card_create_rate_limit,
            window_seconds=settings.card_create_rate_window_seconds,
            error_code="TOO_MANY_CARD_PAYMENTS",
        )


def _check_resend_allowed(transaction: Transaction, now: datetime) -> None:
    if transaction["resends"] >= MAX_RESENDS:
        raise Conflict("OTP_RESENDS_EXHAUSTED", max=MAX_RESENDS, details={"resendsLeft": 0})
    elapsed = (now - transaction["lastSentAt"]).total_seconds()
    wait = math.ceil(RESEND_COOLDOWN_SECONDS - elapsed)
    if wait > 0:
        raise TooManyAttempts("OTP_RESEND_TOO_EARLY", seconds=wait, retry_after=wait)


def _not_claimable(transaction: Transaction, now: datetime) -> AppError:
    status = TransactionStatus(transaction["status"])
    if status is TransactionStatus.PENDING and transaction["expiresAt"] <= now:
        if transaction["resends"] >= MAX_RESENDS:
            store.expire(int(transaction["_id"]), now)
        return settlement.otp_expired(transaction)
    if status is TransactionStatus.PENDING:
        return Conflict("TRANSACTION_CHANGED", details={"status": status.value})
    if status is TransactionStatus.CONFIRMING:
        # Another apply holds it, or one whose outcome is unknown (503) does: a retry can take it over
        # once the claim has run out.
        claimed_for = (now - transaction["claimedAt"]).total_seconds()
        wait = max(1, math.ceil(CLAIM_SECONDS - claimed_for))
        return Conflict("TRANSACTION_BEING_CONFIRMED", details={"status": status.value}, retry_after=wait)
    return _not_pending(transaction)


def _not_pending(transaction: Transaction) -> Conflict:
    return Conflict("TRANSACTION_NOT_PENDING", status=transaction["status"], details={"status": transaction["status"]})


_CONFIRMING, _PENDING, _EXPIRED = (
    TransactionStatus.CONFIRMING.value,
    TransactionStatus.PENDING.value,
    TransactionStatus.EXPIRED.value,
)


def _shown_status(transaction: ListedTransaction, now: datetime) -> str:
    """CONFIRMING is internal (still in progress); a pending one whose code expired with no resend left is dead."""
    # Compared as text: a `TransactionStatus` is a `str`, equal to its stored value.
    status = transaction["status"]
    if status == _CONFIRMING:
        return _PENDING
    if status == _PENDING and transaction["expiresAt"] <= now and transaction["resends"] >= MAX_RESENDS:
        return _EXPIRED
    return status


def _processor_of(transaction: Transaction) -> CardProcessor:
    """The configured processor, if it is the one that registered this payment."""
    processor = get_processor()
    if transaction.get("processor") != processor.name:
        raise Conflict(
            "TRANSACTION_PROCESSOR_CHANGED",
            details={"status": transaction["status"]},
        )
    return processor
