"""Card payment by OTP through HTTP: check-card, create, resend-code, apply, history, every refusal,
racing applies and the logs of the whole flow. The sandbox processor answers (OTP 666666)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import pytest
import requests
from bson import ObjectId
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from core.errors import AppError
from core.settings import reset_settings
from domain.orders import lifecycle
from domain.orders.states import OrderStatus
from domain.payments import store
from domain.payments.processor import ProcessorUnavailable
from domain.payments.sandbox import BLOCKED_CARD, INSUFFICIENT_FUNDS_CARD, PAYS_HUMO, PAYS_UZCARD, SandboxProcessor
from edge.errors import status_of
from tests.data import CatalogCar, order_body, purchasable_car
from tests.factories import ApiClient
from transactions import service
from transactions.models import ApplyBody, CreateBody

CHECK = "/api/v1/transactions/check-card"
CREATE = "/api/v1/transactions/create"
APPLY = "/api/v1/transactions/apply"
RESEND = "/api/v1/transactions/resend-code"
HISTORY = "/api/v1/transactions/history"
ME = "/api/v1/auth/me"

CARD = "8600 4954 7331 6478"  # PAYS_UZCARD as a person types it
OTP = "666666"
EXPIRY = "12/39"
OTHER_PHONE = "+998935550000"

Db = Database[dict[str, Any]]
OrderFactory = Callable[..., dict[str, Any]]


@pytest.fixture(autouse=True)
def no_deposit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The card flow's tests pay small parts of an order; the deposit a first payment must reach has its
    own tests (tests/integration/orders/test_order_expiry.py)."""
    monkeypatch.setenv("ORDER_DEPOSIT_PERCENT", "0")
    reset_settings()
    yield
    monkeypatch.undo()
    reset_settings()


@pytest.fixture
def payable_order(api: ApiClient, db: Db) -> OrderFactory:
    """Orders of the signed-in caller (signing in first if needed), placed through POST /api/v1/orders
    for a car priced at `amount_due`. An earlier `paid` amount and a later `status` are reached the way
    production reaches them: through the order lifecycle."""
    cars: dict[int, CatalogCar] = {}

    def make(amount_due: int = 1_000_000, *, paid: int = 0, status: str = "NEW") -> dict[str, Any]:
        if api.token is None:
            api.login()
        if amount_due not in cars:
            cars[amount_due] = purchasable_car(db, brand=f"Brand {len(cars) + 1}", prices=(amount_due,))
        placed = api.post("/api/v1/orders", json=order_body(cars[amount_due]))
        assert placed.status_code == 201, placed.text
        order_id = ObjectId(placed.json()["data"]["_id"])
        target = OrderStatus(status)
        if paid or target in (OrderStatus.PAID, OrderStatus.READY, OrderStatus.IMPLEMENTED):
            lifecycle.record_payment(order_id, paid or amount_due, payment_id="before-the-test", cause="test setup")
        for later in (OrderStatus.READY, OrderStatus.IMPLEMENTED, OrderStatus.CANCELLED):
            if target is later or (target is OrderStatus.IMPLEMENTED and later is OrderStatus.READY):
                lifecycle.transition(order_id, later, cause="test setup")
        return db.orders.find_one({"_id": order_id}) or {}

    return make


@pytest.fixture
def stranger(api_server: str) -> Iterator[ApiClient]:
    """Another signed-in user."""
    with ApiClient(api_server) as client:
        client.login(OTHER_PHONE)
        yield client


def create_body(order: dict[str, Any], amount: int, **overrides: Any) -> dict[str, Any]:
    return {
        "amount": amount,
        "cardNumber": CARD,
        "expiry": EXPIRY,
        "cardType": "UZCARD",
        "brandId": str(order["brandId"]),
        "orderId": str(order["_id"]),
        **overrides,
    }


def apply_body(order: dict[str, Any], transaction_id: int, amount: int, **overrides: Any) -> dict[str, Any]:
    return {
        "transactionId": transaction_id,
        "otp": int(OTP),
        "amount": amount,
        "brandId": str(order["brandId"]),
        "orderId": str(order["_id"]),
        **overrides,
    }


def create(api: ApiClient, order: dict[str, Any], amount: int, **overrides: Any) -> int:
    response = api.post(CREATE, json=create_body(order, amount, **overrides))
    assert response.status_code == 200, response.text
    transaction_id: int = response.json()["data"]["transactionId"]
    return transaction_id


