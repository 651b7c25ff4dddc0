"""`Idempotency-Key` through HTTP: a retry after a lost answer gets the first answer and creates
nothing new; the same key with another body is refused; keys belong to one caller and expire."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pymongo.database import Database

from core.secrets import reset_secrets
from core.settings import reset_settings
from local.invoke import invoke as invoke_function
from orders import service as orders_service
from tests.data import order_body, purchasable_car
from tests.factories import ApiClient, api_event

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
CREATE = "/api/v1/transactions/create"
APPLY = "/api/v1/transactions/apply"
RESEND = "/api/v1/transactions/resend-code"
CARD = "8600 4954 7331 6478"
OTHER_PHONE = "+998935550000"


def keyed(key: str) -> dict[str, str | None]:
    return {"Idempotency-Key": key}


def card_payment(order: dict[str, Any], amount: int) -> dict[str, Any]:
    return {
        "amount": amount,
        "cardNumber": CARD,
        "expiry": "12/39",
        "cardType": "UZCARD",
        "brandId": order["brandId"],
        "orderId": order["_id"],
    }


def placed_order(api: ApiClient, db: Db, price: int = 1_000_000) -> dict[str, Any]:
    car = purchasable_car(db, prices=(price,))
    response = api.post(ORDERS, json=order_body(car))
    assert response.status_code == 201, response.text
    order: dict[str, Any] = response.json()["data"]
    return order


def test_a_retried_order_create_returns_the_first_answer_and_places_one_order(api: ApiClient, db: Db) -> None:
    # Given a buyer who places an order with a key and loses the answer
    car = purchasable_car(db)
    api.login()
    key = str(uuid.uuid4())
    first = api.post(ORDERS, json=order_body(car), headers=keyed(key))
    # When the app retries the same request with the same key
    retry = api.post(ORDERS, json=order_body(car), headers=keyed(key))
    # Then the retry gets the first answer, marked as a replay, and there is still one order
    assert first.status_code == retry.status_code == 201
    assert retry.text == first.text
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert db.orders.count_documents({}) == 1


def test_the_same_key_with_another_body_is_409_and_does_nothing(api: ApiClient, db: Db) -> None:
    # Given an order placed with a key
    car = purchasable_car(db)
    other_car = purchasable_car(db, brand="Kia", name="Sonet")
    api.login()
    key = str(uuid.uuid4())
    assert api.post(ORDERS, json=order_body(car), headers=keyed(key)).status_code == 201
    # When the same key comes with a different body
    response = api.post(ORDERS, json=order_body(other_car), headers=keyed(key))
    # Then it is refused with a message naming the key, and no second order exists
    assert response.status_code == 409, response.text
    assert "Idempotency-Key" in response.json()["message"]
    assert db.orders.count_documents({}) == 1


def test_without_a_key_each_request_is_new(api: ApiClient, db: Db) -> None:
    # Given a verified buyer (a person holds two cars not paid in full) and a car
    car = purchasable_car(db)
    api.login()
    api.verify()
    # When the same order is posted twice without a key
    answers = [api.post(ORDERS, json=order_body(car)) for _ in range(2)]
    # Then two orders are placed, as before keys existed
    assert [answer.status_code for answer in answers] == [201, 201]
    assert db.orders.count_documents({}) == 2


def test_a_key_that_is_not_a_uuid_is_400_naming_the_header(api: ApiClient, db: Db) -> None:
    # Given a buyer and a car
    car = purchasable_car(db)
    api.login()
    # When the key is not a UUID
    response = api.post(ORDERS, json=order_body(car), headers=keyed("order-1"))
    # Then it is 400 naming the header, and nothing was placed
    assert response.status_code == 400, response.text
    assert response.json()["errors"] == [
        {
            "field": "header.Idempotency-Key",
            "code": "IDEMPOTENCY_KEY_INVALID",
            "message": "Idempotency-Key must be a UUID",
        }
    ]
    assert db.orders.count_documents({}) == 0


def test_a_key_belongs_to_its_caller(api: ApiClient, api_server: str, db: Db) -> None:
    # Given an order placed by one buyer with a key
    car = purchasable_car(db)
    api.login()
    key = str(uuid.uuid4())
    mine = api.post(ORDERS, json=order_body(car), headers=keyed(key))
    # When another buyer happens to send the same key and body
    with ApiClient(api_server) as other:
        other.login(OTHER_PHONE)
        theirs = other.post(ORDERS, json=order_body(car), headers=keyed(key))
    # Then the other buyer gets an order of their own, never the first buyer's answer
    assert theirs.status_code == 201, theirs.text
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.json()["data"]["_id"] != mine.json()["data"]["_id"]
    assert db.orders.count_documents({}) == 2


def test_a_retried_transaction_create_returns_the_first_transaction(api: ApiClient, db: Db) -> None:
    # Given a card payment started with a key
    api.login()
    order = placed_order(api, db)
    key = str(uuid.uuid4())
    first = api.post(CREATE, json=card_payment(order, 400_000), headers=keyed(key))
    # When the app retries it with the same key
    retry = api.post(CREATE, json=card_payment(order, 400_000), headers=keyed(key))
    # Then the retry gets the same transaction id and no second transaction (nor code) exists
    assert first.status_code == retry.status_code == 200, retry.text
    assert retry.json() == first.json()
    assert db.transactions.count_documents({}) == 1


def test_a_retried_apply_answers_the_payment_once(api: ApiClient, db: Db) -> None:
    # Given a card payment applied with a key
    api.login()
    order = placed_order(api, db)
    created = api.post(CREATE, json=card_payment(order, 400_000), headers=keyed(str(uuid.uuid4())))
    transaction_id = created.json()["data"]["transactionId"]
    body = {
        "transactionId": transaction_id,
        "otp": 666666,
        "amount": 400_000,
        "brandId": order["brandId"],
        "orderId": order["_id"],
    }
    key = str(uuid.uuid4())
    first = api.post(APPLY, json=body, headers=keyed(key))
    # When the apply is retried with the same key
    retry = api.post(APPLY, json=body, headers=keyed(key))
    # Then it answers the first confirmation again and the order holds the payment once
    assert first.status_code == retry.status_code == 200, retry.text
    assert retry.json() == first.json()
    stored = db.orders.find_one({"paymentIds": str(transaction_id)}) or {}
    assert stored["paidAmount"] == 400_000
    assert stored["paymentIds"] == [str(transaction_id)]


def test_a_final_refusal_is_kept_and_a_retryable_one_is_not(api: ApiClient, db: Db) -> None:
    # Given a buyer and an order due 1,000,000
    api.login()
    order = placed_order(api, db)
    # When a payment of an unknown order is retried with its key (404: final)
    unknown = {**card_payment(order, 400_000), "orderId": "0123456789abcdef01234567"}
    key = str(uuid.uuid4())
    first_404 = api.post(CREATE, json=unknown, headers=keyed(key))
    retried_404 = api.post(CREATE, json=unknown, headers=keyed(key))
    # Then the retry is the kept answer
    assert first_404.status_code == retried_404.status_code == 404
    assert retried_404.headers["Idempotent-Replayed"] == "true"
    # When a resend is refused with 404 and a create is refused with 409 (an overpayment)
    too_much = card_payment(order, 2_000_000)
    key = str(uuid.uuid4())
    first_409 = api.post(CREATE, json=too_much, headers=keyed(key))
    retried_409 = api.post(CREATE, json=too_much, headers=keyed(key))
    # Then a 409 is not kept: the retry was judged again
    assert first_409.status_code == retried_409.status_code == 409
    assert "Idempotent-Replayed" not in retried_409.headers
    resend = {"cardNumber": CARD, "amount": 400_000}
    assert api.post(RESEND, json=resend, headers=keyed(str(uuid.uuid4()))).status_code == 404


def test_keys_expire_after_a_day_and_keep_no_card_data(api: ApiClient, db: Db) -> None:
    # Given a card payment started with a key
    api.login()
    order = placed_order(api, db)
    api.post(CREATE, json=card_payment(order, 400_000), headers=keyed(str(uuid.uuid4())))
    # When the stored key record is read
    [record] = list(db.idempotency_keys.find())
    # Then it expires in 24 h through a TTL index and holds neither the card number nor the key in clear
    ttl = db.idempotency_keys.index_information()["idempotency_keys_ttl"]
    assert ttl["expireAfterSeconds"] == 0
    assert abs(record["expiresAt"] - (datetime.now(UTC) + timedelta(hours=24))) < timedelta(minutes=1)
    stored = repr(record)
    assert CARD.replace(" ", "") not in stored
    assert "4954" not in stored


def test_a_repeat_while_the_first_is_still_running_is_409_with_retry_after(
    api: ApiClient, db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an order request still being processed (held inside the service) by one instance of the
    # Orders function (the local gateway runs one request per function at a time, as one Lambda instance
    # does: the handler is invoked directly here, as two instances would be)
    car = purchasable_car(db)
    token = api.login()["accessToken"]
    key = str(uuid.uuid4())
    entered, release = threading.Event(), threading.Event()
    create_order = orders_service.create_order

    def slow_create_order(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(timeout=10)
        return create_order(*args, **kwargs)

    def invoke() -> dict[str, Any]:
        event = api_event(
            "POST", ORDERS, body=order_body(car), headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key}
        )
        return invoke_function("Orders", event)

    monkeypatch.setattr(orders_service, "create_order", slow_create_order)
    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(invoke)
        assert entered.wait(timeout=10)
        # When the app repeats it meanwhile
        repeat = invoke()
        release.set()
        first_answer = first.result(timeout=10)
    # Then the repeat is told to come back shortly, and once the first is done the key answers with it
    assert repeat["statusCode"] == 409, repeat
    assert repeat["multiValueHeaders"]["Retry-After"] == ["2"]
    assert "still being processed" in json.loads(repeat["body"])["message"]
    later = invoke()
    assert first_answer["statusCode"] == later["statusCode"] == 201
    assert later["body"] == first_answer["body"]
    assert db.orders.count_documents({}) == 1


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Sets the signing keys as an instance reads them again after a rotation (settings and keys; the
    database client stays); the next test reads the environment's again."""

    def use(current: str, previous: str | None = None) -> None:
        monkeypatch.setenv("JWT_SECRET", current)
        if previous is not None:
            monkeypatch.setenv("JWT_PREVIOUS_SECRET", previous)
        reset_settings()
        reset_secrets()

    yield use
    monkeypatch.undo()
    reset_settings()
    reset_secrets()


def test_a_retry_after_a_signing_key_rotation_gets_the_first_answer(
    api: ApiClient, db: Db, keys: Callable[..., None]
) -> None:
    # Given an order placed with a key, under the signing key of the day
    keys("o" * 64)
    car = purchasable_car(db)
    api.login()
    key = str(uuid.uuid4())
    first = api.post(ORDERS, json=order_body(car), headers=keyed(key))
    assert first.status_code == 201, first.text
    # When the key is rotated (the old one kept as the previous key), the app signs in again (a token
    # of the new key) and retries the same request with the same idempotency key
    keys("n" * 64, previous="o" * 64)
    api.login()
    retry = api.post(ORDERS, json=order_body(car), headers=keyed(key))
    other = api.post(ORDERS, json=order_body(car) | {"promoCode": "OTHER"}, headers=keyed(key))
    # Then the retry is the first answer, replayed, and one order exists; another body is still refused
    assert retry.status_code == 201, retry.text
    assert retry.text == first.text
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert other.status_code == 409
    assert other.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert db.orders.count_documents({}) == 1
