"""The Payme card-processor adapter: the Payme Subscribe API (https://developer.help.paycom.uz,
"Протокол Subscribe API" and "Методы Subscribe API").

JSON-RPC 2.0 over HTTPS, every call a POST of {id, method, params} to the one endpoint, with the
`X-Auth` header: the cashbox id for the front-end card methods (cards.get_verify_code, cards.verify),
`cashbox_id:key` for cards.check and the receipt methods (see below).
Amounts in tiyin; errors as `error {code, message}` (in an HTTP 200).

Payme's rules forbid a merchant's server from receiving card numbers: the partner's app tokenizes the
card with Payme's front-end method (`cards.create` with the cashbox id alone) and our API receives the
card token (`cardToken`), never the number. So this adapter takes tokens only (`card_entries`):

    cards.check           {token}           -> {card {number (masked), expire, token, verify}}
    cards.get_verify_code {token}           sends the SMS code -> {sent, phone, wait (ms the code lives)}
    cards.verify          {token, code}     -> {card {verify: true}}
    receipts.create       {amount, account} -> {receipt {_id, state: 0}}
    receipts.pay          {id, token}       debits -> {receipt {state: 4}}
    receipts.check        {id}              -> {state}
    receipts.cancel       {id}              cancels a paid receipt -> {receipt {state: 21 | 50}}

Receipt states: 0 created (not paid), 1-3, 5, 6, 20, 30 being processed, 4 paid, 21 queued for
cancellation, 50 cancelled. Our flow: create = cards.check (the card's mask) + receipts.create +
cards.get_verify_code (the code's lifetime is Payme's `wait`), resend = cards.get_verify_code, confirm
= receipts.check (a paid receipt is not paid again) + cards.check (a card this payment's earlier apply
verified is not verified again: its code is spent) + cards.verify + receipts.pay, status =
receipts.check, cancel = receipts.cancel. The receipt's account is `{"transaction_id": <our
transaction id>}`: the cashbox's account field (docs/OPERATIONS.md).

Where the public sources disagree (checks before going live, docs/OPERATIONS.md "Before going live with
Payme"; issue 46):
- cards.check's `X-Auth`: "Протокол Subscribe API" gives the front-end `X-Auth: {id}` and the back-end
  `X-Auth: {id}:{password}`, and the method list ("Методы Subscribe API") puts cards.check with
  cards.remove among the server's methods; yet cards.check's own page shows its example request with the
  id alone, and integrations call every card method with the id alone. Our reading: the server is the
  caller, so cards.check goes with `{id}:{key}` as a back-end call; the front-end's methods
  (cards.get_verify_code, cards.verify, which the partner's app could call itself) with the id alone.
  A cashbox refusing that is -32504 at create, an outage to check on the test platform (docs/OPERATIONS.md).
- -31630: one integration's error list names it a debit error with several causes (insufficient funds
  among them), another's (a Go client) a P2P transfer between identical cards. It refuses the payment
  either way, and names no cause we could tell the buyer: it is `CARD_DECLINED` (PAYMENT_DECLINED,
  "declined by the card's bank"), not insufficient funds.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from core.observability import logger
from domain.payments.processor import (
    AMOUNT_OUT_OF_RANGE,
    CARD_BLOCKED,
    CARD_DATA_WRONG,
    CARD_DECLINED,
    INSUFFICIENT_FUNDS,
    CardDetails,
    CardEntry,
    CardToken,
    OtpExpired,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorError,
    ProcessorPayment,
    ProcessorUnavailable,
    SentCode,
    WrongOtp,
)
from domain.payments.processor_http import not_understood, post
from domain.payments.settings import card_processor_credentials

NAME = "payme"
ACCOUNT_FIELD = "transaction_id"
FRONT_END_METHODS = frozenset({"cards.create", "cards.get_verify_code", "cards.verify"})
PAID, QUEUED_FOR_CANCEL, CANCELLED, CREATED = 4, 21, 50, 0
STATES = {
    CREATED: PaymentState.NOT_CHARGED,
    PAID: PaymentState.CHARGED,
    QUEUED_FOR_CANCEL: PaymentState.CANCELLED,
    CANCELLED: PaymentState.CANCELLED,
}
MILLISECONDS = 1000

# Payme's error codes that refuse a payment for the card's or the buyer's reason (Payme's list of
# Subscribe API errors); any other (access denied -32504, processing centre unavailable -31002, system
# error -32400...) is an outage to us.
REFUSALS: dict[int, Callable[[], ProcessorError]] = {
    -31103: WrongOtp,  # wrong code
    -31101: OtpExpired,  # the code has expired
    -31102: OtpExpired,  # too many wrong codes: a new code is needed
    -31303: partial(PaymentDeclined, INSUFFICIENT_FUNDS),
    -31630: partial(PaymentDeclined, CARD_DECLINED),  # sources give different causes (module docstring)
    -31301: partial(PaymentDeclined, CARD_BLOCKED),  # blocked, expired, or without SMS notifications
    -31300: partial(PaymentDeclined, CARD_DATA_WRONG),  # wrong card number or expiry
    -31400: partial(PaymentDeclined, CARD_DATA_WRONG),  # no such card (token)
    -31611: partial(PaymentDeclined, AMOUNT_OUT_OF_RANGE),  # below the smallest amount Payme takes
    -31612: partial(PaymentDeclined, AMOUNT_OUT_OF_RANGE),  # above the largest
}


class PaymeProcessor:
    name = NAME
    card_entries: frozenset[CardEntry] = frozenset({"token"})

    def __init__(self, endpoint: str, *, timeout: float) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self._ids = itertools.count(1)

    def create(self, card: CardDetails | CardToken, amount_tiyin: int, reference: str) -> ProcessorPayment:
        if not isinstance(card, CardToken):
            raise not_understood(NAME, "cards.create", "Payme takes a card token, never a card number")
        checked = self._rpc("cards.check", {"token": card.token})
        card_mask = _field(checked, "cards.check", "card", "number")
        receipt = self._rpc("receipts.create", {"amount": amount_tiyin, "account": {ACCOUNT_FIELD: reference}})
        receipt_id = _field(receipt, "receipts.create", "receipt", "_id")
        payment = ProcessorPayment(processor_id=receipt_id, token=card.token, card_mask=card_mask)
        sent = self.resend_otp(payment)
        return payment._replace(code_lifetime_seconds=sent.lifetime_seconds)

    def resend_otp(self, payment: ProcessorPayment) -> SentCode:
        sent = self._rpc("cards.get_verify_code", {"token": payment.token})
        if sent.get("sent") is not True:
            raise not_understood(NAME, "cards.get_verify_code", "code not sent")
        # Payme checks the code itself; `wait` is how long it lives, in milliseconds.
        wait = sent.get("wait")
        if isinstance(wait, int | float) and not isinstance(wait, bool) and wait >= MILLISECONDS:
            return SentCode(lifetime_seconds=int(wait // MILLISECONDS))
        return SentCode()

    def confirm(self, payment: ProcessorPayment, otp: str) -> str | None:
        if self.status(payment).state is PaymentState.CHARGED:
            return None  # a previous apply paid it and its answer was lost
        checked = self._rpc("cards.check", {"token": payment.token}).get("card")
        if not isinstance(checked, dict) or checked.get("verify") is not True:
            verified = self._rpc("cards.verify", {"token": payment.token, "code": otp})
            card = verified.get("card")
            if not isinstance(card, dict) or card.get("verify") is not True:
                raise not_understood(NAME, "cards.verify", "card not verified")
        paid = self._rpc("receipts.pay", {"id": payment.processor_id, "token": payment.token})
        receipt = paid.get("receipt")
        if not isinstance(receipt, dict) or receipt.get("state") != PAID:
            raise not_understood(NAME, "receipts.pay", "receipt not paid")
        return None  # a receipt is cancelled by its own id

    def cancel(self, payment: ProcessorPayment) -> None:
        try:
            self._rpc("receipts.cancel", {"id": payment.processor_id})
        except ProcessorError:
            # Refused, or unknown: done only if Payme says nothing is (any longer) debited.
            if self.status(payment).state not in (PaymentState.CANCELLED, PaymentState.NOT_CHARGED):
                raise

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        state = self._rpc("receipts.check", {"id": payment.processor_id}).get("state")
        known = STATES.get(state) if isinstance(state, int) else None
        if known is None:
            # A receipt being processed (1-3, 5, 6, 20, 30): its outcome is not known yet.
            raise not_understood(NAME, "receipts.check", "receipt still in progress or unknown", state=state)
        return PaymentStatus(known)

    # --- the wire ----------------------------------------------------------------------------------

    def _rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Call `method`; its result, or the refusal or outage its error means."""
        credentials = card_processor_credentials("PAYME_CASHBOX_ID", "PAYME_KEY")
        cashbox_id = credentials["PAYME_CASHBOX_ID"]
        # The key goes with the server methods (cards.check, the receipts); the front-end's card methods take
        # the id alone (module docstring).
        auth = cashbox_id if method in FRONT_END_METHODS else f"{cashbox_id}:{credentials['PAYME_KEY']}"
        headers = {"Content-Type": "application/json", "Accept": "application/json", "X-Auth": auth}
        body = json.dumps({"id": next(self._ids), "method": method, "params": params}).encode()
        reply = post(self.endpoint, body, headers, timeout=self.timeout, processor=NAME, call=method)
        if reply.status != 200 or not isinstance(reply.body, dict):
            raise not_understood(NAME, method, "unexpected answer", status=reply.status)
        error = reply.body.get("error")
        if error is not None:
            code = error.get("code") if isinstance(error, dict) else None
            refusal = REFUSALS.get(code) if isinstance(code, int) else None
            log = logger.warning if refusal else logger.error
            log("card processor refused", extra={"processor": NAME, "call": method, "code": code})
            raise refusal() if refusal else ProcessorUnavailable(f"{NAME} answered {code}")
        result = reply.body.get("result")
        if not isinstance(result, dict):
            raise not_understood(NAME, method, "no result")
        return result


def _field(result: dict[str, Any], method: str, kind: str, name: str) -> str:
    """`result[kind][name]`, a non-empty string, or an outage."""
    inner = result.get(kind)
    value = inner.get(name) if isinstance(inner, dict) else None
    if not isinstance(value, str) or not value:
        raise not_understood(NAME, method, f"no {kind} {name}")
    return value
