"""Financed orders through HTTP: a CREDIT, LEASING or INSTALLMENT order carries the choices made on the
financing routes, re-checked and priced like those routes price them, and says what is due now by card
(`amountDueNow`, the initial payment), which is all the card payment routes take."""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.settings import reset_settings
from domain.catalog import store as catalog_store
from domain.dealers import store as dealers_store
from domain.financing import store as financing_store
from domain.orders import placement
from domain.orders import store as orders_store
from tests.data import CatalogCar, insert_promo_code, order_body, purchasable_car
from tests.factories import ApiClient
from tests.financing_data import (
    chain_ids,
    insert_credit_product,
    insert_installment_plan,
    insert_leasing_program,
    insert_organization,
)

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
BANKS = "/api/v2/payments/banks"
CALCULATE = "/api/v2/payments/banks/calculate"
LEASING_CALCULATE = "/api/v1/payments/leasing/calculate"
INSTALLMENT = "/api/v1/payments/installment"
CREATE = "/api/v1/transactions/create"
APPLY = "/api/v1/transactions/apply"
CARD, EXPIRY, OTP = "8600495473316478", "12/39", 666666
PRICE = 300_000_000
CREDIT_FIGURES = (
    "monthlyPayment",
    "loanAmount",
    "initialPayment",
    "totalInterest",
    "totalPayment",
    "rate",
    "termMonths",
    "refundType",
    "carPrice",
)


@pytest.fixture
def car(db: Db) -> CatalogCar:
    return purchasable_car(db, prices=(PRICE, 350_000_000))


@pytest.fixture
def bank(db: Db) -> ObjectId:
    return insert_organization(db, "Kapitalbank")


@pytest.fixture
def product(db: Db, car: CatalogCar, bank: ObjectId) -> dict[str, Any]:
    # 30 % or 50 % down, 12 or 36 months; 24 % a year at 30 % down for 36 months
    return insert_credit_product(db, car.brand_id, bank)


