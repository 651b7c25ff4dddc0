"""The HTTP card-processor adapter against a fake processor on 127.0.0.1 (no network): the flow, the
bearer token, the error mapping, outages; and the whole API paying through it, including an outage
at apply and a refund when the order can no longer take the payment."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.errors import Unavailable
from core.secrets import payment_processor_credentials
from core.settings import Settings, reset_settings
from domain.orders import lifecycle
from domain.orders.records import OrderRecord
from domain.payments import processor_factory as port
from domain.payments.http_processor import HttpCardProcessor
from domain.payments.processor import (
    CardDetails,
    OtpExpired,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorPayment,
    ProcessorUnavailable,
    WrongOtp,
    to_tiyin,
)
from domain.payments.sandbox import INSUFFICIENT_FUNDS_CARD, PAYS_UZCARD
from local.context import LocalLambdaContext
from tests.data import insert_order, purchasable_car
from tests.factories import ApiClient
from transactions.reconciliation import lambda_handler as reconcile_handler

LOGIN, PASSWORD = "merchant", "processor-password"
OTP = "482913"  # what the fake processor "sends by SMS"
CARD = CardDetails(PAYS_UZCARD, 2039, 12)

Reply = tuple[int, Any]


@dataclass
class FakeProcessor:
    """The processor's side: tokens, payments, and scripted answers for the next calls of a path."""

    token_lifetime: int = 3600
    tokens: list[str] = field(default_factory=list)
    revoked: set[str] = field(default_factory=set)
    calls: list[tuple[str, dict[str, Any], str | None]] = field(default_factory=list)
    payments: dict[str, dict[str, Any]] = field(default_factory=dict)
    script: dict[str, list[Reply]] = field(default_factory=dict)
    on_apply: Callable[[], object] | None = None
    lost_apply_answers: int = 0  # charge the card, then answer 502 as if the answer was lost

    def paths(self) -> list[str]:
        return [path for path, _, _ in self.calls]

    def handle(self, path: str, body: dict[str, Any], authorization: str | None) -> Reply:
        self.calls.append((path, body, authorization))
        action = path.rsplit("/", 1)[-1]
        if self.script.get(action):
            return self.script[action].pop(0)
        if path == "/auth/token":
            if (body.get("login"), body.get("password")) != (LOGIN, PASSWORD):
                return 401, {"error": {"code": "BAD_CREDENTIALS"}}
            self.tokens.append(f"token-{len(self.tokens) + 1}")
            return 200, {"accessToken": self.tokens[-1], "expiresIn": self.token_lifetime}
        token = (authorization or "").removeprefix("Bearer ")
        if token not in self.tokens or token in self.revoked:
            return 401, {"error": {"code": "TOKEN_EXPIRED"}}
        if path == "/payments":
            payment_id = f"p-{len(self.payments) + 1}"
            self.payments[payment_id] = {**body, "state": "CREATED", "sms": 0}
            return 200, {"id": payment_id, "cardToken": f"ct-{payment_id}"}
        payment = self.payments[path.split("/")[2]]
        if action == "pre-apply":
            payment["sms"] += 1
        elif action == "apply" and payment["state"] != "CONFIRMED":
            if body.get("otp") != OTP:
                return 400, {"error": {"code": "OTP_INVALID", "message": "wrong code"}}
            if payment["card"]["number"] == INSUFFICIENT_FUNDS_CARD:
                payment["state"] = "DECLINED"
                return 400, {"error": {"code": "INSUFFICIENT_FUNDS"}}
            payment["state"] = "CONFIRMED"
            if self.on_apply:
                self.on_apply()
            if self.lost_apply_answers:
                self.lost_apply_answers -= 1
                return 502, b""
        elif action == "cancel":
            payment["state"] = "CANCELLED"
        return self.status_of(payment)

    @staticmethod
    def status_of(payment: dict[str, Any]) -> Reply:
        """A payment's state (the answer of GET /payments/{id} too), with why it was declined."""
        if payment["state"] == "DECLINED":
            return 200, {"state": "DECLINED", "error": {"code": "INSUFFICIENT_FUNDS"}}
        return 200, {"state": payment["state"]}