def refused(response: requests.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["success"] is False
    assert body["data"] is None
    return body


def stored_order(db: Db, order: dict[str, Any]) -> dict[str, Any]:
    return db.orders.find_one({"_id": order["_id"]}) or {}


def stored(db: Db, transaction_id: int) -> dict[str, Any]:
    return db.transactions.find_one({"_id": transaction_id}) or {}


# --- the whole flow ------------------------------------------------------------------------------


def test_check_create_resend_apply_pays_an_order_in_two_parts_to_paid(
    api: ApiClient, db: Db, payable_order: OrderFactory, frozen_clock: FrozenClock, eventbridge: Any
) -> None:
    # Given an order of 1,000,000 sums
    order = payable_order(amount_due=1_000_000)
    # When the card is checked
    check = api.get(CHECK, params={"cardNumber": CARD})
    assert check.status_code == 200
    assert check.json()["data"] == {"type": "UZCARD"}
    # And a first payment of 400,000 is created, its code resent after the cooldown and applied
    first = create(api, order, 400_000)
    frozen_clock.advance(61)
    resent = api.post(RESEND, json={"amount": 400_000, "cardNumber": CARD})
    assert resent.status_code == 200, resent.text
    assert resent.json()["data"]["transactionId"] == first
    # with the code's life from its new sending: the sandbox says none, so our own 120 s
    assert resent.json()["data"]["codeValidSeconds"] == 120
    expires_at = datetime.fromisoformat(resent.json()["data"]["codeExpiresAt"])
    assert expires_at == frozen_clock.current + timedelta(seconds=120)
    applied = api.post(APPLY, json=apply_body(order, first, 400_000))
    # Then the order is partially paid
    assert applied.status_code == 200, applied.text
    data = applied.json()["data"]
    assert data["transactionId"] == first
    assert data["status"] == "CONFIRMED"
    assert (data["orderStatus"], data["paidAmount"]) == ("PARTIALLY_PAID", 400_000)
    # When the rest is paid with a HUMO card
    second = create(api, order, 600_000, cardNumber=PAYS_HUMO, cardType="HUMO")
    assert second > first
    applied = api.post(APPLY, json=apply_body(order, second, 600_000))
    assert applied.status_code == 200, applied.text
    assert applied.json()["data"]["orderStatus"] == "PAID"
    # Then the order is PAID with both payments counted once
    paid = stored_order(db, order)
    assert (paid["statusSlug"], paid["paidAmount"]) == ("PAID", 1_000_000)
    assert sorted(paid["paymentIds"]) == sorted([str(first), str(second)])
    # And the history lists both, newest first, masked
    history = api.get(HISTORY, params={"orderId": str(order["_id"])})
    assert history.status_code == 200
    items = history.json()["data"]["items"]
    assert history.json()["data"]["total"] == 2
    assert [item["transactionId"] for item in items] == [second, first]
    assert items[1] == {
        **items[1],
        "amount": 400_000,
        "status": "CONFIRMED",
        "cardMask": "860049******6478",
        "cardType": "UZCARD",
    }
    assert items[0]["cardMask"] == "986035******0017"
    # And dealers heard of the order, both payments and both status changes
    published = eventbridge()
    changes = [(e["detail"]["from"], e["detail"]["to"]) for e in published if e["detail-type"] == "OrderStatusChanged"]
    assert sorted(changes, key=str) == sorted(
        [(None, "NEW"), ("NEW", "PARTIALLY_PAID"), ("PARTIALLY_PAID", "PAID")], key=str
    )
    confirmed = [event["detail"] for event in published if event["detail-type"] == "PaymentConfirmed"]
    assert {(event["transactionId"], event["amount"]) for event in confirmed} == {(first, 400_000), (second, 600_000)}


def test_the_card_number_and_the_code_are_never_stored(api: ApiClient, db: Db, payable_order: OrderFactory) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    document = stored(db, transaction_id)
    text = repr(document)
    assert PAYS_UZCARD not in text
    assert OTP not in text
    assert "39" not in str(document.get("cardMask"))
    assert document["cardMask"] == "860049******6478"
    assert document["status"] == "PENDING"
    assert (document["attempts"], document["resends"]) == (0, 0)
    assert len(document["otpHash"]) == 64
    assert not {"cardNumber", "expiry", "otp"} & set(document)


# --- check-card -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "card_type"),
    [
        (PAYS_HUMO, "HUMO"),
        ("4111 1111 1111 1111", "VISA"),
        ("5555555555554444", "MASTERCARD"),
        ("2221000000000009", "MASTERCARD"),
        ("6200000000000005", "UNIONPAY"),
        ("2200000000000004", "MIR"),
    ],
)
def test_check_card_detects_each_network(api: ApiClient, number: str, card_type: str) -> None:
    api.login()
    response = api.get(CHECK, params={"cardNumber": number})
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {"type": card_type}


@pytest.mark.parametrize(
    "number", ["8600495473316479", "8600 4954 7331", "86004954733164781", "abcd", "3000000000000004", "8" * 41]
)
def test_check_card_refuses_bad_numbers_with_400_naming_the_field(api: ApiClient, number: str) -> None:
    api.login()
    body = refused(api.get(CHECK, params={"cardNumber": number}), 400)
    assert body["errors"][0]["field"] == "query.cardNumber"
    assert number not in body["message"]


def test_check_card_needs_a_token_and_the_number(api: ApiClient) -> None:
    refused(api.get(CHECK, params={"cardNumber": CARD}), 401)
    api.login()
    refused(api.get(CHECK), 400)


# --- create: refusals ----------------------------------------------------------------------------


def test_create_for_another_users_or_an_unknown_order_is_404(
    api: ApiClient, payable_order: OrderFactory, stranger: ApiClient
) -> None:
    order = payable_order()
    refused(stranger.post(CREATE, json=create_body(order, 1_000)), 404)
    refused(api.post(CREATE, json=create_body(order, 1_000, orderId=str(ObjectId()))), 404)