def data(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


def credit_choice(api: ApiClient, car: CatalogCar, product: dict[str, Any], **path: int) -> dict[str, str]:
    """The bank chain as a client walks it: the offer of /banks for the car, then one path of ids."""
    query = {"brandId": str(car.brand_id), "carId": str(car.car_id), "modificationId": str(car.modification_id)}
    [offer] = data(api.get(BANKS, params=query))["items"]
    return {"bankId": offer["_id"], **chain_ids(product, **path)}


def place(api: ApiClient, car: CatalogCar, status: int = 201, **fields: Any) -> Any:
    return data(api.post(ORDERS, json=order_body(car, **fields)), status)


def pay_by_card(api: ApiClient, order: dict[str, Any], amount: int) -> Any:
    common = {"amount": amount, "brandId": order["brandId"], "orderId": order["_id"]}
    created = api.post(CREATE, json={**common, "cardNumber": CARD, "expiry": EXPIRY, "cardType": "UZCARD"})
    if created.status_code != 200:
        return created
    return api.post(APPLY, json={**common, "transactionId": created.json()["data"]["transactionId"], "otp": OTP})


# Credit


def test_a_credit_order_stores_the_figures_the_bank_calculation_gave(
    api: ApiClient, db: Db, car: CatalogCar, bank: ObjectId, product: dict[str, Any]
) -> None:
    # Given a client who walked the bank chain (30 % down, 36 months, annuity) and saw the calculation
    api.login()
    choice = credit_choice(api, car, product, term=1)
    shown = data(api.get(CALCULATE, params=choice))
    # When they order the car on credit with those choices
    order = place(api, car, paymentTypeId="CREDIT", credit=choice)
    # Then the order carries the deal: the bank, the offer, the choices and exactly the figures shown
    assert (order["organizationId"], order["offerId"]) == (str(bank), choice["bankId"])
    financing = order["financing"]
    assert financing["choices"] == choice
    assert {name: financing[name] for name in CREDIT_FIGURES} == {name: shown[name] for name in CREDIT_FIGURES}
    assert (financing["termMonths"], financing["rate"], financing["initialPayment"]) == (36, 24.0, 90_000_000)
    # And what is due now by card is the initial payment; the order still costs the whole price
    assert (order["amountDueNow"], order["amountDue"], order["paidAmount"]) == (90_000_000, PRICE, 0)
    # And the stored order and its detail say the same
    stored = db.orders.find_one({"_id": ObjectId(order["_id"])}) or {}
    assert {name: stored["financing"][name] for name in CREDIT_FIGURES} == {
        name: shown[name] for name in CREDIT_FIGURES
    }
    assert stored["amountDueNow"] == 90_000_000
    detail = data(api.get(f"{ORDERS}/{order['_id']}"))
    assert (detail["financing"], detail["amountDueNow"]) == (financing, 90_000_000)
    assert data(api.get(ORDERS))["items"][0]["amountDueNow"] == 90_000_000


# The domain areas an order goes through, by the module holding each one's collections (docs/ARCHITECTURE.md).
AREA_STORES = {"catalog": catalog_store, "dealers": dealers_store, "financing": financing_store, "orders": orders_store}


def test_a_credit_order_asks_each_area_once_in_order(
    api: ApiClient, car: CatalogCar, product: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a client who walked the bank chain, and every function of the areas' stores watched while an
    # order is placed (an area's calls within itself, and taking the unit in the order's transaction,
    # count as the visit that made them)
    api.login()
    choice = credit_choice(api, car, product)
    visits: list[str] = []
    placing, depth = [False], [0]

    def watched[**P, T](area: str, function: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(function)
        def call(*args: P.args, **kwargs: P.kwargs) -> T:
            if placing[0] and depth[0] == 0:
                visits.append(area)
            depth[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1

        return call

    for area, module in AREA_STORES.items():
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__:
                monkeypatch.setattr(module, name, watched(area, function))
    monkeypatch.setattr(placement, "write_order", watched("orders", placement.write_order))
    place_order = placement.place_order

    def placed(*args: Any, **kwargs: Any) -> Any:
        placing[0] = True
        try:
            return place_order(*args, **kwargs)
        finally:
            placing[0] = False

    monkeypatch.setattr(placement, "place_order", placed)
    # When they order the car on credit
    place(api, car, paymentTypeId="CREDIT", credit=choice)
    # Then the order read its car, then its branch and stock, then asked financing, then wrote: each once
    assert [area for area, _ in itertools.groupby(visits)] == ["catalog", "dealers", "financing", "orders"]


def test_a_card_payment_takes_at_most_what_is_due_now_and_paying_it_makes_the_order_paid(
    api: ApiClient, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given a credit order whose initial payment is 90,000,000 of a 300,000,000 car
    api.login()
    order = place(api, car, paymentTypeId="CREDIT", credit=credit_choice(api, car, product, term=1))
    # When the client tries to pay more than the initial payment by card
    too_much = api.post(
        CREATE,
        json={
            "amount": 90_000_001,
            "cardNumber": CARD,
            "expiry": EXPIRY,
            "cardType": "UZCARD",
            "brandId": order["brandId"],
            "orderId": order["_id"],
        },
    )
    # Then it is refused before any code is sent, saying what is still due now
    assert too_much.status_code == 409, too_much.text
    assert too_much.json()["details"]["remaining"] == 90_000_000
    # When they pay part of it, then the rest
    part = data(pay_by_card(api, order, 40_000_000))
    assert (part["orderStatus"], part["paidAmount"], part["amountDueNow"]) == ("PARTIALLY_PAID", 40_000_000, 90_000_000)
    rest = data(pay_by_card(api, order, 50_000_000))
    # Then the order is PAID: the buyer owes nothing more now, the bank lends the other 210,000,000
    assert (rest["orderStatus"], rest["paidAmount"]) == ("PAID", 90_000_000)
    assert data(api.get(f"{ORDERS}/{order['_id']}"))["statusSlug"] == "PAID"
    # And no card payment is taken any more
    assert pay_by_card(api, order, 1).status_code == 409


@pytest.mark.parametrize(
    ("mutate", "status", "message"),
    [
        (lambda choice, other: {**choice, "bankId": str(ObjectId())}, 404, "Bank offer not found"),
        (lambda choice, other: {**choice, "loanTermId": other["loanTermId"]}, 404, "loanTermId does not belong"),
        (lambda choice, other: {**choice, "refundTypeId": "not-an-id"}, 400, "body.credit.refundTypeId"),
    ],
)
def test_unknown_or_foreign_credit_choices_are_refused(  # noqa: PLR0917 (fixtures and parameters)
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], mutate: Any, status: int, message: str
) -> None:
    # Given the choices of this car's bank chain, and the ids of another bank's product for the brand
    api.login()
    choice = credit_choice(api, car, product)
    other = chain_ids(insert_credit_product(db, car.brand_id, insert_organization(db, "Hamkorbank")))
    # When an order sends an id that is unknown, of another chain, or malformed
    response = api.post(ORDERS, json=order_body(car, paymentTypeId="CREDIT", credit=mutate(choice, other)))
    # Then it is refused as the financing routes refuse it, and no order is stored
    assert response.status_code == status, response.text
    assert message in response.text
    assert db.orders.count_documents({}) == 0


def test_a_bank_offer_for_another_modification_is_refused(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given the offer the bank chain gave for the car's second modification
    api.login()
    query = {"brandId": str(car.brand_id), "carId": str(car.car_id), "modificationId": str(car.modification_ids[1])}
    [offer] = data(api.get(BANKS, params=query))["items"]
    # When the first modification is ordered with it
    response = api.post(
        ORDERS, json=order_body(car, paymentTypeId="CREDIT", credit={"bankId": offer["_id"], **chain_ids(product)})
    )
    # Then it is refused: that offer prices another car
    assert response.status_code == 404, response.text
    assert response.json()["details"] == {"field": "credit.bankId"}
    assert db.orders.count_documents({}) == 0


@pytest.mark.parametrize(
    ("field", "value"),
    # Ids of nothing, fixed: parameters name the tests, and every pytest-xdist worker must collect the same ones.
    [
        ("organizationId", "not-a-real-bank"),
        ("organizationId", "6650f1c2a1b2c3d4e5f60702"),
        ("offerId", "6650f1c2a1b2c3d4e5f60703"),
    ],
)
def test_an_organization_or_offer_that_is_not_the_chosen_one_is_400(  # noqa: PLR0917 (fixtures and parameters)
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], field: str, value: str
) -> None:
    api.login()
    body = order_body(car, paymentTypeId="CREDIT", credit=credit_choice(api, car, product), **{field: value})
    response = api.post(ORDERS, json=body)
    assert response.status_code == 400, response.text
    assert response.json()["errors"][0]["field"] == f"body.{field}"
    assert db.orders.count_documents({}) == 0


def test_the_chosen_organization_and_offer_may_be_named(
    api: ApiClient, car: CatalogCar, bank: ObjectId, product: dict[str, Any]
) -> None:
    api.login()
    choice = credit_choice(api, car, product)
    order = place(api, car, paymentTypeId="CREDIT", credit=choice, organizationId=str(bank), offerId=choice["bankId"])
    assert (order["organizationId"], order["offerId"]) == (str(bank), choice["bankId"])


@pytest.mark.parametrize("payment_type", ["CREDIT", "LEASING", "INSTALLMENT"])
def test_a_financed_order_without_its_choices_is_a_clear_400(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], payment_type: str
) -> None:
    # Given a body with only the original fields, as before orders carried the deal
    api.login()
    response = api.post(ORDERS, json=order_body(car, paymentTypeId=payment_type, organizationId=str(ObjectId())))
    # Then it is refused naming the missing choices; a CASH order of the same body shape still works
    assert response.status_code == 400, response.text
    field = payment_type.lower()
    assert response.json()["errors"] == [
        {
            "field": f"body.{field}",
            "code": "CHOICES_REQUIRED",
            "message": f"Is required for {payment_type} orders: the choices made on the financing routes",
        }
    ]
    cash = place(api, car)
    assert (cash["amountDueNow"], cash["amountDue"], cash["financing"]) == (PRICE, PRICE, None)


def test_a_promo_code_on_a_financed_order_lowers_what_is_due_now(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    insert_promo_code(db, "MINUS1M", discount_type="FIXED", value=1_000_000)
    api.login()
    order = place(api, car, paymentTypeId="CREDIT", credit=credit_choice(api, car, product), promoCode="minus1m")
    assert (order["discount"], order["amountDue"], order["amountDueNow"]) == (1_000_000, PRICE - 1_000_000, 89_000_000)
    assert order["financing"]["initialPayment"] == 90_000_000  # the bank's figures are the bank's


# Leasing


def test_a_leasing_order_stores_the_figures_the_leasing_calculation_gave(
    api: ApiClient, db: Db, car: CatalogCar
) -> None:
    # Given a leasing program of the brand, and the client's calculation for 30 % down over 36 months
    company = insert_organization(db, "Uzbek Leasing", "LEASING_COMPANY")
    program = insert_leasing_program(db, car.brand_id, company)
    choice = {
        "leasingId": str(program["_id"]),
        "loanTermId": str(program["loanTerms"][2]["_id"]),
        "initialPaymentId": str(program["initialPayments"][1]["_id"]),
    }
    api.login()
    ids = {"carId": str(car.car_id), "modificationId": str(car.modification_id)}
    shown = data(api.post(LEASING_CALCULATE, json={**choice, **ids, "price": PRICE}))
    # When the car is ordered on leasing with those choices
    order = place(api, car, paymentTypeId="LEASING", leasing=choice)
    # Then the order has exactly those figures, and the initial payment is what is due now
    assert {name: order["financing"][name] for name in shown} == shown
    assert (order["organizationId"], order["offerId"]) == (str(company), choice["leasingId"])
    assert order["amountDueNow"] == shown["initialPayment"] == 90_000_000
    # And an option of another program is refused like the calculation refuses it
    other = insert_leasing_program(db, car.brand_id, company)
    foreign = {**choice, "loanTermId": str(other["loanTerms"][0]["_id"])}
    response = api.post(ORDERS, json=order_body(car, paymentTypeId="LEASING", leasing=foreign))
    assert response.status_code == 404
    assert response.json()["code"] == "IDS_DO_NOT_MATCH"
    assert "loanTermId does not belong to the chosen leasingId" in response.text


# Installment


def test_an_installment_order_stores_the_cell_of_the_matrix_it_chose(api: ApiClient, db: Db, car: CatalogCar) -> None:
    # Given an installment plan of the brand (30 % or 50 % down, 6 or 12 months) and its matrix
    provider = insert_organization(db, "Car Retail Nasiya", "INSTALLMENT_PROVIDER")
    plan = insert_installment_plan(db, car.brand_id, provider)
    api.login()
    query = {"brandId": str(car.brand_id), "paymentTypeId": "INSTALLMENT", "modificationId": str(car.modification_id)}
    [shown] = data(api.get(INSTALLMENT, params=query))["items"]
    row = shown["rows"][0]  # 30 % down
    cell = row["cells"][1]  # 12 months, with a mark-up
    # When the client orders the cell they chose
    choice = {"planId": str(plan["_id"]), "initialPercent": 30, "months": 12}
    order = place(api, car, paymentTypeId="INSTALLMENT", installment=choice)
    # Then the order has that cell's figures, and its initial payment is due now
    financing = order["financing"]
    assert {name: financing[name] for name in cell} == cell
    assert financing["initialPayment"] == row["initialPayment"] == order["amountDueNow"] == 90_000_000
    assert (order["organizationId"], order["offerId"]) == (str(provider), choice["planId"])
    # And a row or a term the plan does not have is refused
    for wrong in ({"initialPercent": 40}, {"months": 24}, {"planId": str(ObjectId())}):
        response = api.post(ORDERS, json=order_body(car, paymentTypeId="INSTALLMENT", installment={**choice, **wrong}))
        assert response.status_code == 404, (wrong, response.text)


# The list and the order's page


def test_the_list_answers_every_field_of_each_order_as_its_page_does(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a verified buyer (allowed five unpaid cars here) with a cash order, a credit order, an order of
    # a car whose sale asks its own deposit and hold, and an order with a promo, one of them deposit-paid
    monkeypatch.setenv("ORDER_UNPAID_CARS_PER_PERSON", "5")
    reset_settings()
    sale_car = purchasable_car(db, brand="Sale Rules", prices=(2_000,), sale={"holdMinutes": 15, "depositAmount": 700})
    insert_promo_code(db, "LIST10", discount_type="PERCENT", value=10)
    api.login()
    api.verify()
    cash = place(api, car)
    credit = place(api, car, paymentTypeId="CREDIT", credit=credit_choice(api, car, product, term=1))
    sale = place(api, sale_car)
    promo = place(api, car, promoCode="LIST10")
    assert data(pay_by_card(api, cash, cash["deposit"]))["orderStatus"] == "PARTIALLY_PAID"
    # When they read their list and each order's page
    listed = {item["_id"]: item for item in data(api.get(ORDERS))["items"]}
    # Then every field a line of the list shows is the same on the order's page, for every kind of order
    for order in (cash, credit, sale, promo):
        page = data(api.get(f"{ORDERS}/{order['_id']}"))
        line = listed[order["_id"]]
        assert {name: page[name] for name in line} == line
    # And the deadlines and deposits are the orders' own, not defaults
    assert (listed[sale["_id"]]["deposit"], listed[sale["_id"]]["depositBy"]) == (700, sale["depositBy"])
    assert (listed[cash["_id"]]["depositBy"], listed[cash["_id"]]["payBy"]) == (None, cash["payBy"])
    assert listed[credit["_id"]]["deposit"] == credit["deposit"] > 0
