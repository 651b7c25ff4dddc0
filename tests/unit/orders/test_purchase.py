"""An order request checked against the catalog (`domain.orders.purchase.resolve_purchase`) and its
financing chosen (`domain.orders.financed.financed_deal`), over stores held in memory."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from core.errors import Conflict, InvalidInput, NotFound
from domain.dealers import store as dealers
from domain.orders.financed import financed_deal
from domain.orders.purchase import resolve_purchase
from domain.orders.requests import LeasingRequest, OrderRequest
from tests.unit.fake_stores import PRICE, Shop


@pytest.fixture
def shop(monkeypatch: pytest.MonkeyPatch) -> Shop:
    return Shop().install(monkeypatch)


def order(shop: Shop, **overrides: Any) -> OrderRequest:
    """A cash order of the shop's first modification in its color at its branch, at the current price."""
    fields: dict[str, Any] = {
        "car_id": str(shop.car_id),
        "modification_id": str(shop.modification_id),
        "color_id": str(shop.color_id),
        "region_id": str(shop.region_id),
        "branch_id": str(shop.branch_id),
        "price": PRICE,
    }
    return OrderRequest(**{**fields, **overrides})


def on_credit(shop: Shop, **overrides: ObjectId) -> OrderRequest:
    return order(shop, financing=shop.chain(**overrides))


def test_a_purchase_is_what_the_catalog_has_now(shop: Shop) -> None:
    purchase = resolve_purchase(order(shop))
    assert (purchase.car["_id"], purchase.modification["_id"], purchase.color["_id"]) == (
        shop.car_id,
        shop.modification_id,
        shop.color_id,
    )
    assert (purchase.branch["_id"], purchase.brand_id, purchase.price) == (shop.branch_id, shop.brand_id, PRICE)


@pytest.mark.parametrize(
    ("field", "code"),
    [
        ("car_id", "CAR_NOT_FOUND"),
        ("modification_id", "MODIFICATION_NOT_FOUND"),
        ("color_id", "COLOR_NOT_FOUND"),
        ("region_id", "REGION_NOT_FOUND"),
        ("branch_id", "BRANCH_NOT_FOUND"),
    ],
)
def test_ids_that_do_not_belong_together_are_named(shop: Shop, field: str, code: str) -> None:
    # Given an order naming an id the shop does not have with the rest
    # When it is checked
    with pytest.raises(NotFound) as refused:
        resolve_purchase(order(shop, **{field: str(ObjectId())}))
    # Then the refusal names the first that does not belong
    assert refused.value.code == code


def test_a_branch_of_another_region_or_brand_does_not_sell_the_car(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = {"_id": shop.branch_id, "regionId": ObjectId(), "brandIds": [shop.brand_id]}
    monkeypatch.setattr(dealers, "find_branch", lambda branch_id: elsewhere)
    with pytest.raises(NotFound, match="BRANCH_NOT_IN_REGION"):
        resolve_purchase(order(shop))
    other_brand = {"_id": shop.branch_id, "regionId": shop.region_id, "brandIds": [ObjectId()]}
    monkeypatch.setattr(dealers, "find_branch", lambda branch_id: other_brand)
    with pytest.raises(NotFound, match="BRANCH_DOES_NOT_SELL_BRAND"):
        resolve_purchase(order(shop))


def test_a_changed_price_is_refused_with_the_current_one(shop: Shop) -> None:
    # Given the client saw the price before the dealer raised it
    shop.prices[shop.modification_id] = PRICE + 1_000_000
    # When they order at the price they saw
    with pytest.raises(Conflict) as refused:
        resolve_purchase(order(shop))
    # Then the order is refused with the current price
    assert refused.value.details == {"currentPrice": PRICE + 1_000_000}


def test_a_car_the_branch_does_not_have_is_refused(shop: Shop) -> None:
    shop.stocked = False
    with pytest.raises(Conflict) as refused:
        resolve_purchase(order(shop))
    assert refused.value.details == {"quantity": 0}


def test_a_payment_type_not_offered_is_refused_with_those_that_are(shop: Shop) -> None:
    # Given a car sold for cash or on credit, and no leasing company serving its brand
    request = order(shop, financing=LeasingRequest(str(ObjectId()), str(ObjectId()), str(ObjectId())))
    # When it is ordered on leasing
    with pytest.raises(Conflict) as refused:
        financed_deal(request, resolve_purchase(request))
    # Then the refusal lists the payment types it is sold by
    assert (refused.value.code, refused.value.params) == ("PAYMENT_TYPE_NOT_OFFERED", {"paymentType": "LEASING"})
    assert refused.value.details == {"paymentTypes": ["CASH", "CREDIT"]}


def test_a_cash_order_has_no_deal(shop: Shop) -> None:
    request = order(shop)
    assert financed_deal(request, resolve_purchase(request)) is None


def test_a_credit_order_reads_its_car_once_and_carries_the_deal(shop: Shop) -> None:
    # Given an order on credit with the chain's ids for the ordered modification
    request = on_credit(shop)
    # When it is checked and its deal chosen
    deal = financed_deal(request, resolve_purchase(request))
    # Then the car was read once, and the deal carries the bank, the offer, the choices and the figures
    assert shop.car_reads == {"find_car": 1}
    assert deal is not None
    assert (deal.payment_type, deal.organization_id, deal.offer_id) == (
        "CREDIT",
        str(shop.bank_id),
        shop.chain().offer_id,
    )
    assert deal.choices == {
        "bankId": shop.chain().offer_id,
        "incomeTypeId": str(shop.income_type_id),
        "initialPaymentId": str(shop.initial_payment_id),
        "loanTermId": str(shop.loan_term_id),
        "refundTypeId": str(shop.refund_type_id),
    }
    assert (deal.initial_payment, deal.figures["carPrice"], deal.figures["termMonths"]) == (90_000_000, PRICE, 36)


def test_a_bank_offer_for_another_modification_is_refused(shop: Shop) -> None:
    # Given the offer the bank chain gave for the car's other modification
    request = on_credit(shop, offer_id=shop.offer(shop.other_modification_id)["_id"])
    # When the first modification is ordered with it
    with pytest.raises(NotFound) as refused:
        financed_deal(request, resolve_purchase(request))
    # Then it is refused, naming the field
    assert refused.value.details == {"field": "credit.bankId"}


def test_an_organization_that_is_not_the_chosen_bank_is_refused(shop: Shop) -> None:
    request = order(shop, financing=shop.chain(), organization_id=str(ObjectId()))
    with pytest.raises(InvalidInput) as refused:
        financed_deal(request, resolve_purchase(request))
    assert [error["field"] for error in refused.value.errors or []] == ["body.organizationId"]
