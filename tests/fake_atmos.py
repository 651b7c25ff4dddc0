"""A fake ATMOS merchant API, written from ATMOS's published protocol and from public integrations
tested against ATMOS, not from our adapter. Sources (public integrations are named by their id in the
stored code index, readable with `read_file id=...`):

- ATMOS's documentation (https://docs.atmos.uz: "Авторизация в API", "Создание транзакции",
  "Пред-подтверждение транзакции", "Подтверждение транзакции", "Получение информации о транзакции",
  "Отмена транзакции") for the calls, their bodies and `result {code, description}` in an HTTP 200.
- apply answers `store_transaction {success_trans_id, trans_id, confirmed: true, ...}`: several
  integrations keep `success_trans_id` from apply (62476347428, 29328137509, 57514697600, 2766603105);
  one's HTTP fakes answer apply with `{success_trans_id, confirmed: true}` and no `status_code`
  (71214369934), another's answer pay/get with `{confirmed: true, amount}` alone (71156153060); a
  Python client's test shows `status_code "0"`, `status_message "Success"` once confirmed
  (37653766252). So this fake answers apply WITHOUT `status_code`; pay/get reports "0".
- a reverse moves `status_code` from "0" to "-20" and keeps `confirmed: true` (71117351110: "seen on
  the DEV store"); pay/get of a closed transaction answers STPIMS-ERR-092 with the transaction
  (68300773192, 6709369170, 7395818847).
- the reverse takes the charge's `success_trans_id`, not the create-time `transaction_id`
  (32331923501: `transaction_id: successTransId // Use success_trans_id from confirmed transaction`;
  57765838846 sends it as `success_trans_id`: the sources DISAGREE on the field's name, docs/
  OPERATIONS.md lists it as a check on ATMOS's test platform). This fake takes either reading: the charge
  named by `success_trans_id`, or by `transaction_id` when that is a charge's id, and records which
  fields were sent (`reverse_fields`); like the gateway, it answers a reverse by any other id
  "transaction not found" (STPIMS-ERR-061, 68351322587's "Topilmadi").
- result codes: STPIMS-ERR-044 wrong code (71156153060), STPIMS-ERR-112 not enough money
  (69860200952, "seen in production"), STPIMS-ERR-067 wrong card (69402675050), STPIMS-ERR-009 wrong
  parameters. STPIMS-ERR-098: one integration lets the buyer type the code again after it
  (6116479747), another files it as insufficient funds (55202694522): DISAGREE; `wrong_code_result`
  lets a test answer either.
- `POST /token`: Basic base64(key:secret), form grant_type=client_credentials -> {access_token, scope,
  token_type, expires_in}; an unknown or revoked token is a 401 fault. The test platform's code is
  111111 (62466954971: "Test kartalar uchun OTP — 111111"). Production is https://partner.atmos.uz
  (several integrations; hurshidbey/P57NewEdition ATMOS-INTEGRATION.md also names the test host
  https://test-partner.atmos.uz).
- a success may come as HTTP 201 (`success_status`): the issue's review found integrations accepting
  either; ATMOS's documentation shows 200.

The card "bank" is the fake's own: `issue_card` gives a card its expiry and balance.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from tests.fake_http import Answer, FakeServer

TEST_OTP = "111111"
STORE_ID = 1981
CONSUMER_KEY, CONSUMER_SECRET = "fake-atmos-consumer-key", "fake-atmos-consumer-secret"

OK = {"code": "OK", "description": "Нет ошибок"}
WRONG_CODE = {"code": "STPIMS-ERR-044", "description": "Неверный код"}
NO_MONEY = {"code": "STPIMS-ERR-112", "description": "Недостаточно средств на балансе карты для проведения платежа"}
WRONG_CARD = {"code": "STPIMS-ERR-067", "description": "Неверная карта"}
CLOSED = {"code": "STPIMS-ERR-092", "description": "Транзакция закрыта"}
NOT_FOUND = {"code": "STPIMS-ERR-061", "description": "Транзакция не найдена"}
FAULT = {"fault": {"code": 900901, "message": "Invalid Credentials", "description": "Access failure for API"}}
WRONG_PARAMS = {"code": "STPIMS-ERR-009", "description": "Неверные параметры"}
ERR_098 = {"code": "STPIMS-ERR-098", "description": "Неверный код подтверждения"}
CALLS = ("token", "pay/create", "pay/pre-apply", "pay/otp-resend", "pay/apply", "pay/get", "pay/reverse")


@dataclass
class Card:
    expiry: str  # YYMM
    balance: int  # tiyin


class FakeAtmos(FakeServer):
    def __init__(self) -> None:
        super().__init__(*CALLS)
        self.token_lifetime = 3600
        self.cards: dict[str, Card] = {}
        self.transactions: dict[int, dict[str, Any]] = {}
        self.issued_tokens: list[str] = []
        self.revoked: set[str] = set()
        self.sequence: list[str] = []  # the calls in order: "token", "pay/create", ...
        self.bodies: list[dict[str, Any]] = []  # the JSON bodies of the merchant calls
        self.canned: dict[str, list[Answer]] = {}  # answers given instead, per call
        self.lost: dict[str, int] = {}  # calls done, then answered 502
        self.success_status = 200  # what a success comes as: 200, or 201
        self.wrong_code_result = WRONG_CODE  # or ERR_098 (sources disagree on what it means)
        self.reverse_fields: list[list[str]] = []  # which of the readings each reverse named its charge by
        self._ids = itertools.count(7001)
        self._success_ids = itertools.count(880_001)

    # --- what tests arrange and read -------------------------------------------------------------

    def issue_card(self, number: str, month: int, year: int, balance: int = 10**12) -> None:
        self.cards[number] = Card(expiry=f"{year % 100:02d}{month:02d}", balance=balance)

    def kill_tokens(self) -> None:
        """Every token issued so far dies (expired early, or revoked by ATMOS)."""
        self.revoked.update(self.issued_tokens)

    def answer_instead(self, call: str, *answers: Answer) -> None:
        self.canned.setdefault(call, []).extend(answers)

    def lose_answer(self, call: str) -> None:
        self.lost[call] = self.lost.get(call, 0) + 1

    def debited(self, number: str) -> int:
        """Tiyin taken from the card and not given back."""
        return sum(
            t["amount"]
            for t in self.transactions.values()
            if t.get("card") == number and t["confirmed"] and t["status_code"] == "0"
        )

    def payment(self, processor_id: str) -> dict[str, Any]:
        return self.transactions[int(processor_id)]

    # --- the server ------------------------------------------------------------------------------

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        call = "token" if path == "/token" else path.removeprefix("/merchant/")
        if method != "POST" or call not in CALLS:
            return None
        return call, lambda: self._answer(call, query, headers, body)

    def _answer(self, call: str, query: str, headers: dict[str, str], body: bytes) -> Answer:
        with self.lock:
            self.sequence.append(call)
            if self.canned.get(call):
                return self.canned[call].pop(0)
            if call == "token":
                return self._token(headers, body, query)
            token = headers.get("authorization", "").removeprefix("Bearer ")
            if token not in self.issued_tokens or token in self.revoked:
                return 401, FAULT
            request = json.loads(body)
            self.bodies.append(request)
            answer = self._merchant(call, request)
            if self.lost.get(call):
                self.lost[call] -= 1
                return 502, {"error": "bad_gateway"}
            return self.success_status, answer

    def _token(self, headers: dict[str, str], body: bytes, query: str) -> Answer:
        expected = base64.b64encode(f"{CONSUMER_KEY}:{CONSUMER_SECRET}".encode()).decode()
        form = {**parse_qs(query), **parse_qs(body.decode())}
        if headers.get("authorization") != f"Basic {expected}" or form.get("grant_type") != ["client_credentials"]:
            return 401, {"error": "invalid_client", "error_description": "Client Authentication failed."}
        token = f"atmos-token-{len(self.issued_tokens) + 1}"
        self.issued_tokens.append(token)
        answer = {"access_token": token, "scope": "am_application_scope default", "token_type": "Bearer"}
        return 200, {**answer, "expires_in": self.token_lifetime}

    def _merchant(self, call: str, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("store_id") != STORE_ID:
            return {"result": {"code": "STPIMS-ERR-002", "description": "Неверный store_id"}}
        if call == "pay/create":
            return self._create(request)
        if call == "pay/reverse":
            self.reverse_fields.append(sorted(set(request) & {"transaction_id", "success_trans_id"}))
            named = request.get("success_trans_id", request.get("transaction_id"))
            return {"result": self._reverse(named)}
        transaction = self.transactions.get(request.get("transaction_id"))  # type: ignore[arg-type]
        if transaction is None:
            return {"result": NOT_FOUND}
        closed = transaction["confirmed"]
        if call == "pay/get":
            return {"result": CLOSED if closed else OK, "store_transaction": _shown(transaction)}
        if closed:
            return {"result": CLOSED}
        if call == "pay/pre-apply":
            return {"result": self._pre_apply(transaction, request), "transaction_id": transaction["trans_id"]}
        if call == "pay/otp-resend" and transaction.get("card"):
            transaction["codes_sent"] += 1
            return {"result": OK}
        if call == "pay/apply" and transaction.get("card"):
            return self._apply(transaction, request)
        return {"result": WRONG_PARAMS}

    def _create(self, request: dict[str, Any]) -> dict[str, Any]:
        amount = request.get("amount")
        if not isinstance(amount, int) or amount <= 0 or not isinstance(request.get("account"), str):
            return {"result": WRONG_PARAMS}
        transaction_id = next(self._ids)
        self.transactions[transaction_id] = {
            "trans_id": transaction_id,
            "account": request["account"],
            "amount": amount,
            "confirmed": False,
            "status_code": None,
            "codes_sent": 0,
        }
        shown = _shown(self.transactions[transaction_id])
        return {"result": OK, "transaction_id": transaction_id, "store_transaction": shown}

    def _pre_apply(self, transaction: dict[str, Any], request: dict[str, Any]) -> dict[str, str]:
        card = self.cards.get(request.get("card_number", ""))
        if card is None or card.expiry != request.get("expiry"):
            return WRONG_CARD
        transaction["card"] = request["card_number"]
        transaction["codes_sent"] += 1
        return OK

    def _apply(self, transaction: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
        if str(request.get("otp")) != TEST_OTP:
            return {"result": self.wrong_code_result}
        card = self.cards[transaction["card"]]
        if card.balance < transaction["amount"]:
            return {"result": NO_MONEY}
        card.balance -= transaction["amount"]
        transaction.update(confirmed=True, status_code="0", success_trans_id=next(self._success_ids))
        # apply's answer: the charge and its success_trans_id, without status_code
        shown = {
            key: value for key, value in _shown(transaction).items() if key not in ("status_code", "status_message")
        }
        return {"result": OK, "store_transaction": shown}

    def _reverse(self, success_trans_id: Any) -> dict[str, str]:
        """Reverse the charge whose `success_trans_id` is given; any other id is not found."""
        charged = [t for t in self.transactions.values() if t.get("success_trans_id") == success_trans_id]
        if not charged:
            return NOT_FOUND
        transaction = charged[0]
        if transaction["status_code"] != "0":
            return CLOSED
        self.cards[transaction["card"]].balance += transaction["amount"]
        transaction["status_code"] = "-20"
        transaction["reversals"] = transaction.get("reversals", 0) + 1
        return OK


def _shown(transaction: dict[str, Any]) -> dict[str, Any]:
    """`store_transaction` as ATMOS describes a transaction."""
    status_messages = {None: "Created", "0": "Success", "-20": "Canceled"}
    return {
        "trans_id": transaction["trans_id"],
        "success_trans_id": transaction.get("success_trans_id"),
        "account": transaction["account"],
        "amount": transaction["amount"],
        "total": transaction["amount"],
        "terminal_id": "fake-terminal",
        "confirmed": transaction["confirmed"],
        "status_code": transaction["status_code"],
        "status_message": status_messages[transaction["status_code"]],
    }