@pytest.mark.parametrize("status", ["PAID", "READY", "IMPLEMENTED", "CANCELLED"])
def test_create_for_an_order_that_takes_no_payments_is_409(
    api: ApiClient, payable_order: OrderFactory, status: str
) -> None:
    order = payable_order(status=status)
    body = refused(api.post(CREATE, json=create_body(order, 1_000)), 409)
    assert body["details"]["statusSlug"] == status


def test_create_refuses_overpayment_with_what_is_still_due(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order(amount_due=1_000_000, paid=700_000, status="PARTIALLY_PAID")
    body = refused(api.post(CREATE, json=create_body(order, 300_001)), 409)
    assert body["details"]["remaining"] == 300_000
    assert db.transactions.count_documents({}) == 0
    create(api, order, 300_000)


def test_create_counts_payments_in_progress_until_their_code_expires(
    api: ApiClient, payable_order: OrderFactory, frozen_clock: FrozenClock
) -> None:
    order = payable_order(amount_due=1_000_000)
    create(api, order, 800_000)
    body = refused(api.post(CREATE, json=create_body(order, 300_000, cardNumber=PAYS_HUMO, cardType="HUMO")), 409)
    assert body["details"] == {"remaining": 1_000_000, "inProgress": 800_000, "amount": 300_000}
    create(api, order, 200_000, cardNumber=PAYS_HUMO, cardType="HUMO")
    frozen_clock.advance(121)
    create(api, order, 300_000, cardNumber=PAYS_HUMO, cardType="HUMO")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"amount": 0}, "body.amount"),
        ({"amount": -5}, "body.amount"),
        ({"amount": 10.5}, "body.amount"),
        ({"cardNumber": "8600495473316479"}, "body.cardNumber"),
        ({"cardNumber": "8600 4954"}, "body.cardNumber"),
        ({"cardType": "AMEX"}, "body.cardType"),
        ({"cardType": "HUMO"}, "body.cardType"),
        ({"cardNumber": "4111111111111111", "cardType": "VISA"}, "body.cardType"),
        ({"expiry": "13/39"}, "body.expiry"),
        ({"expiry": "1239"}, "body.expiry"),
        ({"expiry": "01/20"}, "body.expiry"),
        ({"brandId": str(ObjectId())}, "body.brandId"),
        ({"brandId": "not-an-id"}, "body.brandId"),
        ({"orderId": None}, "body.orderId"),
    ],
)
def test_create_refuses_invalid_input_with_400(
    api: ApiClient, payable_order: OrderFactory, db: Db, overrides: dict[str, Any], field: str
) -> None:
    order = payable_order()
    body = refused(api.post(CREATE, json={**create_body(order, 1_000), **overrides}), 400)
    assert field in [error["field"] for error in body["errors"]]
    assert "8600" not in body["message"]
    assert db.transactions.count_documents({}) == 0


def test_a_blocked_card_is_declined_at_create(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order()
    body = refused(api.post(CREATE, json=create_body(order, 1_000, cardNumber=BLOCKED_CARD, cardType="HUMO")), 400)
    assert body["details"] == {"reason": "CARD_BLOCKED"}
    assert db.transactions.count_documents({}) == 0


def test_transaction_ids_come_from_one_sequence(api: ApiClient, payable_order: OrderFactory) -> None:
    order = payable_order()
    ids = [create(api, order, 1_000) for _ in range(3)]
    assert ids == list(range(ids[0], ids[0] + 3))


# --- apply: refusals -----------------------------------------------------------------------------


def test_apply_of_another_users_or_an_unknown_transaction_is_404(
    api: ApiClient, payable_order: OrderFactory, stranger: ApiClient, db: Db
) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    refused(stranger.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 404)
    refused(api.post(APPLY, json=apply_body(order, transaction_id + 1000, 1_000)), 404)
    assert stored(db, transaction_id)["status"] == "PENDING"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"amount": 999}, "body.amount"),
        ({"brandId": str(ObjectId())}, "body.brandId"),
        ({"orderId": str(ObjectId())}, "body.orderId"),
    ],
)
def test_apply_with_fields_that_do_not_match_the_transaction_is_400(
    api: ApiClient, payable_order: OrderFactory, db: Db, overrides: dict[str, Any], field: str
) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    body = refused(api.post(APPLY, json={**apply_body(order, transaction_id, 1_000), **overrides}), 400)
    assert [error["field"] for error in body["errors"]] == [field]
    assert stored(db, transaction_id)["status"] == "PENDING"
    assert stored_order(db, order)["paidAmount"] == 0


@pytest.mark.parametrize("otp", ["1234567", "abc", None])
def test_apply_with_a_malformed_code_is_400(api: ApiClient, payable_order: OrderFactory, otp: Any) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000, otp=otp)), 400)
    assert body["errors"][0]["field"] == "body.otp"


