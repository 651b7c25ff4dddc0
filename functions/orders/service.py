"""Orders logic: place an order at the server's price (`domain.orders.placement`, imported by the first
order), list and read the caller's orders, the timeline.

Every read filters on the caller's id: another user's order answers 404 exactly like an unknown one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.metrics import MetricUnit
from bson import ObjectId

from core.locale import Locale, localize
from core.models import CountedPage, Page, parametrized
from core.observability import metrics
from data.reference_cache import preload
from domain.orders import holds, lifecycle, promo_codes, views
from domain.orders.records import OrderRecord
from orders.models import CreateOrderBody, OrderItem, OrderStep, PromoCode
from orders.models import Order as OrderView

if TYPE_CHECKING:
    from domain.orders.requests import FinancingRequest


def warm_up() -> None:
    """Before a SnapStart snapshot: import what placing an order runs (`create_order` imports it with the
    first order) and name the reference data it reads, which a restore reads again before the first
    request (`data.reference_cache.preload`)."""
    from domain.orders import placement

    preload(*placement.REFERENCE_DATA)


def _financing(body: CreateOrderBody) -> FinancingRequest | None:
    """The financing choices of the body (its model has checked they are those of its payment type)."""
    from domain.orders.requests import CreditRequest, InstallmentRequest, LeasingRequest  # as in create_order

    if body.credit is not None:
        credit = body.credit
        return CreditRequest(
            offer_id=credit.bankId,
            income_type_id=credit.incomeTypeId,
            initial_payment_id=credit.initialPaymentId,
            loan_term_id=credit.loanTermId,
            refund_type_id=credit.refundTypeId,
        )
    if body.leasing is not None:
        return LeasingRequest(body.leasing.leasingId, body.leasing.loanTermId, body.leasing.initialPaymentId)
    if body.installment is not None:
        cell = body.installment
        return InstallmentRequest(cell.planId, cell.initialPercent, cell.months)
    return None


def create_order(body: CreateOrderBody, *, user_id: str, partner: str, locale: Locale) -> OrderView:
    """Place the order (checked against the catalog, priced, stored as NEW and logged) and answer it."""
    # Imported by the first order, not at a cold start: placing one reads the catalog, the dealers, the
    # financing and the buyer's holdings, which the function's other routes never do (docs/DECISIONS.md,
    # "Import-time work"); with SnapStart, before the snapshot (`warm_up`).
    from domain.orders import placement
    from domain.orders.buyers import buyer_of
    from domain.orders.requests import OrderRequest

    request = OrderRequest(
        car_id=body.carId,
        modification_id=body.modificationId,
        color_id=body.colorId,
        region_id=body.regionId,
        branch_id=body.branchId,
        price=body.price,
        promo_code=body.promoCode,
        financing=_financing(body),
        organization_id=body.organizationId,
        offer_id=body.offerId,
    )
    order = placement.place_order(request, buyer=buyer_of(user_id), partner=partner)
    metrics.add_metric(name="OrdersCreated", unit=MetricUnit.Count, value=1)
    return detail(order, locale)


def _item_fields(order: OrderRecord, locale: Locale) -> dict[str, Any]:
    return {
        "_id": str(order["_id"]),
        "contractNumber": order["contractNumber"],
        "statusSlug": order["statusSlug"],
        "price": order["price"],
        "discount": order.get("discount", 0),
        "amountDue": order.get("amountDue", order["price"]),
        "amountDueNow": lifecycle.due_now(order),
        "paidAmount": order.get("paidAmount", 0),
        "deposit": order.get("deposit", 0),
        "depositBy": holds.deposit_by(order),
        "payBy": holds.pay_by(order),
        "paymentTypeId": order["paymentTypeId"],
        "brandName": order.get("brandName"),
        "carName": localize(order.get("carName"), locale),
        "createdAt": order["createdAt"],
    }


def detail(order: OrderRecord, locale: Locale) -> OrderView:
    """The order detail of docs/INTERFACE.md, with the discount and what was bought, by name."""
    return OrderView.model_validate(
        {
            **_item_fields(order, locale),
            "brandId": str(order["brandId"]),
            "carId": str(order["carId"]),
            "modificationId": str(order["modificationId"]),
            "colorId": str(order["colorId"]),
            "branchId": str(order["branchId"]),
            "regionId": str(order["regionId"]),
            "promoCode": order.get("promoCode"),
            "organizationId": order.get("organizationId"),
            "offerId": order.get("offerId"),
            "financing": order.get("financing"),
            "modificationName": order.get("modificationName"),
            "colorName": localize(order.get("colorName"), locale),
            "updatedAt": order.get("updatedAt"),
        }
    )


def list_orders(*, user_id: str, limit: int, offset: int, locale: Locale) -> CountedPage[OrderItem]:
    """The caller's orders, newest first."""
    found = views.orders_of_user(user_id, offset=offset, limit=limit)
    items = [_item_fields(order, locale) for order in found.items]
    # The page validated in one pydantic-core call, not one model per order.
    return parametrized(CountedPage, OrderItem).model_validate(
        {"items": items, "total": found.total, "exact": found.exact}
    )


def get_order(order_id: str, *, user_id: str, locale: Locale) -> OrderView:
    return detail(views.owned(order_id, user_id), locale)


def order_steps(order_id: str, *, user_id: str, locale: Locale, offset: int, limit: int) -> Page[OrderStep]:
    """A page of the order's timeline (at most six steps: the first page holds it all)."""
    steps = views.steps(views.owned(order_id, user_id), locale)
    page = [OrderStep.model_validate(step) for step in steps[offset : offset + limit]]
    return Page[OrderStep](items=page, total=len(steps))


def describe_promo_code(promo: Mapping[str, Any]) -> PromoCode:
    """The apply-promo-code answer: `discount` is sums for FIXED and percent for PERCENT."""
    return PromoCode(
        code=promo["_id"],
        discount=int(promo["value"]),
        discountType=promo["discountType"],
        maxDiscount=promo.get("maxDiscount"),
        validTo=promo.get("validTo"),
    )


def check_promo_code(code: str, *, user_id: str) -> PromoCode:
    return describe_promo_code(promo_codes.check(code, ObjectId(user_id)))
