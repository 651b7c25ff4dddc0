"""A bank credit as the calculation and orders price it (`domain.financing.deals.credit_deal`), over
stores held in memory: the chain's ids must follow the offer's tree, the car must be sold on credit,
and the price is the modification's current one."""

from __future__ import annotations

import pytest
from bson import ObjectId

from core.errors import NotFound
from domain.financing.deals import CreditDeal, credit_deal
from domain.orders.requests import CreditRequest
from tests.unit.fake_stores import PRICE, Shop


def priced(chain: CreditRequest) -> CreditDeal:
    return credit_deal(
        chain.offer_id, chain.income_type_id, chain.initial_payment_id, chain.loan_term_id, chain.refund_type_id
    )


@pytest.fixture
def shop(monkeypatch: pytest.MonkeyPatch) -> Shop:
    return Shop().install(monkeypatch)


def test_the_chosen_path_is_priced_on_the_current_price(shop: Shop) -> None:
    # Given the chain's ids of 30 % down, 36 months at 24 %, annuity
    # When the credit is priced
    deal = priced(shop.chain())
    # Then the bank lends 70 % of the price over 36 months, reading the offer's car once
    figures = deal.figures()
    assert (figures.carPrice, figures.initialPayment, figures.loanAmount) == (PRICE, 90_000_000, 210_000_000)
    assert (figures.termMonths, figures.rate, figures.refundType) == (36, 24.0, "ANNUITY")
    assert deal.bank["_id"] == shop.bank_id
    assert shop.car_reads == {"find_car_of_modification": 1}


def test_a_changed_price_is_what_the_credit_is_priced_on(shop: Shop) -> None:
    # Given the dealer raised the modification's price after the client saw the offer
    shop.prices[shop.modification_id] = 320_000_000
    # When the credit is priced
    figures = priced(shop.chain()).figures()
    # Then it is priced on the new price
    assert (figures.carPrice, figures.initialPayment) == (320_000_000, 96_000_000)


@pytest.mark.parametrize(
    ("field", "parent"),
    [
        ("income_type_id", "bankId"),
        ("initial_payment_id", "incomeTypeId"),
        ("loan_term_id", "initialPaymentId"),
        ("refund_type_id", "loanTermId"),
    ],
)
def test_an_id_that_does_not_follow_the_tree_is_named(shop: Shop, field: str, parent: str) -> None:
    # Given the chain's ids with one of another product
    chain = shop.chain(**{field: ObjectId()})
    # When the credit is priced
    with pytest.raises(NotFound) as refused:
        priced(chain)
    # Then the refusal names that id and the choice it does not belong to
    camel = "".join(word.capitalize() if n else word for n, word in enumerate(field.split("_")))
    assert (refused.value.code, refused.value.params) == ("IDS_DO_NOT_MATCH", {"field": camel, "parent": parent})
    assert refused.value.details == {"field": camel, "parent": parent}


def test_an_unknown_bank_offer_is_not_found(shop: Shop) -> None:
    with pytest.raises(NotFound, match="BANK_OFFER_NOT_FOUND"):
        priced(shop.chain(offer_id=ObjectId()))


def test_a_car_not_sold_on_credit_has_no_credit(shop: Shop) -> None:
    # Given a car now sold for cash only
    shop.payment_types = ["CASH"]
    # When its credit is priced
    with pytest.raises(NotFound) as refused:
        priced(shop.chain())
    # Then it is refused, saying how the car is sold
    assert refused.value.code == "PAYMENT_TYPE_NOT_SOLD"
    assert refused.value.details == {"paymentType": "CREDIT", "offered": ["CASH"]}


def test_an_offer_of_a_modification_no_longer_sold_is_not_found(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the offer's modification was removed from the catalog
    monkeypatch.setattr(shop, "car", lambda: {**Shop.car(shop), "modifications": []})
    # When its credit is priced
    with pytest.raises(NotFound, match="BANK_OFFER_CAR_NOT_SOLD"):
        priced(shop.chain())
