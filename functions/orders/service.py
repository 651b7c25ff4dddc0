"""Orders logic: place an order at the server's price, list and read the caller's orders, the timeline.

Every read filters on the caller's id: another user's order answers 404 exactly like an unknown one.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from bson import ObjectId

from core import clock
from core.errors import Conflict, NotFound
from core.ids import new_id
from core.locale import Locale, localize
from core.models import Page
from core.observability import metrics
from data import counters
from data.mongo import find_page, get_db
from domain.orders import lifecycle
from domain.orders.lifecycle import Order, Status
from orders import promo_codes
from orders.deal import Deal
from orders.deal import choose as choose_deal
from orders.models import CreateOrderBody, OrderItem, OrderStep, PromoCode
from orders.models import Order as OrderView
from orders.references import Purchase, resolve_purchase

CONTRACT_PREFIX = "CR"


def contract_number(year: int, seq: int) -> str:
    """Human-readable and unique: CR-2026-000042 (the sequence restarts every year)."""
    return f"{CONTRACT_PREFIX}-{year}-{seq:06d}"


def next_contract_number() -> str:
    year = clock.now().astimezone(clock.TASHKENT).year  # the year on the buyer's calendar
    return contract_number(year, counters.next_value(f"contract:{year}"))


def new_order(
    purchase: Purchase,
    *,
    owner: ObjectId,
    payment_type: str,
    promo: promo_codes.Promo | None = None,
    deal: Deal | None = None,
) -> Order:
    """The document of a NEW order for this purchase, with a snapshot of the names of what was bought
    (the catalog may rename or drop a car later; the order keeps what was sold). No contract number yet.

    `amountDue` is what the car costs the buyer (price - discount); `amountDueNow` what card payments
    may take: all of it for CASH, the deal's initial payment for a financed order (the bank, lessor or
    installments pay the rest). A promo on a financed order lowers the initial payment, never below 0."""
    discount = promo_codes.discount_for(promo, purchase.price) if promo else 0
    if deal is not None:
        discount = min(discount, deal.initial_payment)
    due_now = purchase.price - discount if deal is None else deal.initial_payment - discount
    now = clock.now()
    return {
        "_id": new_id(),
        "userId": owner,
        "statusSlug": Status.NEW.value,
        "brandId": purchase.brand_id,
        "carId": purchase.car["_id"],
        "modificationId": purchase.modification["_id"],
        "colorId": purchase.color["_id"],
        "branchId": purchase.branch["_id"],
        "regionId": purchase.branch["regionId"],
        "paymentTypeId": payment_type,
        "organizationId": deal.organization_id if deal else None,
        "offerId": deal.offer_id if deal else None,
        "financing": deal.document() if deal else None,
        "price": purchase.price,
        "discount": discount,
        "promoCode": promo["_id"] if promo else None,
        "amountDue": purchase.price - discount,
        "amountDueNow": due_now,
        "paidAmount": 0,
        "paymentIds": [],
        "carName": purchase.car.get("name"),
        "brandName": purchase.brand.get("name") if purchase.brand else None,
        "modificationName": purchase.modification.get("name"),
        "colorName": purchase.color.get("name"),
        "createdAt": now,
        "updatedAt": now,
    }


def create_order(body: CreateOrderBody, *, user_id: str, locale: Locale) -> OrderView:
    """Check the request against the catalog, apply the promo, store the order as NEW and log it."""
    purchase = resolve_purchase(body)
    deal = choose_deal(body, purchase)
    if deal is not None and deal.initial_payment == 0 and body.promoCode:
        raise Conflict("A promo code lowers the initial payment, and this financing has none: order without it")
    owner = ObjectId(user_id)
    promo = promo_codes.consume(body.promoCode, owner) if body.promoCode else None
    order = new_order(purchase, owner=owner, payment_type=body.paymentTypeId.value, promo=promo, deal=deal)
    if order["amountDueNow"] == 0:
        # Nothing is left to pay by card (a promo covered the price, or the deal's initial payment).
        order["statusSlug"] = Status.PAID.value
    try:
        order["contractNumber"] = next_contract_number()
        # The order, its first log entry and its event: one transaction, so none exists without the others.
        lifecycle.create(order, cause="created")
    except Exception:
        if promo:
            promo_codes.release(promo["_id"], owner)
        raise
    metrics.add_metric(name="OrdersCreated", unit=MetricUnit.Count, value=1)
    return detail(order, locale)


def _owned(order_id: str, user_id: str) -> Order:
    order = get_db().orders.find_one({"_id": ObjectId(order_id), "userId": ObjectId(user_id)})
    if order is None:
        raise NotFound("Order not found")
    return order


def _item_fields(order: Order, locale: Locale) -> dict[str, Any]:
    return {
        "_id": str(order["_id"]),
        "contractNumber": order["contractNumber"],
        "statusSlug": order["statusSlug"],
        "price": order["price"],
        "discount": order.get("discount", 0),
        "amountDue": order.get("amountDue", order["price"]),
        "amountDueNow": lifecycle.due_now(order),
        "paidAmount": order.get("paidAmount", 0),
        "paymentTypeId": order["paymentTypeId"],
        "brandName": order.get("brandName"),
        "carName": localize(order.get("carName"), locale),
        "createdAt": order["createdAt"],
    }


def list_item(order: Order, locale: Locale) -> OrderItem:
    return OrderItem.model_validate(_item_fields(order, locale))


def detail(order: Order, locale: Locale) -> OrderView:
    """The order detail of docs/INTERFACE.md, with the discount and what was bought, by name."""
    ids = ("brandId", "carId", "modificationId", "colorId", "branchId", "regionId")
    return OrderView.model_validate(
        {
            **_item_fields(order, locale),
            **{name: str(order[name]) for name in ids},
            "promoCode": order.get("promoCode"),
            "organizationId": order.get("organizationId"),
            "offerId": order.get("offerId"),
            "financing": order.get("financing"),
            "modificationName": order.get("modificationName"),
            "colorName": localize(order.get("colorName"), locale),
            "updatedAt": order.get("updatedAt"),
        }
    )


def list_orders(*, user_id: str, limit: int, offset: int, locale: Locale) -> Page[OrderItem]:
    """The caller's orders, newest first."""
    found, total = find_page(
        get_db().orders, {"userId": ObjectId(user_id)}, [("createdAt", -1), ("_id", -1)], offset=offset, limit=limit
    )
    return Page[OrderItem](items=[list_item(order, locale) for order in found], total=total)


def get_order(order_id: str, *, user_id: str, locale: Locale) -> OrderView:
    return detail(_owned(order_id, user_id), locale)


def order_steps(order_id: str, *, user_id: str, locale: Locale) -> Page[OrderStep]:
    steps = [OrderStep.model_validate(step) for step in lifecycle.steps(_owned(order_id, user_id), locale)]
    return Page[OrderStep](items=steps, total=len(steps))


def check_promo_code(code: str, *, user_id: str) -> PromoCode:
    return promo_codes.describe(promo_codes.check(code, ObjectId(user_id)))