def test_three_wrong_codes_fail_the_transaction(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    wrong = apply_body(order, transaction_id, 1_000, otp=123456)
    # Each wrong code says how many attempts are left
    assert refused(api.post(APPLY, json=wrong), 400)["details"] == {"attemptsLeft": 2}
    assert refused(api.post(APPLY, json=wrong), 400)["details"] == {"attemptsLeft": 1}
    # The third fails the transaction
    third = refused(api.post(APPLY, json=wrong), 400)
    assert third["details"] == {"attemptsLeft": 0, "status": "FAILED"}
    assert stored(db, transaction_id)["status"] == "FAILED"
    # And even the right code is refused afterwards, as is a resend
    assert refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 409)["details"] == {
        "status": "FAILED"
    }
    refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}), 404)
    assert stored_order(db, order)["paidAmount"] == 0


def test_a_right_code_after_a_wrong_one_pays(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 1_000)
    refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000, otp=111111)), 400)
    assert api.post(APPLY, json=apply_body(order, transaction_id, 1_000)).status_code == 200
    assert stored(db, transaction_id)["attempts"] == 1


def test_an_expired_code_is_refused_until_a_new_one_is_sent(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock
) -> None:
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 1_000)
    frozen_clock.advance(120)
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 400)
    assert "expired" in body["message"]
    assert body["details"] == {"resendsLeft": 3}
    # A resend gives a fresh code valid 120 s from now
    assert api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}).status_code == 200
    frozen_clock.advance(119)
    applied = api.post(APPLY, json=apply_body(order, transaction_id, 1_000))
    assert applied.status_code == 200, applied.text
    assert stored_order(db, order)["statusSlug"] == "PAID"


def test_an_expired_code_with_no_resend_left_expires_the_transaction(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock
) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    for _ in range(3):
        frozen_clock.advance(60)
        assert api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}).status_code == 200
    frozen_clock.advance(120)
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 400)
    assert body["details"] == {"status": "EXPIRED", "resendsLeft": 0}
    assert stored(db, transaction_id)["status"] == "EXPIRED"
    history = api.get(HISTORY, params={"orderId": str(order["_id"])}).json()["data"]
    assert history["items"][0]["status"] == "EXPIRED"
    refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 409)


def test_applying_twice_pays_once(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order(amount_due=5_000)
    transaction_id = create(api, order, 2_000)
    assert api.post(APPLY, json=apply_body(order, transaction_id, 2_000)).status_code == 200
    again = refused(api.post(APPLY, json=apply_body(order, transaction_id, 2_000)), 409)
    assert again["details"] == {"status": "CONFIRMED"}
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["paymentIds"]) == (2_000, [str(transaction_id)])


def test_insufficient_funds_fail_the_transaction_at_apply(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000, cardNumber=INSUFFICIENT_FUNDS_CARD)
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 400)
    assert body["details"] == {"reason": "INSUFFICIENT_FUNDS", "status": "FAILED"}
    assert stored(db, transaction_id)["status"] == "FAILED"
    assert stored_order(db, order)["paidAmount"] == 0


def test_apply_when_another_payment_filled_the_order_first_is_409_and_fails(
    api: ApiClient, payable_order: OrderFactory, db: Db
) -> None:
    # Given a transaction for the whole order, and another payment that then paid it in full
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 1_000)
    lifecycle.record_payment(order["_id"], 1_000, payment_id="bank-transfer-1", cause="bank transfer")
    # When the card payment is applied
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 409)
    # Then it is refused and failed, and the order is not overpaid
    assert body["details"]["status"] == "FAILED"
    assert stored(db, transaction_id)["status"] == "FAILED"
    assert stored_order(db, order)["paidAmount"] == 1_000


def test_apply_on_an_order_cancelled_meanwhile_is_409(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order()
    transaction_id = create(api, order, 1_000)
    lifecycle.transition(order["_id"], lifecycle.OrderStatus.CANCELLED, cause="customer changed their mind")
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 1_000)), 409)
    assert body["details"] == {"statusSlug": "CANCELLED", "status": "FAILED", "orderRefusal": "ORDER_NOT_PAYABLE"}
    assert stored_order(db, order)["paidAmount"] == 0


# --- resend-code ---------------------------------------------------------------------------------


def test_resend_has_a_cooldown_with_the_seconds_left(
    api: ApiClient, payable_order: OrderFactory, frozen_clock: FrozenClock
) -> None:
    order = payable_order()
    create(api, order, 1_000)
    frozen_clock.advance(15)
    response = api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD})
    body = refused(response, 429)
    assert response.headers["Retry-After"] == "45"
    assert body["details"] == {"retryAfter": 45}
    frozen_clock.advance(45)
    assert api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}).status_code == 200
    # The cooldown starts again from the new send
    frozen_clock.advance(59)
    assert refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}), 429)["details"] == {"retryAfter": 1}


def test_at_most_three_resends(api: ApiClient, payable_order: OrderFactory, frozen_clock: FrozenClock) -> None:
    order = payable_order()
    create(api, order, 1_000)
    for _ in range(3):
        frozen_clock.advance(60)
        assert api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}).status_code == 200
    frozen_clock.advance(60)
    body = refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}), 409)
    assert body["details"] == {"resendsLeft": 0}


