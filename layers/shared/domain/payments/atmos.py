"""The ATMOS card-processor adapter (UZCARD and HUMO acquiring; https://docs.atmos.uz, "Merchant API").

ATMOS's API, JSON over HTTPS; every call but the token's carries `Authorization: Bearer <token>` and
our `store_id`; amounts in tiyin:

    POST /token                   Basic base64(consumer_key:consumer_secret), form grant_type=client_credentials
                                  -> {access_token, token_type, expires_in}
    POST /merchant/pay/create     {amount, account, store_id}                          -> {transaction_id}
    POST /merchant/pay/pre-apply  {transaction_id, card_number, expiry (YYMM), store_id}  sends the SMS code
    POST /merchant/pay/otp-resend {transaction_id, store_id}                           sends it again
    POST /merchant/pay/apply      {transaction_id, otp, store_id}
                                  debits -> {store_transaction {success_trans_id, confirmed, ...}}
    POST /merchant/pay/get        {transaction_id, store_id}        -> {store_transaction}
    POST /merchant/pay/reverse    {transaction_id: <success_trans_id>, success_trans_id: <the same>,
                                   store_id, reason}  refunds a charge (both fields: see below)

Every answer carries `result {code, description}`: `OK`, or an error code (`STPIMS-ERR-...`), in an
HTTP 200 (201 is taken as well: integrations report either for a success). `store_transaction.
confirmed: true` is a charge, whether or not `status_code` comes with it (apply's answer often has
none); `status_code` "-20" marks a payment reversed after it. A charge has its own id,
`success_trans_id`, which apply answers and pay/get reports: the reverse takes that id, not the
create-time `transaction_id` (a reverse by the create-time id is answered "not found" and the money
stays on our side), so it is kept with the payment (`ProcessorPayment.charge_id`) and, for a payment
charged before it was kept, read again from pay/get. The access token is cached until shortly before
it expires and fetched again once when ATMOS answers 401. Our flow: create = pay/create + pre-apply,
resend = otp-resend, confirm = apply (after pay/get: a payment already confirmed is not applied again),
status = pay/get, cancel = reverse.

Where the public sources disagree (a check to make on ATMOS's test platform before going live,
docs/OPERATIONS.md "Card processors"):
- the reverse's body: the ATMOS documentation and one integration send the charge's id as
  `transaction_id` (32331923501: `transaction_id: successTransId`); another integration sends it as
  `success_trans_id` (57765838846). We send the charge's id in both fields (issue 46): a gateway reading
  either finds the charge, and neither field can name another transaction, since both hold the same id
  (a gateway reading `transaction_id` as the create-time id would answer "not found", which stays a
  refund PENDING and an alarm, never a wrong reverse).
- STPIMS-ERR-098: one integration keeps the buyer on the code screen after it (a wrong code), another
  files it as insufficient funds. Either way nothing was debited: we answer it as a wrong code.
- the codes of an expired code, too many wrong codes, a blocked or expired card and a card's limit are
  in no public source we found: until confirmed they are unknown codes (503, then reconciliation).
"""

from __future__ import annotations

import base64
import json
import threading
import urllib.parse
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from core import clock
from core.observability import logger
from domain.payments.processor import (
    CARD_DATA_WRONG,
    INSUFFICIENT_FUNDS,
    CardDetails,
    CardEntry,
    CardToken,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorError,
    ProcessorPayment,
    ProcessorUnavailable,
    SentCode,
    WrongOtp,
)
from domain.payments.processor_http import Reply, not_understood, post
from domain.payments.settings import card_processor_credentials

NAME = "atmos"
TOKEN_REFRESH_MARGIN_SECONDS = 30
OK = "OK"
SUCCESS_STATUSES = (200, 201)
CLOSED = "STPIMS-ERR-092"  # "the transaction is closed": pay/get still describes it
CONFIRMED_STATUSES = (None, "0")  # store_transaction.status_code of a charge: "0", or none at all
REVERSED_STATUS = "-20"