@pytest.fixture
def fake() -> Iterator[tuple[FakeProcessor, str]]:
    processor = FakeProcessor()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            self.answer(*processor.handle(self.path, body, self.headers.get("Authorization")))

        def do_GET(self) -> None:
            self.answer(*processor.handle(self.path, {}, self.headers.get("Authorization")))

        def answer(self, status: int, payload: Any) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the test reads `processor.calls`."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield processor, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAYMENT_PROCESSOR_LOGIN", LOGIN)
    monkeypatch.setenv("PAYMENT_PROCESSOR_PASSWORD", PASSWORD)
    reset_settings()


@pytest.fixture
def adapter(fake: tuple[FakeProcessor, str], credentials: None) -> HttpCardProcessor:
    return HttpCardProcessor(fake[1], timeout=2)


# --- the adapter ---------------------------------------------------------------------------------


def test_create_pre_apply_and_apply_with_a_bearer_token_and_amounts_in_tiyin(
    adapter: HttpCardProcessor, fake: tuple[FakeProcessor, str]
) -> None:
    server, _ = fake
    payment = adapter.create(CARD, to_tiyin(150_000), "42")
    assert payment == ProcessorPayment(processor_id="p-1", token="ct-p-1")
    assert adapter.send_otp(payment) is None  # the processor checks the code itself
    adapter.confirm(payment, OTP)
    assert server.paths() == ["/auth/token", "/payments", "/payments/p-1/pre-apply", "/payments/p-1/apply"]
    assert server.payments["p-1"] == {
        "amount": 15_000_000,
        "reference": "42",
        "card": {"number": PAYS_UZCARD, "expiry": "3912"},
        "state": "CONFIRMED",
        "sms": 1,
    }
    assert {authorization for _, _, authorization in server.calls[1:]} == {"Bearer token-1"}


def test_the_token_is_cached_and_fetched_again_shortly_before_it_expires(
    adapter: HttpCardProcessor, fake: tuple[FakeProcessor, str], frozen_clock: FrozenClock
) -> None:
    server, _ = fake
    server.token_lifetime = 120
    payment = adapter.create(CARD, 100, "1")
    frozen_clock.advance(89)
    adapter.send_otp(payment)
    assert server.tokens == ["token-1"]
    frozen_clock.advance(1)  # 30 s before expiry
    adapter.send_otp(payment)
    assert server.tokens == ["token-1", "token-2"]
    assert server.calls[-1][2] == "Bearer token-2"


def test_a_refused_token_is_replaced_once(adapter: HttpCardProcessor, fake: tuple[FakeProcessor, str]) -> None:
    server, _ = fake
    payment = adapter.create(CARD, 100, "1")
    server.revoked.add("token-1")
    adapter.send_otp(payment)
    assert server.paths()[-3:] == ["/payments/p-1/pre-apply", "/auth/token", "/payments/p-1/pre-apply"]
    # A processor that refuses every token is an outage, not a loop
    server.script["pre-apply"] = [(401, {}), (401, {})]
    with pytest.raises(ProcessorUnavailable):
        adapter.send_otp(payment)


@pytest.mark.parametrize(
    ("reply", "error", "reason"),
    [
        ((400, {"error": {"code": "OTP_INVALID"}}), WrongOtp, None),
        ((400, {"error": {"code": "OTP_EXPIRED"}}), OtpExpired, None),
        ((400, {"error": {"code": "INSUFFICIENT_FUNDS"}}), PaymentDeclined, "INSUFFICIENT_FUNDS"),
        ((400, {"error": {"code": "CARD_BLOCKED"}}), PaymentDeclined, "CARD_BLOCKED"),
        ((400, {"error": {"code": "CARD_EXPIRED"}}), PaymentDeclined, "CARD_DECLINED"),
        ((400, {"error": {"code": "SOMETHING_NEW"}}), ProcessorUnavailable, None),
        ((400, b"<html>bad request</html>"), ProcessorUnavailable, None),
        ((500, {"error": {"code": "INSUFFICIENT_FUNDS"}}), ProcessorUnavailable, None),
        ((503, b""), ProcessorUnavailable, None),
        ((200, b"not json"), ProcessorUnavailable, None),
        ((200, {"state": "PROCESSING"}), ProcessorUnavailable, None),
    ],
)
def test_processor_answers_map_to_clear_errors(
    adapter: HttpCardProcessor,
    fake: tuple[FakeProcessor, str],
    reply: Reply,
    error: type[Exception],
    reason: str | None,
) -> None:
    server, _ = fake
    payment = adapter.create(CARD, 100, "1")
    server.script["apply"] = [reply]
    with pytest.raises(error) as raised:
        adapter.confirm(payment, OTP)
    assert getattr(raised.value, "reason", None) == reason