def test_resend_finds_only_the_callers_pending_transaction_for_that_card_and_amount(
    api: ApiClient, payable_order: OrderFactory, stranger: ApiClient, frozen_clock: FrozenClock
) -> None:
    order = payable_order()
    create(api, order, 1_000)
    frozen_clock.advance(60)
    refused(stranger.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}), 404)
    refused(api.post(RESEND, json={"amount": 2_000, "cardNumber": CARD}), 404)
    refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": PAYS_HUMO}), 404)
    refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": "8600495473316479"}), 400)
    assert api.post(RESEND, json={"amount": 1_000, "cardNumber": PAYS_UZCARD}).status_code == 200


# --- history -------------------------------------------------------------------------------------


def test_history_of_another_users_or_an_unknown_order_is_404(
    api: ApiClient, payable_order: OrderFactory, stranger: ApiClient
) -> None:
    order = payable_order()
    create(api, order, 1_000)
    refused(stranger.get(HISTORY, params={"orderId": str(order["_id"])}), 404)
    refused(api.get(HISTORY, params={"orderId": str(ObjectId())}), 404)
    refused(api.get(HISTORY, params={"orderId": "nope"}), 400)
    refused(api.get(HISTORY), 400)


def test_history_of_an_order_without_payments_is_empty(api: ApiClient, payable_order: OrderFactory) -> None:
    order = payable_order()
    response = api.get(HISTORY, params={"orderId": str(order["_id"])})
    assert response.status_code == 200
    assert response.json()["data"] == {"items": [], "total": 0, "exact": True}


# --- races and logs ------------------------------------------------------------------------------


def wait_after_first_call(call: Callable[..., Any], racers: int) -> Callable[..., Any]:
    """`call`, where each thread's first call, once it has returned or raised, waits until all `racers`
    made theirs: every racer has read (or tried its write) before any of them goes on."""
    barrier = threading.Barrier(racers, timeout=10)
    first_call = threading.local()

    def call_then_wait(*args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        finally:
            if not getattr(first_call, "done", False):
                first_call.done = True
                barrier.wait()

    return call_then_wait


def test_concurrent_applies_of_one_transaction_pay_exactly_once(
    api: ApiClient, payable_order: OrderFactory, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given one pending transaction of 300 on an order of 1,000
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 300)
    user_id = str(order["userId"])
    body = ApplyBody.model_validate(apply_body(order, transaction_id, 300))
    # And the worst interleaving: every racer reads the transaction (PENDING) before any of them writes,
    # so only the conditional claim stands between them and a double payment. (The embedded server
    # runs commands one at a time and would otherwise let them take turns.)
    racers = 12
    monkeypatch.setattr(store, "find_own", wait_after_first_call(store.find_own, racers))

    def pay(_: int) -> int:
        try:
            service.apply(user_id, body)
        except AppError as error:
            return status_of(error)
        return 200

    # When they all apply at once
    with ThreadPoolExecutor(max_workers=racers) as pool:
        statuses = list(pool.map(pay, range(racers)))
    # Then exactly one paid, the others were told the transaction is taken, and the order counts 300 once
    assert statuses.count(200) == 1
    assert set(statuses) == {200, 409}
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["paymentIds"]) == (300, [str(transaction_id)])
    assert paid["statusSlug"] == "PARTIALLY_PAID"
    assert stored(db, transaction_id)["status"] == "CONFIRMED"
    assert db.order_logs.count_documents({"orderId": order["_id"], "to": "PARTIALLY_PAID"}) == 1


def test_logs_of_the_whole_flow_hold_neither_the_card_number_nor_the_code(
    api: ApiClient, payable_order: OrderFactory, frozen_clock: FrozenClock, captured_logs: Callable[[], str]
) -> None:
    # Given the whole flow with every refusal that sees a card number or a code
    order = payable_order(amount_due=1_000)
    assert api.get(CHECK, params={"cardNumber": CARD}).status_code == 200
    api.post(CREATE, json=create_body(order, 1_000, cardNumber="8600495473316479"))
    api.post(CREATE, json=create_body(order, 1_000, cardNumber=BLOCKED_CARD, cardType="HUMO"))
    transaction_id = create(api, order, 1_000)
    frozen_clock.advance(10)
    api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD})
    frozen_clock.advance(60)
    api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD})
    api.post(APPLY, json=apply_body(order, transaction_id, 1_000, otp=123456))
    assert api.post(APPLY, json=apply_body(order, transaction_id, 1_000)).status_code == 200
    # Then something was logged, but no card number (with or without spaces), no expiry and no code
    logs = captured_logs()
    assert "card payment confirmed" in logs
    for secret in (PAYS_UZCARD, CARD, "8600495473316479", BLOCKED_CARD, OTP, "123456", EXPIRY):
        # Digits standing alone: a thread id or timestamp may contain "123456" by chance
        assert not re.search(rf"(?<!\d){re.escape(secret)}(?!\d)", logs), secret


# --- one charge at a time per order (the charging claim) -------------------------------------------