# ATMOS result codes that are the buyer's or the card's outcome: final declines, nothing debited. Any
# other code is an outage to us (503): the outcome is unknown, and only these say nothing was debited.
# Sources: the ATMOS documentation's examples and public integrations tested against ATMOS (cited in
# tests/fake_atmos.py); where they disagree, the module's docstring says so.
REFUSALS: dict[str, Callable[[], ProcessorError]] = {
    "STPIMS-ERR-044": WrongOtp,  # "Неверный код"
    "STPIMS-ERR-098": WrongOtp,  # sources disagree (module docstring); nothing debited either way
    "STPIMS-ERR-112": partial(PaymentDeclined, INSUFFICIENT_FUNDS),  # "Недостаточно средств на балансе карты"
    "STPIMS-ERR-067": partial(PaymentDeclined, CARD_DATA_WRONG),  # "Неверная карта": number or expiry
}


class _Refused(Exception):
    """ATMOS refused our bearer token (401)."""


class AtmosProcessor:
    name = NAME
    card_entries: frozenset[CardEntry] = frozenset({"number"})

    def __init__(self, base_url: str, *, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._lock = threading.Lock()
        self._token: tuple[str, datetime] | None = None

    def create(self, card: CardDetails | CardToken, amount_tiyin: int, reference: str) -> ProcessorPayment:
        if not isinstance(card, CardDetails):
            raise not_understood(NAME, "pay/create", "ATMOS takes a card number, not a token")
        created = self._call("pay/create", {"amount": amount_tiyin, "account": reference})
        transaction_id = created.get("transaction_id")
        if not isinstance(transaction_id, int):
            raise not_understood(NAME, "pay/create", "no transaction_id")
        expiry = f"{card.expiry_year % 100:02d}{card.expiry_month:02d}"
        self._call("pay/pre-apply", {"transaction_id": transaction_id, "card_number": card.number, "expiry": expiry})
        return ProcessorPayment(processor_id=str(transaction_id), token="")

    def resend_otp(self, payment: ProcessorPayment) -> SentCode:
        self._call("pay/otp-resend", {"transaction_id": _transaction_id(payment)})
        return SentCode()  # ATMOS checks the code itself, and does not say how long it lives

    def confirm(self, payment: ProcessorPayment, otp: str) -> str | None:
        before = self.status(payment)
        if before.state is PaymentState.CHARGED:
            return before.charge_id  # a previous apply charged it and its answer was lost
        applied = self._call("pay/apply", {"transaction_id": _transaction_id(payment), "otp": otp})
        after = _status(applied, "pay/apply")
        if after.state is not PaymentState.CHARGED:
            raise not_understood(NAME, "pay/apply", "OK without a confirmed payment")
        return after.charge_id

    def cancel(self, payment: ProcessorPayment) -> None:
        """Reverse the charge by its `success_trans_id`; done when ATMOS says nothing is (any longer) debited."""
        charge_id = payment.charge_id
        if charge_id is None:
            now = self.status(payment)
            if now.state is not PaymentState.CHARGED:
                return  # never charged, or reversed already: nothing to give back
            charge_id = now.charge_id
        if charge_id is None or not charge_id.isdigit():
            raise not_understood(NAME, "pay/reverse", "a charge without its success_trans_id")
        try:
            charge = int(charge_id)
            self._call(
                "pay/reverse",
                {"transaction_id": charge, "success_trans_id": charge, "reason": "order cancelled"},
            )
        except ProcessorError:
            # Refused, or unknown: done only if ATMOS says nothing is (any longer) debited.
            if self.status(payment).state not in (PaymentState.CANCELLED, PaymentState.NOT_CHARGED):
                raise

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        answer = self._call("pay/get", {"transaction_id": _transaction_id(payment)}, also_ok=(CLOSED,))
        return _status(answer, "pay/get")

    # --- the wire ----------------------------------------------------------------------------------

    def _call(self, call: str, fields: dict[str, Any], *, also_ok: tuple[str, ...] = ()) -> dict[str, Any]:
        """POST `fields` and our store_id to /merchant/<call>; the answer if its result is OK."""
        body = json.dumps({**fields, "store_id": self._store_id()}).encode()
        try:
            reply = self._send(call, body, self._bearer())
        except _Refused:
            self._forget_token()
            try:
                reply = self._send(call, body, self._bearer())
            except _Refused:
                raise not_understood(NAME, call, "bearer token refused twice") from None
        if reply.status not in SUCCESS_STATUSES or not isinstance(reply.body, dict):
            raise not_understood(NAME, call, "unexpected answer", status=reply.status)
        result = reply.body.get("result")
        code = result.get("code") if isinstance(result, dict) else None
        if code == OK or code in also_ok:
            return reply.body
        refusal = REFUSALS.get(code) if isinstance(code, str) else None
        logger.warning("card processor refused", extra={"processor": NAME, "call": call, "code": code})
        if refusal is None:
            raise ProcessorUnavailable(f"{NAME} answered {code}")
        raise refusal()

    def _send(self, call: str, body: bytes, token: str) -> Reply:
        headers = {"Content-Type": "application/json", "Accept": "application/json", "Authorization": f"Bearer {token}"}
        url = f"{self.base_url}/merchant/{call}"
        reply = post(url, body, headers, timeout=self.timeout, processor=NAME, call=call)
        if reply.status == 401:
            raise _Refused
        return reply

    def _bearer(self) -> str:
        with self._lock:
            now = clock.now()
            if self._token is None or self._token[1] <= now:
                self._token = self._fetch_token(now)
            return self._token[0]

    def _fetch_token(self, now: datetime) -> tuple[str, datetime]:
        credentials = card_processor_credentials("ATMOS_CONSUMER_KEY", "ATMOS_CONSUMER_SECRET")
        basic = base64.b64encode(
            f"{credentials['ATMOS_CONSUMER_KEY']}:{credentials['ATMOS_CONSUMER_SECRET']}".encode()
        ).decode()
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Authorization": f"Basic {basic}"}
        form = urllib.parse.urlencode({"grant_type": "client_credentials"}).encode()
        reply = post(f"{self.base_url}/token", form, headers, timeout=self.timeout, processor=NAME, call="token")
        answer = reply.body if reply.status in SUCCESS_STATUSES and isinstance(reply.body, dict) else {}
        token, lifetime = answer.get("access_token"), answer.get("expires_in")
        if not isinstance(token, str) or not token or not isinstance(lifetime, int):
            # 401 here: ATMOS refused our consumer key and secret (docs/OPERATIONS.md, "Card processors")
            raise not_understood(NAME, "token", "no access token", status=reply.status)
        return token, now + timedelta(seconds=max(0, lifetime - TOKEN_REFRESH_MARGIN_SECONDS))

    def _forget_token(self) -> None:
        with self._lock:
            self._token = None

    @staticmethod
    def _store_id() -> int:
        store_id = card_processor_credentials("ATMOS_STORE_ID")["ATMOS_STORE_ID"]
        if not store_id.isdigit():
            raise not_understood(NAME, "settings", "ATMOS_STORE_ID is not a number")
        return int(store_id)


def _transaction_id(payment: ProcessorPayment) -> int:
    if not payment.processor_id.isdigit():
        raise not_understood(NAME, "payment", "not an ATMOS transaction id")
    return int(payment.processor_id)


def _status(answer: dict[str, Any], call: str) -> PaymentStatus:
    """What `store_transaction` says of the payment, with the charge's `success_trans_id`; an outage when
    it says nothing we know."""
    transaction = answer.get("store_transaction")
    if not isinstance(transaction, dict):
        raise not_understood(NAME, call, "no store_transaction")
    confirmed = transaction.get("confirmed")
    if confirmed is False:
        return PaymentStatus(PaymentState.NOT_CHARGED)
    raw_status = transaction.get("status_code")
    status_code = None if raw_status is None else str(raw_status)
    if confirmed is True and status_code == REVERSED_STATUS:
        return PaymentStatus(PaymentState.CANCELLED)
    if confirmed is True and status_code in CONFIRMED_STATUSES:
        charge = transaction.get("success_trans_id")
        charge_id = str(charge) if isinstance(charge, int | str) and str(charge).isdigit() else None
        return PaymentStatus(PaymentState.CHARGED, charge_id=charge_id)
    raise not_understood(NAME, call, "unknown transaction state", status_code=status_code)
