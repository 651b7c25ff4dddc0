"""A fake Payme Subscribe API, written from Payme's public documentation
(https://developer.help.paycom.uz: "Протокол Subscribe API", "Методы Subscribe API" — cards.create,
cards.get_verify_code, cards.verify, cards.check, receipts.create, receipts.pay, receipts.check,
receipts.cancel — "Тестирование в песочнице" and the Subscribe API error codes) and public
integrations, not from our adapter.

- JSON-RPC 2.0: every call a POST of {id, method, params} to one endpoint; the answer, HTTP 200,
  carries `result` or `error {code, message {ru, uz, en}}` and echoes the request id.
- `X-Auth`: the cashbox id for the card methods (`id` or `id:key`), `id:key` for the receipt methods;
  anything else is error -32504 (not enough privileges). Sources disagree on cards.check: Payme's method
  list names it, with cards.remove, a server method (the protocol page: back-end calls send
  `{id}:{password}`), while cards.check's own page shows an example request with the id alone and
  integrations call every card method with the id alone; the fake takes both and records each call's
  `X-Auth` (`auth`).
  The card methods with the id alone are the front-end's: Payme's rules forbid a merchant's server from
  receiving card numbers, so the partner's app calls cards.create itself (`tokenize`, as the app would)
  and hands our API the token.
- Cards: cards.create {card {number, expire (MMYY)}, save} -> {card {number (masked), expire, token,
  recurrent, verify: false, type}} (bultakov/aiopay's README shows this answer); cards.check {token} ->
  {card {...}}; cards.get_verify_code {token} -> {sent, phone, wait} where `wait` is how long the code
  is valid, in milliseconds (the method's page: "Период времени, в течении которого OTP валиден",
  example 60000; `code_wait_ms` here); cards.verify {token, code} -> {card {..., verify: true}}.
  Errors: -31300 wrong card data, -31301 card blocked, expired or without SMS, -31103 wrong code,
  -31101 code expired, -31102 too many attempts, -31400 no such card. A code verifies once: sending
  cards.verify again for a verified card is refused as an expired code (-31101; the fake's reading,
  no source shows the answer — what matters is that a second verify does not succeed).
- Receipts: receipts.create {amount (tiyin), account} -> {receipt {_id, state: 0, amount, account}};
  an amount below or above what the cashbox takes is -31611 / -31612 (Payme's error list, as the
  issue's review of it reports); receipts.pay {id, token} -> {receipt {state: 4}} (-31303 not enough
  money; a card not verified, -31400; -31630 for a card a test sets `debit_error` on: a debit error whose
  cause the sources name differently, a refusal either way); receipts.check {id} -> {state};
  receipts.cancel {id}: a paid receipt is queued for cancellation (21), then cancelled (50) and the
  money given back; an unpaid one is cancelled at once. (The fake's previous -31611 for "receipt not
  payable" was not from Payme's list; a receipt paid already is refused here with -31614, a code our
  adapter does not know.)

Test cards of Payme's sandbox (code 666666 for all, expiry 03/99; also Muhammadali-Akbarov/payme_pkg's
README) are issued by default.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.fake_http import Answer, FakeServer

TEST_CODE = "666666"
CASHBOX_ID, KEY = "5e730e8e0b852a417aa49ceb", "fake-payme-cashbox-key"
PAID_CARDS = ("8600069195406311", "8600495473316478")
NO_SMS_CARD, EXPIRED_CARD, BLOCKED_CARD = "8600060921090842", "3333336415804657", "4444445987459073"
CREATED, PAID, CANCEL_QUEUED, CANCELLED = 0, 4, 21, 50
MAX_ATTEMPTS = 3
MIN_AMOUNT, MAX_AMOUNT = 100_000, 1_000_000_000  # tiyin a receipt may hold (1,000 to 10,000,000 sums)
METHODS = (
    "cards.create",
    "cards.check",
    "cards.get_verify_code",
    "cards.verify",
    "receipts.create",
    "receipts.pay",
    "receipts.check",
    "receipts.cancel",
)


def _error(code: int, text: str) -> dict[str, Any]:
    return {"code": code, "message": {"ru": text, "uz": text, "en": text}}


@dataclass
class Card:
    expire: str  # MMYY
    balance: int  # tiyin
    trouble: int | None = None  # the error every use of the card gives (-31301 blocked, expired...)
    debit_error: int | None = None  # the error receipts.pay gives for the card (-31630)
    sms: bool = True


class FakePayme(FakeServer):
    def __init__(self) -> None:
        super().__init__(*METHODS)
        self.cards: dict[str, Card] = {}
        self.tokens: dict[str, dict[str, Any]] = {}
        self.receipts: dict[str, dict[str, Any]] = {}
        self.sequence: list[str] = []  # the methods called, in order
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str] = []  # the X-Auth header of each call
        self.canned: dict[str, list[Answer]] = {}
        self.lost: dict[str, int] = {}
        self.code_wait_ms = 60_000
        self.min_amount, self.max_amount = MIN_AMOUNT, MAX_AMOUNT
        self._receipt_numbers = itertools.count(1)
        for number in (*PAID_CARDS, NO_SMS_CARD, EXPIRED_CARD, BLOCKED_CARD):
            self.issue_card(number, 3, 2099)
        self.cards[NO_SMS_CARD].sms = False
        self.cards[EXPIRED_CARD].trouble = self.cards[BLOCKED_CARD].trouble = -31301

    # --- what tests arrange and read -------------------------------------------------------------

    def issue_card(self, number: str, month: int, year: int, balance: int = 10**12) -> None:
        self.cards[number] = Card(expire=f"{month:02d}{year % 100:02d}", balance=balance)

    def tokenize(self, number: str, expire: str = "0399") -> str:
        """The partner app's cards.create with the cashbox id (Payme's front-end method): the card's token."""
        with self.lock:
            outcome = self._cards_create({"card": {"number": number, "expire": expire}, "save": False})
        if "error" in outcome:
            raise ValueError(f"Payme refused the card: {outcome['error']['code']}")
        token: str = outcome["result"]["card"]["token"]
        return token

    def answer_instead(self, method: str, *answers: Answer) -> None:
        self.canned.setdefault(method, []).extend(answers)

    def lose_answer(self, method: str) -> None:
        self.lost[method] = self.lost.get(method, 0) + 1

    def expire_codes(self) -> None:
        for token in self.tokens.values():
            token["code_expired"] = True

    def debited(self, number: str) -> int:
        """Tiyin taken from the card and not given back (a receipt queued for cancellation still holds it)."""
        debiting = (PAID, CANCEL_QUEUED)
        return sum(r["amount"] for r in self.receipts.values() if r.get("card") == number and r["state"] in debiting)

    def payment(self, processor_id: str) -> dict[str, Any]:
        return self.receipts[processor_id]

    # --- the server ------------------------------------------------------------------------------

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if method != "POST" or path != "/api":
            return None
        request = json.loads(body)
        called = str(request.get("method"))
        if called not in METHODS:
            return None
        return called, lambda: self._answer(called, request, headers.get("x-auth", ""))

    def _answer(self, method: str, request: dict[str, Any], auth: str) -> Answer:
        with self.lock:
            self.sequence.append(method)
            self.requests.append(request)
            self.auth.append(auth)
            if self.canned.get(method):
                return self.canned[method].pop(0)
            if self._allowed(method, auth):
                outcome = self._method(method, request.get("params") or {})
            else:
                outcome = {"error": _error(-32504, "Недостаточно привилегий для выполнения метода")}
            if self.lost.get(method):
                self.lost[method] -= 1
                return 502, {"error": "bad_gateway"}
            return 200, {"jsonrpc": "2.0", "id": request.get("id"), **outcome}

    @staticmethod
    def _allowed(method: str, auth: str) -> bool:
        if method.startswith("cards."):
            return auth in (CASHBOX_ID, f"{CASHBOX_ID}:{KEY}")
        return auth == f"{CASHBOX_ID}:{KEY}"

    def _method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        handlers = {
            "cards.create": self._cards_create,
            "cards.check": self._cards_check,
            "cards.get_verify_code": self._get_verify_code,
            "cards.verify": self._verify,
            "receipts.create": self._receipts_create,
            "receipts.pay": self._pay,
            "receipts.check": self._check,
            "receipts.cancel": self._cancel,
        }
        return handlers[method](params)

    def _cards_create(self, params: dict[str, Any]) -> dict[str, Any]:
        given = params.get("card") or {}
        number = str(given.get("number", ""))
        card = self.cards.get(number)
        if card is None or card.expire != given.get("expire"):
            return {"error": _error(-31300, "Неверные данные карты")}
        if card.trouble:
            return {"error": _error(card.trouble, "Карта заблокирована или срок её действия истёк")}
        token = secrets.token_urlsafe(24)
        self.tokens[token] = {"number": number, "verified": False, "code_sent": False, "attempts": 0}
        return {"result": {"card": self._card(token)}}

    def _cards_check(self, params: dict[str, Any]) -> dict[str, Any]:
        if params.get("token", "") not in self.tokens:
            return {"error": _error(-31400, "Карта не найдена")}
        return {"result": {"card": self._card(params["token"])}}

    def _get_verify_code(self, params: dict[str, Any]) -> dict[str, Any]:
        token = self.tokens.get(params.get("token", ""))
        if token is None:
            return {"error": _error(-31400, "Карта не найдена")}
        if not self.cards[token["number"]].sms:
            return {"error": _error(-31301, "SMS-информирование не подключено")}
        token.update(code_sent=True, code_expired=False, attempts=0)
        return {"result": {"sent": True, "phone": "99890*****31", "wait": self.code_wait_ms}}

    def _verify(self, params: dict[str, Any]) -> dict[str, Any]:
        token = self.tokens.get(params.get("token", ""))
        if token is None or not token["code_sent"]:
            return {"error": _error(-31400, "Карта не найдена")}
        if token.get("code_expired") or token["verified"]:  # a code verifies once
            return {"error": _error(-31101, "Время ожидания ввода кода истекло")}
        if token["attempts"] >= MAX_ATTEMPTS:
            return {"error": _error(-31102, "Превышено количество попыток ввода кода")}
        if str(params.get("code")) != TEST_CODE:
            token["attempts"] += 1
            return {"error": _error(-31103, "Неверный код")}
        token["verified"] = True
        return {"result": {"card": self._card(params["token"])}}

    def _receipts_create(self, params: dict[str, Any]) -> dict[str, Any]:
        amount, account = params.get("amount"), params.get("account")
        if not isinstance(amount, int) or amount <= 0 or not isinstance(account, dict):
            return {"error": _error(-32602, "Неверные параметры")}
        if amount < self.min_amount:
            return {"error": _error(-31611, "Сумма меньше минимально допустимой")}
        if amount > self.max_amount:
            return {"error": _error(-31612, "Сумма больше максимально допустимой")}
        receipt_id = f"{next(self._receipt_numbers):024x}"
        self.receipts[receipt_id] = {"_id": receipt_id, "state": CREATED, "amount": amount, "account": account}
        return {"result": {"receipt": self._receipt(receipt_id)}}

    def _pay(self, params: dict[str, Any]) -> dict[str, Any]:
        receipt = self.receipts.get(params.get("id", ""))
        token = self.tokens.get(params.get("token", ""))
        if receipt is None:
            return {"error": _error(-31602, "Чек не найден")}
        if token is None or not token["verified"]:
            return {"error": _error(-31400, "Карта не найдена или не верифицирована")}
        if receipt["state"] != CREATED:
            return {"error": _error(-31614, "Чек не может быть оплачен")}
        card = self.cards[token["number"]]
        if card.debit_error is not None:
            return {"error": _error(card.debit_error, "Ошибка при списании средств")}
        if card.balance < receipt["amount"]:
            return {"error": _error(-31303, "Недостаточно средств на карте")}
        card.balance -= receipt["amount"]
        receipt.update(state=PAID, card=token["number"])
        return {"result": {"receipt": self._receipt(receipt["_id"])}}

    def _check(self, params: dict[str, Any]) -> dict[str, Any]:
        receipt = self.receipts.get(params.get("id", ""))
        if receipt is None:
            return {"error": _error(-31602, "Чек не найден")}
        if receipt["state"] == CANCEL_QUEUED:  # Payme works through its cancellation queue
            self.cards[receipt["card"]].balance += receipt["amount"]
            receipt["state"] = CANCELLED
        return {"result": {"state": receipt["state"]}}

    def _cancel(self, params: dict[str, Any]) -> dict[str, Any]:
        receipt = self.receipts.get(params.get("id", ""))
        if receipt is None:
            return {"error": _error(-31602, "Чек не найден")}
        receipt["state"] = {CREATED: CANCELLED, PAID: CANCEL_QUEUED}.get(receipt["state"], receipt["state"])
        return {"result": {"receipt": self._receipt(receipt["_id"])}}

    def _card(self, token: str) -> dict[str, Any]:
        held = self.tokens[token]
        number = held["number"]
        expire = self.cards[number].expire
        return {
            "number": f"{number[:6]}******{number[-4:]}",
            "expire": f"{expire[:2]}/{expire[2:]}",
            "token": token,
            "recurrent": False,
            "verify": held["verified"],
            "type": "22618",
        }

    def _receipt(self, receipt_id: str) -> dict[str, Any]:
        receipt = self.receipts[receipt_id]
        account = [{"name": name, "value": value} for name, value in receipt["account"].items()]
        return {"_id": receipt_id, "state": receipt["state"], "amount": receipt["amount"], "account": account}