def _two_whole_amount_transactions(order: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Two pending transactions for the whole order, got the only way that is possible: two creates
    racing, each reading the amount in progress before the other stores its transaction (create's
    check is advisory; see docs/DECISIONS.md)."""
    user_id = str(order["userId"])
    barrier = threading.Barrier(2, timeout=10)
    reserved_amount = store.reserved_amount

    def read_then_wait(order_id: ObjectId, now: Any, **kwargs: Any) -> int:
        value = reserved_amount(order_id, now, **kwargs)
        barrier.wait()
        return value

    with monkeypatch.context() as patch:
        patch.setattr(store, "reserved_amount", read_then_wait)
        bodies = [
            CreateBody.model_validate(create_body(order, int(order["amountDue"]))),
            CreateBody.model_validate(
                create_body(order, int(order["amountDue"]), cardNumber=PAYS_HUMO, cardType="HUMO")
            ),
        ]
        with ThreadPoolExecutor(max_workers=2) as pool:
            created = list(pool.map(lambda body: service.create(user_id, body), bodies))
    return sorted(result.transactionId for result in created)


def _count_processor_calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    calls: dict[str, list[str]] = {"confirm": [], "cancel": []}
    confirm = SandboxProcessor.confirm
    cancel = SandboxProcessor.cancel

    def counted_confirm(self: SandboxProcessor, payment: Any, otp: str) -> None:
        calls["confirm"].append(payment.processor_id)
        confirm(self, payment, otp)

    def counted_cancel(self: SandboxProcessor, payment: Any) -> None:
        calls["cancel"].append(payment.processor_id)
        cancel(self, payment)

    monkeypatch.setattr(SandboxProcessor, "confirm", counted_confirm)
    monkeypatch.setattr(SandboxProcessor, "cancel", counted_cancel)
    return calls


def test_racing_applies_of_two_transactions_of_one_order_charge_the_card_once(
    api: ApiClient, payable_order: OrderFactory, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two pending transactions, each for the whole order of 1,000
    order = payable_order(amount_due=1_000)
    user_id = str(order["userId"])
    first, second = _two_whole_amount_transactions(order, monkeypatch)
    calls = _count_processor_calls(monkeypatch)
    # And the worst interleaving: both applies hold their transaction and have read the order (payable,
    # nothing paid) before either takes the order's charging claim, and both have tried to take it before
    # either goes on (else the loser, descheduled until the winner has paid, finds the order paid instead)
    find_order, take_charge = store.find_order, lifecycle.take_charge
    monkeypatch.setattr(store, "find_order", wait_after_first_call(find_order, 2))
    monkeypatch.setattr(lifecycle, "take_charge", wait_after_first_call(take_charge, 2))

    def pay(transaction_id: int) -> tuple[int, str]:
        try:
            service.apply(user_id, ApplyBody.model_validate(apply_body(order, transaction_id, 1_000)))
        except AppError as error:
            return status_of(error), error.code
        return 200, "paid"

    # When both are applied at once
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = dict(zip((first, second), pool.map(pay, (first, second)), strict=True))
    # Then one card was charged, none was charged and cancelled, and the other was told to try again
    assert len(calls["confirm"]) == 1
    assert calls["cancel"] == []
    assert sorted(status for status, _ in outcomes.values()) == [200, 409]
    loser = next(transaction_id for transaction_id, (status, _) in outcomes.items() if status == 409)
    assert outcomes[loser][1] == "CHARGE_IN_PROGRESS"
    assert stored(db, loser)["status"] == "PENDING"
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["statusSlug"], paid["chargingPaymentId"]) == (1_000, "PAID", None)
    # And its retry is refused before any charge (the order is paid), and told that it was not charged
    monkeypatch.setattr(store, "find_order", find_order)
    monkeypatch.setattr(lifecycle, "take_charge", take_charge)
    body = refused(api.post(APPLY, json=apply_body(order, loser, 1_000)), 409)
    assert body["details"]["status"] == "FAILED"
    assert (body["code"], body["details"]["orderRefusal"]) == ("ORDER_REFUSED_PAYMENT", "ORDER_NOT_PAYABLE")
    assert len(calls["confirm"]) == 1
    assert calls["cancel"] == []
    assert "refund" not in stored(db, loser)


def test_a_charge_in_progress_holds_the_order_until_its_claim_runs_out(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an order whose charging claim another payment holds (its apply died mid-charge)
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 400)
    lifecycle.take_charge(order["_id"], "another", 400, now=clock.now(), claim_seconds=60)
    calls = _count_processor_calls(monkeypatch)
    # When the transaction is applied 15 s later: 409 saying when to try again, nothing charged, the
    # transaction still pending
    frozen_clock.advance(15)
    response = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    body = refused(response, 409)
    assert body["message"] == "Another payment of this order is being confirmed, try again"
    assert response.headers["Retry-After"] == "45"
    assert calls["confirm"] == []
    assert stored(db, transaction_id)["status"] == "PENDING"
    # And once the claim has run out, it pays
    frozen_clock.advance(45)
    assert api.post(APPLY, json=apply_body(order, transaction_id, 400)).status_code == 200
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["chargingPaymentId"]) == (400, None)


def test_a_wrong_code_gives_the_charging_claim_back(api: ApiClient, payable_order: OrderFactory, db: Db) -> None:
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 400)
    refused(api.post(APPLY, json=apply_body(order, transaction_id, 400, otp=123456)), 400)
    assert stored_order(db, order)["chargingPaymentId"] is None
    # confirmStartedAt stays: the processor was asked, a later apply must treat it as maybe charged
    assert stored(db, transaction_id)["confirmStartedAt"] is not None


def test_resend_does_not_revive_a_code_the_order_no_longer_has_room_for(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given a transaction for the whole order whose code expired, and a new one that took its place
    order = payable_order(amount_due=1_000)
    expired = create(api, order, 1_000)
    frozen_clock.advance(121)
    create(api, order, 1_000, cardNumber=PAYS_HUMO, cardType="HUMO")
    before = stored(db, expired)
    # When a new code is asked for the expired one: 409, nothing sent, the transaction untouched
    body = refused(api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}), 409)
    assert body["details"] == {"remaining": 1_000, "inProgress": 1_000, "amount": 1_000}
    after = stored(db, expired)
    assert (after["resends"], after["expiresAt"]) == (before["resends"], before["expiresAt"])
    # And once the other one's code expired too, the resend revives it
    frozen_clock.advance(121)
    assert api.post(RESEND, json={"amount": 1_000, "cardNumber": CARD}).status_code == 200


# --- busy orders, lost claims, already recorded payments ------------------------------------------


def test_an_order_too_busy_to_record_a_charge_keeps_it_and_the_retry_records_it(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a charge whose recording loses every compare-and-set to other changes of the order
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 400)
    calls = _count_processor_calls(monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(lifecycle, "MAX_CAS_ATTEMPTS", 0)
        response = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    # Then 503 with Retry-After, nothing cancelled, the transaction kept as charged
    refused(response, 503)
    assert response.headers["Retry-After"] == "60"
    assert calls["cancel"] == []
    kept = stored(db, transaction_id)
    assert (kept["status"], kept.get("failureReason")) == ("CONFIRMING", None)
    assert kept["processorConfirmedAt"] is not None
    # And the client's retry once the claim has run out records the payment, without charging again
    frozen_clock.advance(60)
    applied = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    assert applied.status_code == 200, applied.text
    assert calls["confirm"] == [kept["processorId"]]
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["paymentIds"], paid["chargingPaymentId"]) == (400, [str(transaction_id)], None)
    assert stored(db, transaction_id)["status"] == "CONFIRMED"


def test_a_retry_while_an_unanswered_charge_holds_the_transaction_says_when_and_works_after(
    api: ApiClient, payable_order: OrderFactory, db: Db, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an apply whose charge the processor did not answer (outcome unknown: 503, the claim kept)
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 400)
    with monkeypatch.context() as patch:
        patch.setattr(SandboxProcessor, "confirm", _unavailable)
        first = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    refused(first, 503)
    assert first.headers["Retry-After"] == "60"
    # When the client retries 20 s later
    frozen_clock.advance(20)
    early = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    # Then it is told the transaction is being confirmed, and when to try again: what is left of the claim
    body = refused(early, 409)
    assert "being confirmed" in body["message"]
    assert early.headers["Retry-After"] == "40"
    # And the retry at that time asks the processor again and pays the order once
    frozen_clock.advance(40)
    applied = api.post(APPLY, json=apply_body(order, transaction_id, 400))
    assert applied.status_code == 200, applied.text
    paid = stored_order(db, order)
    assert (paid["paidAmount"], paid["paymentIds"], paid["chargingPaymentId"]) == (400, [str(transaction_id)], None)


def _unavailable(self: SandboxProcessor, payment: Any, otp: str) -> None:
    raise ProcessorUnavailable("timed out")


def test_an_apply_that_lost_its_claim_stops_before_charging(
    api: ApiClient, payable_order: OrderFactory, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 400)
    calls = _count_processor_calls(monkeypatch)
    monkeypatch.setattr(store, "update_claimed", lambda *args, **kwargs: None)  # another apply took it over
    body = refused(api.post(APPLY, json=apply_body(order, transaction_id, 400)), 409)
    assert body["details"] == {"status": "CONFIRMING"}
    assert calls["confirm"] == []
    assert stored_order(db, order)["chargingPaymentId"] is None


def test_a_payment_already_recorded_is_not_charged_again(
    api: ApiClient, payable_order: OrderFactory, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a transaction whose payment an earlier apply recorded before dying
    order = payable_order(amount_due=1_000)
    transaction_id = create(api, order, 1_000)
    lifecycle.record_payment(order["_id"], 1_000, payment_id=str(transaction_id), cause="an earlier apply")
    calls = _count_processor_calls(monkeypatch)
    # When it is applied: confirmed, without asking the processor again nor cancelling anything
    applied = api.post(APPLY, json=apply_body(order, transaction_id, 1_000))
    assert applied.status_code == 200, applied.text
    assert calls == {"confirm": [], "cancel": []}
    assert stored(db, transaction_id)["status"] == "CONFIRMED"
    assert stored_order(db, order)["paidAmount"] == 1_000


# --- rate limit -----------------------------------------------------------------------------------


def test_creates_are_limited_per_caller_and_per_card(
    api: ApiClient, payable_order: OrderFactory, stranger: ApiClient, db: Db, frozen_clock: FrozenClock
) -> None:
    # Given five payments started by the caller with one card within ten minutes
    order = payable_order(amount_due=1_000_000)
    for _ in range(5):
        create(api, order, 1)
    # Then a sixth is 429 with Retry-After, nothing registered
    response = api.post(CREATE, json=create_body(order, 1))
    refused(response, 429)
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 600
    assert db.transactions.count_documents({"orderId": order["_id"]}) == 5
    # And the same card is refused to another caller too
    car = purchasable_car(db, brand="Stranger brand", prices=(1_000_000,))
    placed = stranger.post("/api/v1/orders", json=order_body(car))
    assert placed.status_code == 201, placed.text
    their_order = placed.json()["data"]
    refused(stranger.post(CREATE, json=create_body({"_id": their_order["_id"], "brandId": car.brand_id}, 1)), 429)
    # While another card of the caller still counts against the caller
    refused(api.post(CREATE, json=create_body(order, 1, cardNumber=PAYS_HUMO, cardType="HUMO")), 429)
    # And after the window, payments start again
    frozen_clock.advance(retry_after)
    create(api, order, 1)


# --- money input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", [True, False, "true"])
def test_a_boolean_is_not_an_amount_of_money(api: ApiClient, payable_order: OrderFactory, db: Db, amount: Any) -> None:
    # Given a payable order
    order = payable_order()
    # When a payment is started for the amount `true` (which lax coercion would read as 1 sum)
    body = refused(api.post(CREATE, json={**create_body(order, 1_000), "amount": amount}), 400)
    # Then it is refused naming the amount, and nothing is registered
    assert [error["field"] for error in body["errors"]] == ["body.amount"]
    assert db.transactions.count_documents({}) == 0


@pytest.mark.parametrize("amount", [1_000, 1_000.0, "1000", " 1000 "])
def test_an_amount_may_be_a_number_or_a_numeric_string(
    api: ApiClient, payable_order: OrderFactory, db: Db, amount: Any
) -> None:
    order = payable_order()
    response = api.post(CREATE, json={**create_body(order, 1_000), "amount": amount})
    assert response.status_code == 200, response.text
    assert db.transactions.find_one({})["amount"] == 1_000  # type: ignore[index]


# --- the card as a token (issue 38: Payme stages; the sandbox takes both forms) ---------------------


def token_body(order: dict[str, Any], amount: int, token: str) -> dict[str, Any]:
    return {"amount": amount, "cardToken": token, "brandId": str(order["brandId"]), "orderId": str(order["_id"])}


def test_the_sandbox_pays_with_a_card_token_and_resends_by_it(
    api: ApiClient, db: Db, payable_order: OrderFactory, frozen_clock: FrozenClock
) -> None:
    # Given an order and a card token the app got from the processor
    order = payable_order(amount_due=300_000)
    created = api.post(CREATE, json=token_body(order, 300_000, "sandbox-token-8600495473316478"))
    assert created.status_code == 200, created.text
    transaction_id = created.json()["data"]["transactionId"]
    # When the code is resent by the token after the cooldown, then applied
    frozen_clock.advance(61)
    resent = api.post(RESEND, json={"amount": 300_000, "cardToken": "sandbox-token-8600495473316478"})
    assert resent.status_code == 200, resent.text
    applied = api.post(APPLY, json=apply_body(order, transaction_id, 300_000))
    # Then the order is paid, the card shown masked as the processor shows it
    assert applied.status_code == 200, applied.text
    assert (applied.json()["data"]["cardMask"], applied.json()["data"]["cardType"]) == ("860049******6478", "UZCARD")
    assert resent.json()["data"]["transactionId"] == transaction_id
    assert "8600495473316478" not in str(db.transactions.find_one({"_id": transaction_id}))


def test_a_sandbox_token_of_the_poor_test_card_is_declined_at_apply(
    api: ApiClient, payable_order: OrderFactory
) -> None:
    order = payable_order(amount_due=300_000)
    created = api.post(CREATE, json=token_body(order, 300_000, f"sandbox-token-{INSUFFICIENT_FUNDS_CARD}"))
    assert created.status_code == 200, created.text
    applied = api.post(APPLY, json=apply_body(order, created.json()["data"]["transactionId"], 300_000))
    assert (applied.status_code, applied.json()["code"]) == (400, "PAYMENT_DECLINED_INSUFFICIENT_FUNDS")


@pytest.mark.parametrize(
    "card",
    [
        {"cardNumber": CARD, "expiry": EXPIRY, "cardType": "UZCARD", "cardToken": "sandbox-token-x"},
        {"cardNumber": CARD, "cardType": "UZCARD"},
        {"cardToken": "has a space"},
        {"cardToken": None},
        {},
    ],
    ids=["both", "number-without-expiry", "token-with-space", "null-token", "neither"],
)
def test_a_body_with_both_forms_or_neither_is_refused(
    api: ApiClient, payable_order: OrderFactory, card: dict[str, str | None]
) -> None:
    order = payable_order(amount_due=300_000)
    body = {"amount": 300_000, "brandId": str(order["brandId"]), "orderId": str(order["_id"]), **card}
    response = api.post(CREATE, json=body)
    assert response.status_code == 400, response.text
    assert response.json()["errors"][0]["code"] in ("CARD_NUMBER_OR_TOKEN", "CARD_TOKEN_FORMAT")
