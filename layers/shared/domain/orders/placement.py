"""Placing an order at the server's price: the request checked against the catalog and the dealers
(`purchase`), then its payment type and financing against financing (`financed`), the promo applied, the
order stored as NEW with a contract number. Each area is asked once, in that order."""

from __future__ import annotations

from functools import partial

from bson import ObjectId

from core import clock
from core.errors import Conflict, NotPermitted
from core.ids import new_id
from core.settings import get_settings
from data import counters
from domain.catalog import store as catalog
from domain.dealers import store as dealers
from domain.financing import store as financing
from domain.orders import buyers, expiry, lifecycle, promo_codes
from domain.orders.buyers import Buyer
from domain.orders.financed import FinancedDeal, financed_deal
from domain.orders.lifecycle import Status
from domain.orders.purchase import Purchase, resolve_purchase
from domain.orders.records import OrderRecord, PromoCodeRecord
from domain.orders.requests import OrderRequest

CONTRACT_PREFIX = "CR"
# The cached reference data placing an order reads (its brand, region and financing organization): a function
# placing orders preloads it for a SnapStart restore.
REFERENCE_DATA = (catalog.all_brands, dealers.all_regions, financing.all_active_organizations)


def contract_number(year: int, seq: int) -> str:
    """Human-readable and unique: CR-2026-000042 (the sequence restarts every year)."""
    return f"{CONTRACT_PREFIX}-{year}-{seq:06d}"


def next_contract_number() -> str:
    year = clock.now().astimezone(clock.TASHKENT).year  # the year on the buyer's calendar
    return contract_number(year, counters.next_value(f"contract:{year}"))


def deposit_of(sale_deposit: int | None, due_now: int) -> int:
    """What must be paid by `payBy` to keep the car: the sale's deposit, else ORDER_DEPOSIT_PERCENT of what
    card payments may take (rounded up to a sum), never more than that."""
    share = -(-due_now * get_settings().order_deposit_percent // 100)
    return min(share if sale_deposit is None else sale_deposit, due_now)


def new_order(
    purchase: Purchase,
    *,
    owner: ObjectId,
    partner: str,
    payment_type: str,
    promo: PromoCodeRecord | None = None,
    deal: FinancedDeal | None = None,
    hold_minutes: int | None = None,
    deposit_amount: int | None = None,
) -> OrderRecord:
    """The document of a NEW order for this purchase, with a snapshot of the names of what was bought
    (the catalog may rename or drop a car later; the order keeps what was sold). No contract number yet.

    `amountDue` is what the car costs the buyer (price - discount); `amountDueNow` what card payments
    may take: all of it for CASH, the deal's initial payment for a financed order (the bank, lessor or
    installments pay the rest). A promo on a financed order lowers the initial payment, never below 0.
    `payBy` ends the unit's hold unless the `deposit` is paid: `hold_minutes` (the car's sale rule) after,
    else ORDER_HOLD_HOURS (`domain.orders.expiry`); the deposit is `deposit_amount` (the sale rule's)
    or a share of `amountDueNow` (`deposit_of`)."""
    discount = promo_codes.discount_for(promo, purchase.price) if promo else 0
    if deal is not None:
        discount = min(discount, deal.initial_payment)
    due_now = purchase.price - discount if deal is None else deal.initial_payment - discount
    now = clock.now()
    return {
        "_id": new_id(),
        "userId": owner,
        "partner": partner,
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
        "deposit": deposit_of(deposit_amount, due_now),
        "paymentIds": [],
        "carName": purchase.car.get("name"),
        "brandName": purchase.brand.get("name") if purchase.brand else None,
        "modificationName": purchase.modification.get("name"),
        "colorName": purchase.color.get("name"),
        "payBy": now + expiry.hold_of(hold_minutes),
        "createdAt": now,
        "updatedAt": now,
    }


def place_order(request: OrderRequest, *, buyer: Buyer, partner: str) -> OrderRecord:
    """Check the request against the catalog, apply the promo, store the order as NEW and log it.
    `partner` is the app it was placed through: its webhook hears of every change of the order. The
    buyer's limits (`domain.orders.buyers`) are checked before anything is spent, and again, race-safe,
    in the order's transaction."""
    purchase = resolve_purchase(request)
    deal = financed_deal(request, purchase)
    if deal is not None and deal.initial_payment == 0 and request.promo_code:
        raise Conflict("PROMO_CODE_NEEDS_INITIAL_PAYMENT")
    rules = purchase.rules
    if rules.verified_buyers_only and not buyer.verified:
        raise NotPermitted("IDENTITY_VERIFICATION_REQUIRED")
    car_id = purchase.car["_id"]
    buyers.check_limits(buyer, car_id, rules.per_person_limit)
    owner = buyer.user_id
    promo = promo_codes.consume(request.promo_code, owner) if request.promo_code else None
    order = new_order(
        purchase,
        owner=owner,
        partner=partner,
        payment_type=request.payment_type.value,
        promo=promo,
        deal=deal,
        hold_minutes=rules.hold_minutes,
        deposit_amount=rules.deposit_amount,
    )
    order["buyer"] = buyer.key
    if order["amountDueNow"] == 0:
        # Nothing is left to pay by card (a promo covered the price, or the deal's initial payment).
        order["statusSlug"] = Status.PAID.value
    try:
        order["contractNumber"] = next_contract_number()
        # The order, its first log entry and its event: one transaction, so none exists without the others.
        lifecycle.create(
            order, cause="created", first=partial(buyers.hold_limits, buyer, car_id, rules.per_person_limit)
        )
    except Exception:
        if promo:
            promo_codes.release(promo["_id"], owner)
        raise
    return order
