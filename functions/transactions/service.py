"""Card payment by OTP (domain.payments.flow): the request's values in, the response models out."""

from __future__ import annotations

import functools

from core.models import CountedPage, parametrized
from domain.payments import flow
from domain.payments.cards import ECardType
from domain.payments.records import TransactionStatus
from transactions.models import (
    AppliedPayment,
    ApplyBody,
    CardCheck,
    CreateBody,
    HistoryItem,
    ResendBody,
    TransactionRef,
)


def check_card(raw_number: str) -> CardCheck:
    return _card_check(flow.card_type_of(raw_number))


@functools.cache
def _card_check(card_type: ECardType) -> CardCheck:
    """The answer for a network, built once: it holds the network alone."""
    return CardCheck(type=card_type)


def create(user_id: str, body: CreateBody) -> TransactionRef:
    card = flow.CardEntered(number=body.cardNumber, expiry=body.expiry, card_type=body.cardType, token=body.cardToken)
    sent = flow.create(user_id, order_id=body.orderId, brand_id=body.brandId, amount=body.amount, card=card)
    return _reference(sent)


def resend(user_id: str, body: ResendBody) -> TransactionRef:
    card = flow.CardEntered(number=body.cardNumber, token=body.cardToken)
    return _reference(flow.resend(user_id, card=card, amount=body.amount))


def _reference(sent: flow.SentPaymentCode) -> TransactionRef:
    return TransactionRef(
        transactionId=sent.transaction_id, codeExpiresAt=sent.code_expires_at, codeValidSeconds=sent.code_valid_seconds
    )


def apply(user_id: str, body: ApplyBody) -> AppliedPayment:
    paid = flow.apply(
        user_id,
        transaction_id=body.transactionId,
        otp=body.otp,
        amount=body.amount,
        brand_id=body.brandId,
        order_id=body.orderId,
    )
    return AppliedPayment(
        transactionId=paid.transaction_id,
        status=TransactionStatus.CONFIRMED,
        amount=paid.amount,
        orderId=paid.order_id,
        orderStatus=paid.order_status,
        paidAmount=paid.paid_amount,
        amountDue=paid.amount_due,
        amountDueNow=paid.amount_due_now,
        cardMask=paid.card_mask,
        cardType=paid.card_type,
    )


def history(user_id: str, order_id: str, *, offset: int, limit: int) -> CountedPage[HistoryItem]:
    """A page of the caller's order's card transactions, newest first."""
    found = flow.history(user_id, order_id, offset=offset, limit=limit)
    items = [
        {
            "transactionId": entry.transaction_id,
            "amount": entry.amount,
            "status": entry.status,
            "cardMask": entry.card_mask,
            "cardType": entry.card_type,
            "createdAt": entry.created_at,
            "confirmedAt": entry.confirmed_at,
            "refund": entry.refund,
            "refundedAt": entry.refunded_at,
        }
        for entry in found.items
    ]
    # The page validated in one pydantic-core call, not one model per transaction.
    return parametrized(CountedPage, HistoryItem).model_validate(
        {"items": items, "total": found.total, "exact": found.exact}
    )
