"""Financing through HTTP: the v2 bank credit chain, payment types, organizations, leasing,
installment matrices and special offers, from real car documents."""

from __future__ import annotations

import ast
import csv
import inspect
import io
from typing import Any

import bson
import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from data.mongo import reset_client
from domain.financing import deals, store
from domain.financing.store import offer_id as offer_id_of
from local.seed import catalog
from local.seed import financing as demo
from ops.__main__ import main as ops_main
from tests.data import CatalogCar, insert_brand, insert_car, purchasable_car
from tests.factories import ApiClient
from tests.financing_data import (
    chain_ids,
    insert_credit_product,
    insert_installment_plan,
    insert_leasing_program,
    insert_organization,
    insert_special_offer,
)
from tools.command_counter import CommandCounter

Db = Database[dict[str, Any]]
BANKS = "/api/v2/payments/banks"
CALCULATE = "/api/v2/payments/banks/calculate"
LEASING_CALCULATE = "/api/v1/payments/leasing/calculate"
GRAPH = "/api/v1/payments/special-offers/graph"
PRICE = 300_000_000


@pytest.fixture
def car(db: Db) -> CatalogCar:
    return purchasable_car(db, prices=(PRICE, 350_000_000))


@pytest.fixture
def product(db: Db, car: CatalogCar) -> dict[str, Any]:
    return insert_credit_product(db, car.brand_id, insert_organization(db, "Kapitalbank"))


def car_query(car: CatalogCar) -> dict[str, str]:
    return {"brandId": str(car.brand_id), "carId": str(car.car_id), "modificationId": str(car.modification_id)}