def test_wrong_credentials_are_an_outage(fake: tuple[FakeProcessor, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAYMENT_PROCESSOR_LOGIN", LOGIN)
    monkeypatch.setenv("PAYMENT_PROCESSOR_PASSWORD", "wrong")
    reset_settings()
    with pytest.raises(ProcessorUnavailable):
        HttpCardProcessor(fake[1], timeout=2).create(CARD, 100, "1")


def test_a_processor_that_does_not_answer_times_out(credentials: None) -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts connections, never answers
        adapter = HttpCardProcessor(f"http://127.0.0.1:{silent.getsockname()[1]}", timeout=0.2)
        with pytest.raises(ProcessorUnavailable):
            adapter.create(CARD, 100, "1")


def test_an_unreachable_processor_is_an_outage(credentials: None) -> None:
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port_number = closed.getsockname()[1]
    with pytest.raises(ProcessorUnavailable):
        HttpCardProcessor(f"http://127.0.0.1:{port_number}", timeout=1).create(CARD, 100, "1")


def test_credentials_come_from_a_secrets_manager_json_secret(
    secretsmanager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = secretsmanager.create_secret(Name="card-processor", SecretString=json.dumps({"login": "m", "password": "p"}))
    bad = secretsmanager.create_secret(Name="card-processor-bad", SecretString="not json")
    monkeypatch.setenv("PAYMENT_PROCESSOR_SECRET_ID", good["ARN"])
    reset_settings()
    assert payment_processor_credentials() == ("m", "p")
    monkeypatch.setenv("PAYMENT_PROCESSOR_SECRET_ID", bad["ARN"])
    reset_settings()
    with pytest.raises(Unavailable):
        payment_processor_credentials()
    monkeypatch.delenv("PAYMENT_PROCESSOR_SECRET_ID")
    reset_settings()
    with pytest.raises(Unavailable):
        payment_processor_credentials()


def test_the_sandbox_is_refused_in_prod_and_the_real_processor_is_the_default_there() -> None:
    assert Settings(stage="local").effective_payment_processor == "sandbox"
    assert Settings(stage="dev").effective_payment_processor == "sandbox"
    assert Settings(stage="staging").effective_payment_processor == "http"
    try:
        with pytest.raises(Unavailable):
            port._build(Settings(stage="prod", payment_processor="sandbox"))
        with pytest.raises(Unavailable):
            port._build(Settings(stage="prod"))  # http, but no PAYMENT_PROCESSOR_URL
        built = port._build(Settings(stage="prod", payment_processor_url="https://processor.example"))
        assert isinstance(built, HttpCardProcessor)
    finally:
        port.reset_processor()


# --- the API paying through the HTTP adapter ------------------------------------------------------

Db = Database[dict[str, Any]]


@pytest.fixture
def through_http(
    fake: tuple[FakeProcessor, str], credentials: None, monkeypatch: pytest.MonkeyPatch, db: Db
) -> FakeProcessor:
    monkeypatch.setenv("PAYMENT_PROCESSOR", "http")
    monkeypatch.setenv("PAYMENT_PROCESSOR_URL", fake[1])
    reset_settings()
    return fake[0]


def start_payment(api: ApiClient, db: Db, amount: int, amount_due: int) -> tuple[OrderRecord, dict[str, Any]]:
    """A signed-in caller's order and a created transaction; returns (order, apply body)."""
    api.login()
    user_id = ObjectId(api.get("/api/v1/auth/me").json()["data"]["_id"])
    order = insert_order(db, user_id, purchasable_car(db), amount_due=amount_due)
    ids = {"brandId": str(order["brandId"]), "orderId": str(order["_id"])}
    created = api.post(
        "/api/v1/transactions/create",
        json={"amount": amount, "cardNumber": PAYS_UZCARD, "expiry": "12/39", "cardType": "UZCARD", **ids},
    )
    assert created.status_code == 200, created.text
    return order, {"transactionId": created.json()["data"]["transactionId"], "otp": OTP, "amount": amount, **ids}


def test_the_api_pays_through_the_http_processor(api: ApiClient, db: Db, through_http: FakeProcessor) -> None:
    order, body = start_payment(api, db, 1_000, amount_due=1_000)
    assert through_http.payments["p-1"]["amount"] == 100_000
    assert through_http.payments["p-1"]["sms"] == 1
    wrong = api.post("/api/v1/transactions/apply", json={**body, "otp": "666666"})
    assert (wrong.status_code, wrong.json()["details"]) == (400, {"attemptsLeft": 2})
    applied = api.post("/api/v1/transactions/apply", json=body)
    assert applied.status_code == 200, applied.text
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["statusSlug"] == "PAID"
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["otpHash"] is None


def test_an_outage_at_apply_keeps_the_claim_and_a_later_retry_pays_once(
    api: ApiClient, db: Db, through_http: FakeProcessor, frozen_clock: FrozenClock
) -> None:
    # Given the processor charged the card but its answer was lost (a 502 after confirming)
    order, body = start_payment(api, db, 1_000, amount_due=2_000)
    through_http.lost_apply_answers = 1
    first = api.post("/api/v1/transactions/apply", json=body)
    # Then the caller is told to retry later, the claim is kept and the amount stays reserved
    assert first.status_code == 503
    assert first.headers["Retry-After"] == "60"
    assert through_http.payments["p-1"]["state"] == "CONFIRMED"
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["status"] == "CONFIRMING"
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["paidAmount"] == 0
    assert api.post("/api/v1/transactions/apply", json=body).status_code == 409
    # When the caller retries after the lease, the processor (idempotent) confirms and the order is paid once
    frozen_clock.advance(60)
    retried = api.post("/api/v1/transactions/apply", json=body)
    assert retried.status_code == 200, retried.text
    paid = db.orders.find_one({"_id": order["_id"]}) or {}
    assert (paid["paidAmount"], paid["paymentIds"]) == (1_000, [str(body["transactionId"])])


@pytest.mark.parametrize(("cancel_reply", "refund"), [(None, "DONE"), ((500, b""), "PENDING")])
def test_a_charge_the_order_can_no_longer_take_is_cancelled_at_the_processor(
    api: ApiClient, db: Db, through_http: FakeProcessor, cancel_reply: Reply | None, refund: str
) -> None:
    # Given another payment fills the order while the card is being charged
    order, body = start_payment(api, db, 1_000, amount_due=1_000)
    through_http.on_apply = lambda: lifecycle.record_payment(order["_id"], 1_000, payment_id="cash-1", cause="cash")
    if cancel_reply:
        through_http.script["cancel"] = [cancel_reply]
    # When the card payment is applied
    response = api.post("/api/v1/transactions/apply", json=body)
    # Then it is refused, the charge is cancelled at the processor (or flagged for a manual refund)
    assert response.status_code == 409, response.text
    assert "/payments/p-1/cancel" in through_http.paths()
    transaction = db.transactions.find_one({"_id": body["transactionId"]}) or {}
    assert (transaction["status"], transaction["refund"]) == ("FAILED", refund)
    assert (db.orders.find_one({"_id": order["_id"]}) or {})["paymentIds"] == ["cash-1"]


def test_a_transaction_registered_with_another_processor_is_refused(
    api: ApiClient, db: Db, fake: tuple[FakeProcessor, str], credentials: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a transaction the sandbox registered, and then the configuration switched to the real processor
    _, body = start_payment(api, db, 1_000, amount_due=1_000)
    monkeypatch.setenv("PAYMENT_PROCESSOR", "http")
    monkeypatch.setenv("PAYMENT_PROCESSOR_URL", fake[1])
    reset_settings()
    # Then applying it is a conflict that never reaches the processor
    response = api.post("/api/v1/transactions/apply", json={**body, "otp": "666666"})
    assert response.status_code == 409
    assert fake[0].calls == []
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["status"] == "PENDING"


# --- status and the payment reconciliation --------------------------------------------------------


def test_status_says_what_became_of_a_payment(adapter: HttpCardProcessor, fake: tuple[FakeProcessor, str]) -> None:
    # Given payments at each step at the processor
    server, _ = fake
    created = adapter.create(CARD, 100, "1")
    charged = adapter.create(CARD, 100, "2")
    adapter.confirm(charged, OTP)
    cancelled = adapter.create(CARD, 100, "3")
    adapter.confirm(cancelled, OTP)
    adapter.cancel(cancelled)
    declined = adapter.create(CardDetails(INSUFFICIENT_FUNDS_CARD, 2039, 12), 100, "4")
    with pytest.raises(PaymentDeclined):
        adapter.confirm(declined, OTP)
    # When the adapter asks for each one's status
    answers = [adapter.status(payment) for payment in (created, charged, cancelled, declined)]
    # Then each is read right, with the reason of the decline, through GET /payments/{id}
    assert answers == [
        PaymentStatus(PaymentState.NOT_CHARGED),
        PaymentStatus(PaymentState.CHARGED),
        PaymentStatus(PaymentState.CANCELLED),
        PaymentStatus(PaymentState.DECLINED, "INSUFFICIENT_FUNDS"),
    ]
    assert server.paths()[-1] == "/payments/p-4"
    # And a state it does not know is an outage, not a guess
    server.script["p-1"] = [(200, {"state": "PROCESSING"})]
    with pytest.raises(ProcessorUnavailable):
        adapter.status(created)


def run_reconciliation() -> dict[str, Any]:
    """What EventBridge Scheduler runs every 5 minutes."""
    result: dict[str, Any] = reconcile_handler({}, LocalLambdaContext(function_name="PaymentReconciliation"))
    return result


def test_reconciliation_finishes_a_charge_whose_answer_was_lost(
    api: ApiClient, db: Db, through_http: FakeProcessor, frozen_clock: FrozenClock
) -> None:
    # Given the processor charged the card but its answer was lost, and the client never retried
    order, body = start_payment(api, db, 1_000, amount_due=2_000)
    through_http.lost_apply_answers = 1
    assert api.post("/api/v1/transactions/apply", json=body).status_code == 503
    # When the reconciliation runs a few minutes later, twice
    frozen_clock.advance(6 * 60)
    first, second = run_reconciliation(), run_reconciliation()
    # Then it asked the processor, recorded the payment on the order once and confirmed the transaction
    assert "/payments/p-1" in through_http.paths()
    assert (first["outcomes"], second["outcomes"]) == ({"Confirmed": 1}, {})
    paid = db.orders.find_one({"_id": order["_id"]}) or {}
    assert (paid["statusSlug"], paid["paidAmount"], paid["paymentIds"]) == (
        "PARTIALLY_PAID",
        1_000,
        [str(body["transactionId"])],
    )
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["status"] == "CONFIRMED"


def test_reconciliation_retries_a_refund_the_processor_could_not_do(
    api: ApiClient, db: Db, through_http: FakeProcessor
) -> None:
    # Given a charge the order refused, whose cancel failed at the processor
    order, body = start_payment(api, db, 1_000, amount_due=1_000)
    through_http.on_apply = lambda: lifecycle.record_payment(order["_id"], 1_000, payment_id="cash-1", cause="cash")
    through_http.script["cancel"] = [(500, b"")]
    assert api.post("/api/v1/transactions/apply", json=body).status_code == 409
    # When the reconciliation runs
    result = run_reconciliation()
    # Then the charge is cancelled at the processor and the refund is done
    assert result["outcomes"] == {"Refunded": 1}
    assert through_http.payments["p-1"]["state"] == "CANCELLED"
    assert (db.transactions.find_one({"_id": body["transactionId"]}) or {})["refund"] == "DONE"