def data(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


def offer_id(api: ApiClient, car: CatalogCar, product: dict[str, Any]) -> str:
    """The id of the product's offer for the car's first modification, as /banks gives it."""
    items = data(api.get(BANKS, params=car_query(car)))["items"]
    offer: str = next(item["_id"] for item in items if item["bank"]["_id"] == str(product["organizationId"]))
    return offer


# The bank chain


def test_the_bank_chain_walks_from_a_car_to_the_credit_calculation(api: ApiClient, db: Db, car: CatalogCar) -> None:
    # Given a 300,000,000 car whose brand a bank serves at 24 % for 30 % down and 36 months
    bank_id = insert_organization(db, "Hamkorbank")
    insert_credit_product(db, car.brand_id, bank_id)
    # When the client picks each option from the previous step's answer
    banks = data(api.get(BANKS, params=car_query(car)))
    assert banks["total"] == 1
    offer = banks["items"][0]
    assert offer["name"] == "Hamkorbank"
    assert offer["bank"]["_id"] == str(bank_id)
    incomes = data(api.get(f"{BANKS}/income-types", params={"bankId": offer["_id"]}))
    assert [item["slug"] for item in incomes["items"]] == ["SALARIED", "SELF_EMPLOYED"]
    assert incomes["items"][0]["name"] == "Salaried"
    initials = data(api.get(f"{BANKS}/initial-payment", params={"incomeTypeId": incomes["items"][0]["_id"]}))
    assert [(item["name"], item["percent"]) for item in initials["items"]] == [("30%", 30), ("50%", 50)]
    terms = data(api.get(f"{BANKS}/loan-terms", params={"initialPaymentId": initials["items"][0]["_id"]}))
    assert [(item["months"], item["rate"]) for item in terms["items"]] == [(12, 20.0), (36, 24.0)]
    assert terms["items"][1]["name"] == "36 months"
    refunds = data(api.get(f"{BANKS}/refund-types", params={"loanTermId": terms["items"][1]["_id"]}))
    assert [item["slug"] for item in refunds["items"]] == ["ANNUITY", "DIFFERENTIAL"]
    result = data(
        api.get(
            CALCULATE,
            params={
                "bankId": offer["_id"],
                "incomeTypeId": incomes["items"][0]["_id"],
                "initialPaymentId": initials["items"][0]["_id"],
                "loanTermId": terms["items"][1]["_id"],
                "refundTypeId": refunds["items"][0]["_id"],
            },
        )
    )
    # Then it is the worked example: 210,000,000 lent, 8,238,899.05 a month rounded up
    assert result["carPrice"] == PRICE
    assert result["initialPayment"] == 90_000_000
    assert result["loanAmount"] == 210_000_000
    assert result["monthlyPayment"] == 8_238_900
    assert result["rate"] == 24.0
    assert result["termMonths"] == 36
    assert result["refundType"] == "ANNUITY"
    assert result["bank"] == {"_id": str(bank_id), "name": "Hamkorbank", "logo": None}
    schedule = result["schedule"]
    assert len(schedule) == 36
    assert set(schedule[0]) == {"month", "payment", "principal", "interest", "balance"}
    assert sum(row["principal"] for row in schedule) == 210_000_000
    assert schedule[-1]["balance"] == 0
    assert result["totalInterest"] == sum(row["interest"] for row in schedule)
    assert result["totalPayment"] == 210_000_000 + result["totalInterest"]


def test_differential_calculation_pays_most_in_the_first_month(
    api: ApiClient, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given the 30 %, 36 months, differential path of the product
    ids = chain_ids(product, initial=0, term=1, refund=1)
    # When calculated
    result = data(api.get(CALCULATE, params={"bankId": offer_id(api, car, product), **ids}))
    # Then the first month is L/n + L·i = 10,033,333.33 by hand (the share rounded up)
    assert result["refundType"] == "DIFFERENTIAL"
    assert result["monthlyPayment"] == result["schedule"][0]["payment"] == 10_033_334
    assert result["schedule"][-1]["payment"] == 5_949_976
    assert abs(result["totalInterest"] - 77_700_000) <= 36


def test_an_instance_keeping_a_brands_financing_answers_as_one_reading_it_afresh(
    api: ApiClient, db: Db, car: CatalogCar, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two banks' credit products for the car's brand, and what a calculation of each and /banks
    # answer when nothing is cached (the tests' default)
    products = [
        insert_credit_product(db, car.brand_id, insert_organization(db, "Kapitalbank")),
        insert_credit_product(db, car.brand_id, insert_organization(db, "Hamkorbank"), rates={20: {24: 2600}}),
    ]

    def calculation(product: dict[str, Any]) -> Any:
        bank_offer = str(offer_id_of(product["_id"], car.modification_id))
        return data(api.get(CALCULATE, params={"bankId": bank_offer, **chain_ids(product)}))

    afresh = [calculation(product) for product in products], data(api.get(BANKS, params=car_query(car)))
    assert [result["rate"] for result in afresh[0]] == [20.0, 26.0]
    # When an instance keeping reference data for a minute calculates the second product, then the first,
    # then lists the banks, then calculates the second again
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    from core.settings import reset_settings

    reset_settings()
    second = calculation(products[1])
    first = calculation(products[0])
    banks = data(api.get(BANKS, params=car_query(car)))
    again = calculation(products[1])
    # Then every answer is the one given afresh
    assert ([first, second], banks) == afresh
    assert again == second


def test_banks_gives_the_same_stored_offer_ids_on_every_call_and_writes_nothing(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given the product's offers, stored with the financing data: one per modification of the car
    stored = list(db.bank_offers.find({}).sort("_id", 1))
    assert len(stored) == len(car.modification_ids)
    # When /banks is asked twice
    first = data(api.get(BANKS, params=car_query(car)))
    second = data(api.get(BANKS, params=car_query(car)))
    # Then it answers the same stored offer, and the offers are as they were
    assert first == second
    assert first["items"][0]["_id"] in {str(offer["_id"]) for offer in stored}
    assert list(db.bank_offers.find({}).sort("_id", 1)) == stored
    other = data(api.get(BANKS, params={**car_query(car), "modificationId": str(car.modification_ids[1])}))
    assert other["items"][0]["_id"] != first["items"][0]["_id"]
    assert other["items"][0]["price"] == 350_000_000


def test_a_car_added_later_is_offered_once_an_operator_stores_its_bank_offers(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a new car of the brand, added after the credit product and its offers
    later = insert_car(db, car.brand_id, name="Tracker")
    query = {**car_query(car), "carId": str(later["_id"]), "modificationId": str(later["modifications"][0]["_id"])}
    assert data(api.get(BANKS, params=query))["items"] == []
    capsys.readouterr()
    # When the operator stores the missing offers, twice
    assert ops_main(["bank-offers"]) == 0
    assert ops_main(["bank-offers"]) == 0
    # Then /banks offers the bank for the new car, and the second run had nothing left to store
    items = data(api.get(BANKS, params=query))["items"]
    assert [item["bank"]["_id"] for item in items] == [str(product["organizationId"])]
    assert capsys.readouterr().out.splitlines() == ["bank offers created: 2", "bank offers created: 0"]


def test_calculate_uses_the_current_price_not_the_price_when_the_offer_was_made(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given an offer made at 300,000,000
    bank_offer = offer_id(api, car, product)
    # When the modification's price changes, then the credit is calculated
    db.cars.update_one({"modifications._id": car.modification_id}, {"$set": {"modifications.$.price": 400_000_000}})
    result = data(api.get(CALCULATE, params={"bankId": bank_offer, **chain_ids(product, term=1)}))
    # Then it is on the new price
    assert result["carPrice"] == 400_000_000
    assert result["loanAmount"] == 280_000_000


@pytest.mark.parametrize(
    "link",
    [
        ("incomeTypeId", "bankId"),
        ("initialPaymentId", "incomeTypeId"),
        ("loanTermId", "initialPaymentId"),
        ("refundTypeId", "loanTermId"),
    ],
)
def test_calculate_refuses_an_id_that_does_not_belong_to_the_previous_choice(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any], link: tuple[str, str]
) -> None:
    field, parent = link
    # Given a valid path, and the same kind of id from another branch of the tree
    ids = chain_ids(product, term=1)
    other_path = {
        "incomeTypeId": chain_ids(insert_credit_product(db, car.brand_id, insert_organization(db, "Asakabank"))),
        "initialPaymentId": chain_ids(product, income=1),
        "loanTermId": chain_ids(product, initial=1),
        "refundTypeId": chain_ids(product, term=0),
    }[field]
    # When calculate gets that one mismatched id
    response = api.get(CALCULATE, params={"bankId": offer_id(api, car, product), **ids, field: other_path[field]})
    # Then it is 404 saying which id does not belong to which choice
    assert response.status_code == 404
    body = response.json()
    assert body["message"] == f"{field} does not belong to the chosen {parent}"
    assert body["details"] == {"field": field, "parent": parent}


def test_the_path_a_calculation_reads_is_the_one_a_walk_of_the_whole_product_finds(
    db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given a product of 2 income types x 2 initial payments x 2 terms x 2 refund types, and its offer
    bank_offer = str(offer_id_of(product["_id"], car.modification_id))
    paths = [
        chain_ids(product, income=income, initial=initial, term=term, refund=refund)
        for income in range(2)
        for initial in range(2)
        for term in range(2)
        for refund in range(2)
    ]
    for path in paths:
        ids = [ObjectId(path[field]) for field, _ in deals.CHAIN]
        # When the server walks each path (`store.offer_choice`) and Python walks the whole product
        choice = store.offer_choice(bank_offer, ids)
        walked: list[Any] = []
        node: Any = product
        for (level, fields), node_id in zip(store.CREDIT_PATH, ids, strict=True):
            node = next(item for item in node[level] if item["_id"] == node_id)
            walked.append({field: node[field] for field in fields})
        # Then both find the same nodes, with the fields a calculation reads of them, and the product's bank
        assert choice is not None
        assert (choice.path, choice.organization_id) == (walked, product["organizationId"])
        assert choice.offer["productId"] == product["_id"]
        # And an id of another branch of the tree is not found, nor anything below it
        for depth in range(1, 4):
            elsewhere = next(
                other for other in paths if other[deals.CHAIN[depth - 1][0]] != path[deals.CHAIN[depth - 1][0]]
            )
            astray = [*ids[:depth], ObjectId(elsewhere[deals.CHAIN[depth][0]]), *ids[depth + 1 :]]
            refused = store.offer_choice(bank_offer, astray)
            assert refused is not None
            assert refused.path == [*walked[:depth], *[None] * (4 - depth)]


def test_the_lookup_offer_choice_documents_is_the_one_it_sends(
    db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given the $lookup stage written out in `store.offer_choice`'s docstring
    doc = inspect.getdoc(store.offer_choice) or ""
    written = ast.literal_eval(doc[doc.index('{"$lookup"') : doc.index("with `$$ids`")].strip())
    # When a credit's choice is read, its commands watched
    counter = CommandCounter()
    reset_client(event_listeners=[counter])
    try:
        with counter.counting() as counts:
            store.offer_choice(str(offer_id_of(product["_id"], car.modification_id)), [ObjectId()] * 4)
    finally:
        reset_client()
    # Then it is one command, and its $lookup is the one written out
    [command] = counts.commands
    pipeline: Any = command["pipeline"]
    assert bson.decode(bson.encode(pipeline[1])) == written


def test_a_calculation_of_a_withdrawn_product_bank_or_unknown_offer_is_not_found(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given a calculable offer
    query = {"bankId": str(offer_id_of(product["_id"], car.modification_id)), **chain_ids(product)}
    assert api.get(CALCULATE, params=query).status_code == 200
    # When its bank is withdrawn, then its product (the bank back), or an offer nobody knows is asked
    db.organizations.update_one({"_id": product["organizationId"]}, {"$set": {"active": False}})
    no_bank = api.get(CALCULATE, params=query)
    db.organizations.update_one({"_id": product["organizationId"]}, {"$set": {"active": True}})
    db.credit_products.update_one({"_id": product["_id"]}, {"$set": {"active": False}})
    no_product = api.get(CALCULATE, params=query)
    unknown = api.get(CALCULATE, params={**query, "bankId": str(ObjectId())})
    # Then each is 404: the offer is not found
    assert [response.status_code for response in (no_bank, no_product, unknown)] == [404] * 3
    assert {response.json()["code"] for response in (no_bank, no_product, unknown)} == {"BANK_OFFER_NOT_FOUND"}


def test_a_credit_product_moved_to_another_brand_no_longer_calculates_its_offers(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given an offer of the car's brand, whose product an operator then gives another brand
    query = {"bankId": str(offer_id_of(product["_id"], car.modification_id)), **chain_ids(product)}
    db.credit_products.update_one({"_id": product["_id"]}, {"$set": {"brandId": insert_brand(db, "Kia")}})
    # When the offer is calculated
    response = api.get(CALCULATE, params=query)
    # Then it is not found, as the brand's products no longer hold it
    assert (response.status_code, response.json()["code"]) == (404, "BANK_OFFER_NOT_FOUND")


@pytest.mark.parametrize(
    ("path", "param", "wrong_level"),
    [
        ("income-types", "bankId", "incomeTypeId"),
        ("initial-payment", "incomeTypeId", "initialPaymentId"),
        ("loan-terms", "initialPaymentId", "loanTermId"),
        ("refund-types", "loanTermId", "refundTypeId"),
        ("income-types", "bankId", None),
        ("refund-types", "loanTermId", None),
    ],
)
def test_a_step_refuses_an_id_that_is_not_of_its_previous_step(
    api: ApiClient, product: dict[str, Any], path: str, param: str, wrong_level: str | None
) -> None:
    # Given an id of another level of the tree, or an id nobody knows
    wrong = chain_ids(product)[wrong_level] if wrong_level else str(ObjectId())
    # Then the step does not find it
    response = api.get(f"{BANKS}/{path}", params={param: wrong})
    assert response.status_code == 404, response.text


def test_a_step_of_a_withdrawn_product_is_not_found(api: ApiClient, db: Db, product: dict[str, Any]) -> None:
    # Given a credit product its bank has withdrawn, and a client holding the id of one of its initial payments
    initial_payment_id = chain_ids(product)["initialPaymentId"]
    db.credit_products.update_one({"_id": product["_id"]}, {"$set": {"active": False}})
    # When the client asks for that initial payment's loan terms, in each language
    answers = {
        language: api.get(
            f"{BANKS}/loan-terms",
            params={"initialPaymentId": initial_payment_id},
            headers={"Accept-Language": language},
        )
        for language in ("en", "ru", "uz")
    }
    # Then the step is not found, and says which one in the caller's language
    assert {response.status_code for response in answers.values()} == {404}
    assert {response.json()["code"] for response in answers.values()} == {"FINANCING_STEP_NOT_FOUND"}
    assert {language: response.json()["message"] for language, response in answers.items()} == {
        "en": "Initial payment not found",
        "ru": "Шаг «Первоначальный взнос» не найден",
        "uz": "«Boshlangʻich toʻlov» bosqichi topilmadi",
    }


def test_banks_refuses_a_car_brand_and_modification_that_do_not_belong_together(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    other_brand = insert_brand(db, "Kia")
    other_car = insert_car(db, other_brand, name="K5")
    for query in (
        {**car_query(car), "brandId": str(other_brand)},
        {**car_query(car), "carId": str(other_car["_id"])},
        {**car_query(car), "modificationId": str(other_car["modifications"][0]["_id"])},
        {**car_query(car), "modificationId": str(ObjectId())},
    ):
        assert api.get(BANKS, params=query).status_code == 404, query


def test_malformed_ids_are_400_naming_the_field(api: ApiClient) -> None:
    response = api.get(CALCULATE, params={"bankId": "nope"})
    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert {"query.bankId", "query.incomeTypeId", "query.refundTypeId"} <= fields


def test_a_bank_chain_step_is_public_and_the_v1_routes_need_a_token(api: ApiClient, car: CatalogCar) -> None:
    assert api.get(BANKS, params=car_query(car)).status_code == 200
    assert (
        api.get("/api/v1/payments/organizations", params={"brandId": str(car.brand_id), "slug": "CREDIT"}).status_code
        == 401
    )


def test_an_inactive_product_offers_nothing(api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]) -> None:
    bank_offer = offer_id(api, car, product)
    db.credit_products.update_one({"_id": product["_id"]}, {"$set": {"active": False}})
    assert data(api.get(BANKS, params=car_query(car)))["total"] == 0
    assert api.get(f"{BANKS}/income-types", params={"bankId": bank_offer}).status_code == 404


# Payment types and organizations


def test_payment_types_are_the_cars_types_that_are_really_offered(api: ApiClient, db: Db, car: CatalogCar) -> None:
    # Given a car sold in every way, whose brand has a bank and a leasing company but no installment plan
    insert_credit_product(db, car.brand_id, insert_organization(db, "Kapitalbank"))
    insert_leasing_program(db, car.brand_id, insert_organization(db, "Silk Road Leasing", "LEASING_COMPANY"))
    api.login()
    # When the client asks which payment types it can use
    query = {"modificationId": str(car.modification_id), "brandId": str(car.brand_id)}
    result = data(api.get("/api/v2/payments/types", params=query))
    # Then cash, credit and leasing, named in the client's language
    assert result["items"] == [
        {"slug": "CASH", "name": "Cash"},
        {"slug": "CREDIT", "name": "Bank credit"},
        {"slug": "LEASING", "name": "Leasing"},
    ]
    # And a car sold only for cash and by installment has only cash
    cash_only = insert_car(db, car.brand_id, name="Spark", payment_types=("CASH", "INSTALLMENT"))
    query = {"modificationId": str(cash_only["modifications"][0]["_id"]), "brandId": str(car.brand_id)}
    assert [item["slug"] for item in data(api.get("/api/v2/payments/types", params=query))["items"]] == ["CASH"]
    # And a brand that is not the car's is 404
    assert api.get("/api/v2/payments/types", params={**query, "brandId": str(ObjectId())}).status_code == 404


def test_organizations_serving_a_brand_for_each_payment_type(api: ApiClient, db: Db, car: CatalogCar) -> None:
    bank = insert_organization(db, "Kapitalbank")
    company = insert_organization(db, "Orient Leasing", "LEASING_COMPANY")
    insert_credit_product(db, car.brand_id, bank)
    insert_leasing_program(db, car.brand_id, company)
    insert_credit_product(db, insert_brand(db, "Kia"), insert_organization(db, "Asakabank"))
    api.login()

    def names(slug: str) -> list[str]:
        response = api.get("/api/v1/payments/organizations", params={"brandId": str(car.brand_id), "slug": slug})
        return [item["name"] for item in data(response)["items"]]

    assert names("CREDIT") == ["Kapitalbank"]
    assert names("LEASING") == ["Orient Leasing"]
    assert names("INSTALLMENT") == []
    assert names("CASH") == []
    bad = api.get("/api/v1/payments/organizations", params={"brandId": str(car.brand_id), "slug": "BARTER"})
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "query.slug"
    unknown = api.get("/api/v1/payments/organizations", params={"brandId": str(ObjectId()), "slug": "CREDIT"})
    assert unknown.status_code == 404


def test_rendered_financing_lists_follow_an_operators_change_within_the_cache_lifetime(
    api: ApiClient, db: Db, car: CatalogCar, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an instance keeping reference data for a minute, a bank and a leasing company serving the
    # car's brand, and the lists it renders of them, in two languages
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    from core.settings import reset_settings

    reset_settings()
    bank = insert_organization(db, "Kapitalbank")
    company = insert_organization(db, "Orient Leasing", "LEASING_COMPANY")
    insert_credit_product(db, car.brand_id, bank)
    insert_leasing_program(db, car.brand_id, company, name={"en": "Lease", "ru": "Лизинг", "uz": "Lizing"})
    api.login()
    brand = str(car.brand_id)
    types_query = {"modificationId": str(car.modification_id), "brandId": brand}

    def seen(language: str) -> tuple[list[str], list[str], list[str]]:
        headers = {"accept-language": language}
        leasing = data(
            api.get(
                "/api/v1/payments/leasing", params={"brandId": brand, "organizationId": str(company)}, headers=headers
            )
        )
        organizations = data(
            api.get("/api/v1/payments/organizations", params={"brandId": brand, "slug": "LEASING"}, headers=headers)
        )
        types = data(api.get("/api/v2/payments/types", params=types_query, headers=headers))
        return (
            [f"{item['name']} / {item['organization']['name']}" for item in leasing["items"]],
            [item["name"] for item in organizations["items"]],
            [item["slug"] for item in types["items"]],
        )

    assert seen("en") == (["Lease / Orient Leasing"], ["Orient Leasing"], ["CASH", "CREDIT", "LEASING"])
    assert seen("ru") == (["Лизинг / Orient Leasing"], ["Orient Leasing"], ["CASH", "CREDIT", "LEASING"])
    # When an operator renames the company and withdraws the bank
    db.organizations.update_one({"_id": company}, {"$set": {"name": "Orient Leasing Group"}})
    db.organizations.update_one({"_id": bank}, {"$set": {"active": False}})
    # Then the lists stay as they were within the lifetime, and follow the change once it is over
    assert seen("en")[1] == ["Orient Leasing"]
    frozen_clock.advance(61)
    after = (["Lease / Orient Leasing Group"], ["Orient Leasing Group"], ["CASH", "LEASING"])
    assert seen("en") == after
    assert seen("ru") == (["Лизинг / Orient Leasing Group"], *after[1:])


# Leasing


@pytest.fixture
def program(db: Db, car: CatalogCar) -> dict[str, Any]:
    return insert_leasing_program(db, car.brand_id, insert_organization(db, "Uzbek Leasing", "LEASING_COMPANY"))


def leasing_body(car: CatalogCar, program: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    return {
        "leasingId": str(program["_id"]),
        "carId": str(car.car_id),
        "modificationId": str(car.modification_id),
        "loanTermId": str(program["loanTerms"][2]["_id"]),  # 36 months
        "initialPaymentId": str(program["initialPayments"][1]["_id"]),  # 30 %
        "price": PRICE,
        **overrides,
    }


def test_leasing_programs_of_a_company_for_a_brand(api: ApiClient, car: CatalogCar, program: dict[str, Any]) -> None:
    api.login()
    query = {"brandId": str(car.brand_id), "organizationId": str(program["organizationId"])}
    result = data(api.get("/api/v1/payments/leasing", params=query))
    assert result["total"] == 1
    item = result["items"][0]
    assert item["_id"] == str(program["_id"])
    assert [term["months"] for term in item["loanTerms"]] == [12, 24, 36]
    assert [initial["percent"] for initial in item["initialPayments"]] == [20, 30]
    assert (item["rate"], item["markupPercent"], item["buyoutPercent"], item["monthlyFee"]) == (
        22.0,
        5.0,
        10.0,
        150_000,
    )
    assert api.get("/api/v1/payments/leasing", params={**query, "organizationId": str(ObjectId())}).status_code == 404


def test_leasing_calculate_totals_the_initial_payment_lease_payments_fees_and_buyout(
    api: ApiClient, car: CatalogCar, program: dict[str, Any]
) -> None:
    api.login()
    result = data(api.post(LEASING_CALCULATE, json=leasing_body(car, program)))
    # 30 % down, +5 % mark-up on the rest, 22 % a year for 36 months down to a 10 % buyout
    assert result["initialPayment"] == 90_000_000
    assert result["financedAmount"] == 220_500_000
    assert result["buyout"] == 30_000_000
    assert result["contractFee"] == 3_000_000
    assert result["monthlyPayment"] > 150_000
    assert result["totalCarPrice"] == 90_000_000 + 3_000_000 + result["leasePayments"] + 30_000_000
    assert result["totalCarPrice"] > PRICE


def test_leasing_calculate_with_a_stale_price_is_409_with_the_current_price(
    api: ApiClient, car: CatalogCar, program: dict[str, Any]
) -> None:
    api.login()
    response = api.post(LEASING_CALCULATE, json=leasing_body(car, program, price=PRICE - 1))
    assert response.status_code == 409
    assert response.json()["details"]["currentPrice"] == PRICE


def test_leasing_calculate_refuses_options_of_another_program_or_brand(
    api: ApiClient, db: Db, car: CatalogCar, program: dict[str, Any]
) -> None:
    api.login()
    other = insert_leasing_program(db, car.brand_id, program["organizationId"])
    foreign = insert_leasing_program(db, insert_brand(db, "Kia"), program["organizationId"])
    for overrides, code in (
        ({"loanTermId": str(other["loanTerms"][0]["_id"])}, "IDS_DO_NOT_MATCH"),
        ({"initialPaymentId": str(other["initialPayments"][0]["_id"])}, "IDS_DO_NOT_MATCH"),
        ({"leasingId": str(foreign["_id"])}, "PRODUCT_NOT_FOR_BRAND"),
        ({"modificationId": str(ObjectId())}, "MODIFICATION_NOT_FOUND"),
        ({"leasingId": str(ObjectId())}, "LEASING_PROGRAM_NOT_FOUND"),
    ):
        response = api.post(LEASING_CALCULATE, json=leasing_body(car, program, **overrides))
        assert response.status_code == 404, overrides
        assert response.json()["code"] == code, overrides
    missing = api.post(LEASING_CALCULATE, json={"price": "lots"})
    assert missing.status_code == 400
    assert {"body.leasingId", "body.price"} <= {error["field"] for error in missing.json()["errors"]}


# Installment


def test_installment_matrix_for_the_modifications_price(api: ApiClient, db: Db, car: CatalogCar) -> None:
    insert_installment_plan(db, car.brand_id, insert_organization(db, "Dealer", "INSTALLMENT_PROVIDER"))
    api.login()
    query = {"brandId": str(car.brand_id), "paymentTypeId": "INSTALLMENT", "modificationId": str(car.modification_id)}
    result = data(api.get("/api/v1/payments/installment", params=query))
    assert result["price"] == PRICE
    plan = result["items"][0]
    assert plan["terms"] == [6, 12]
    first_row = plan["rows"][0]
    assert (first_row["initialPercent"], first_row["initialPayment"]) == (30, 90_000_000)
    # The 0 % cell is the rest over the months; the 6 % cell adds the mark-up first
    assert first_row["cells"][0] == {
        "months": 6,
        "markupPercent": 0.0,
        "monthlyPayment": 35_000_000,
        "totalPayment": PRICE,
    }
    assert first_row["cells"][1]["monthlyPayment"] == 18_550_000  # 210,000,000 * 1.06 / 12
    wrong_type = api.get("/api/v1/payments/installment", params={**query, "paymentTypeId": "CREDIT"})
    assert wrong_type.status_code == 400
    other_brand = api.get("/api/v1/payments/installment", params={**query, "brandId": str(ObjectId())})
    assert other_brand.status_code == 404


def test_a_car_sold_by_credit_and_installment_lists_nothing_while_its_brands_only_companies_are_inactive(
    api: ApiClient, db: Db, car: CatalogCar
) -> None:
    # Given a car listing CREDIT and INSTALLMENT, whose brand's only bank and provider are inactive
    insert_credit_product(db, car.brand_id, insert_organization(db, "Kapitalbank", active=False))
    insert_installment_plan(db, car.brand_id, insert_organization(db, "Dealer", "INSTALLMENT_PROVIDER", active=False))
    db.cars.update_one({"_id": car.car_id}, {"$set": {"paymentTypes": ["CASH", "CREDIT", "INSTALLMENT"]}})
    api.login()
    # When its bank offers, installment matrix and payment types are asked for
    query = {"brandId": str(car.brand_id), "paymentTypeId": "INSTALLMENT", "modificationId": str(car.modification_id)}
    matrix = data(api.get("/api/v1/payments/installment", params=query))
    banks = data(api.get(BANKS, params=car_query(car)))
    types = data(
        api.get(
            "/api/v2/payments/types", params={"brandId": query["brandId"], "modificationId": query["modificationId"]}
        )
    )
    # Then neither is offered: the lists are empty, as the payment types say
    assert (matrix["items"], matrix["total"]) == ([], 0)
    assert (banks["items"], banks["total"]) == ([], 0)
    assert [item["slug"] for item in types["items"]] == ["CASH"]


# Special offers


def test_special_bank_and_leasing_offers_of_a_car(api: ApiClient, db: Db, car: CatalogCar) -> None:
    bank = insert_organization(db, "Kapitalbank")
    company = insert_organization(db, "Silk Road Leasing", "LEASING_COMPANY")
    insert_credit_product(db, car.brand_id, bank)  # the car is sold on credit and by leasing
    insert_leasing_program(db, car.brand_id, company)
    insert_special_offer(
        db, "BANK", car.car_id, bank, {"initialPercent": 30, "months": 36, "rateBp": 2400, "refundType": "ANNUITY"}
    )
    insert_special_offer(
        db,
        "BANK",
        car.car_id,
        bank,
        {"initialPercent": 50, "months": 12, "rateBp": 0, "refundType": "ANNUITY"},
        modificationIds=[car.modification_ids[1]],
    )
    insert_special_offer(db, "LEASING", car.car_id, company, {"initialPercent": 20, "months": 24, "rateBp": 0})
    api.login()
    query = {"carId": str(car.car_id), "modificationId": str(car.modification_id)}
    banks = data(api.get("/api/v1/payments/special-offers", params=query))
    # Only the offer for every modification applies to the first one, priced on it
    assert banks["total"] == 1
    offer = banks["items"][0]
    assert offer["organization"]["name"] == "Kapitalbank"
    assert offer["terms"] == {"initialPercent": 30, "months": 36, "rate": 24.0, "refundType": "ANNUITY"}
    assert offer["monthlyPayment"] == 8_238_900
    leasing = data(api.get("/api/v1/payments/special-offers/leasing", params=query))
    assert leasing["items"][0]["monthlyPayment"] == 10_000_000  # 80 % of the price over 24 months, at 0 %
    assert leasing["items"][0]["totalCarPrice"] == PRICE


def test_offer_graph_gives_the_schedule_and_a_file_that_downloads(api: ApiClient, db: Db, car: CatalogCar) -> None:
    company = insert_organization(db, "Silk Road Leasing", "LEASING_COMPANY")
    insert_leasing_program(db, car.brand_id, company)
    offer = insert_special_offer(
        db,
        "LEASING",
        car.car_id,
        company,
        {"initialPercent": 20, "months": 24, "rateBp": 1500, "buyoutBp": 1000, "monthlyFee": 50_000},
    )
    api.login()
    query = {"carId": str(car.car_id), "modificationId": str(car.modification_id), "offerId": str(offer["_id"])}
    result = data(api.get(GRAPH, params=query))
    assert len(result["schedule"]) == 24
    assert result["schedule"][-1]["balance"] == 30_000_000  # the buyout
    assert result["schedule"][0]["payment"] == result["offer"]["monthlyPayment"]
    # When the file link, an absolute URL under the address the API was called at, is followed
    assert result["file"].startswith(f"{api.base_url}{GRAPH}?")
    download = api.get(result["file"].removeprefix(api.base_url))
    # Then it is the same schedule as CSV
    assert download.status_code == 200
    assert download.headers["Content-Type"].startswith("text/csv")
    assert "attachment" in download.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(download.text)))
    assert [int(row["payment"]) for row in rows] == [row["payment"] for row in result["schedule"]]
    # And an offer of another car is not this car's
    other = purchasable_car(db, brand="Kia", name="K5")
    response = api.get(
        GRAPH, params={**query, "carId": str(other.car_id), "modificationId": str(other.modification_id)}
    )
    assert response.status_code == 404


# The demo seed


def test_the_documented_demo_ids_walk_the_whole_credit_chain(seeded_api: ApiClient) -> None:
    # Given the demo data, and its Chevrolet demo car (the first Chevrolet car by slug) and that car's
    # first modification, as docs/DATA_MODEL.md names them
    api = seeded_api
    brand_slug = "chevrolet"
    car = min((doc for doc in catalog.car_docs() if doc["slug"].startswith(f"{brand_slug}-")), key=lambda c: c["slug"])
    modification = car["modifications"][0]
    # When the documented ids are calculated (30 % down, 36 months, annuity)
    bank_offer = str(offer_id_of(demo.credit_product_id("kapitalbank", brand_slug), modification["_id"]))
    node = demo.credit_node_id
    result = data(
        api.get(
            CALCULATE,
            params={
                "bankId": bank_offer,
                "incomeTypeId": str(node("kapitalbank", brand_slug, "SALARIED")),
                "initialPaymentId": str(node("kapitalbank", brand_slug, "SALARIED", 30)),
                "loanTermId": str(node("kapitalbank", brand_slug, "SALARIED", 30, 36)),
                "refundTypeId": str(node("kapitalbank", brand_slug, "SALARIED", 30, 36, "ANNUITY")),
            },
        )
    )
    # Then the chain holds, and /banks gives the same offer among one per bank
    assert result["loanAmount"] == modification["price"] * 70 // 100
    query = {"carId": str(car["_id"]), "modificationId": str(modification["_id"]), "brandId": str(car["brandId"])}
    banks = data(api.get(BANKS, params=query))
    assert banks["total"] == len(demo.BANKS)
    assert bank_offer in {item["_id"] for item in banks["items"]}
    # And the car's special offers are there
    api.login()
    offers = {"carId": str(car["_id"]), "modificationId": str(modification["_id"])}
    assert data(api.get("/api/v1/payments/special-offers", params=offers))["total"] >= 1


# Financing only for cars sold that way


def test_financing_of_a_car_not_sold_that_way_is_not_offered(
    api: ApiClient, db: Db, car: CatalogCar, product: dict[str, Any]
) -> None:
    # Given a brand served by a bank and a leasing company, and a car of it sold for cash only
    company = insert_organization(db, "Silk Road Leasing", "LEASING_COMPANY")
    program = insert_leasing_program(db, car.brand_id, company)
    cash_only = insert_car(db, car.brand_id, name="Spark", payment_types=("CASH",))
    modification = cash_only["modifications"][0]
    credit_terms = {"initialPercent": 30, "months": 36, "rateBp": 2400, "refundType": "ANNUITY"}
    insert_special_offer(db, "BANK", cash_only["_id"], product["organizationId"], credit_terms)
    leasing_terms = {"initialPercent": 20, "months": 24, "rateBp": 0}
    leasing_offer = insert_special_offer(db, "LEASING", cash_only["_id"], company, leasing_terms)
    api.login()
    query = {"carId": str(cash_only["_id"]), "modificationId": str(modification["_id"])}
    # Then the listings are empty
    banks = data(api.get(BANKS, params={**query, "brandId": str(car.brand_id)}))
    assert banks["total"] == 0
    assert data(api.get("/api/v1/payments/special-offers", params=query))["total"] == 0
    assert data(api.get("/api/v1/payments/special-offers/leasing", params=query))["total"] == 0
    # And a calculation or schedule of that financing is 404 naming what the car is sold by
    leasing = api.post(
        LEASING_CALCULATE,
        json={
            **query,
            "leasingId": str(program["_id"]),
            "loanTermId": str(program["loanTerms"][0]["_id"]),
            "initialPaymentId": str(program["initialPayments"][0]["_id"]),
            "price": modification["price"],
        },
    )
    assert leasing.status_code == 404, leasing.text
    assert leasing.json()["details"] == {"paymentType": "LEASING", "offered": ["CASH"]}
    graph = api.get(GRAPH, params={**query, "offerId": str(leasing_offer["_id"])})
    assert graph.status_code == 404, graph.text
    # And a bank offer made while the car was sold on credit no longer calculates
    bank_offer = offer_id(api, car, product)
    db.cars.update_one({"_id": car.car_id}, {"$set": {"paymentTypes": ["CASH"]}})
    calculated = api.get(CALCULATE, params={"bankId": bank_offer, **chain_ids(product)})
    assert calculated.status_code == 404, calculated.text
    assert calculated.json()["details"]["paymentType"] == "CREDIT"


def test_a_rendered_list_shows_a_renamed_company_once_the_organizations_are_read_again(
    api: ApiClient, db: Db, car: CatalogCar, frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an instance keeping reference data for a minute, which read the organizations for another brand
    # first, and the car's brand's financing half a minute later, with its leasing list
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    from core.settings import reset_settings

    reset_settings()
    company = insert_organization(db, "Orient Leasing", "LEASING_COMPANY")
    insert_leasing_program(db, car.brand_id, company)
    other_brand = insert_brand(db, "Kia")
    insert_credit_product(db, other_brand, insert_organization(db, "Asakabank"))
    api.login()
    data(api.get("/api/v1/payments/organizations", params={"brandId": str(other_brand), "slug": "CREDIT"}))
    frozen_clock.advance(30)
    query = {"brandId": str(car.brand_id), "organizationId": str(company)}

    def company_names() -> list[str]:
        return [
            item["organization"]["name"] for item in data(api.get("/api/v1/payments/leasing", params=query))["items"]
        ]

    assert company_names() == ["Orient Leasing"]
    # When an operator renames the company, and the organizations' lifetime ends before the brand's financing's
    db.organizations.update_one({"_id": company}, {"$set": {"name": "Orient Leasing Group"}})
    frozen_clock.advance(31)
    # Then the list shows the new name: it is never older than the organizations it names
    assert company_names() == ["Orient Leasing Group"]
