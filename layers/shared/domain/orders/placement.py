"""Placing an order at the server's price, top to bottom (`place_order`):

1. read: what is bought, with its sale rules, branch and stock (`purchase`), the deal of a financed order
   (`financed`), the promo, what the buyer holds (`buyers`) and, for a car sold through a queue, their
   admission (`openings`); each area asked once, in that order;
2. decide: `decide` turns them into the finished order document, or raises the refusal, writing nothing
   (a queued car's order without its admission first: NOT_YOUR_TURN, ADMISSION_USED, ADMISSION_EXPIRED);
3. write (`write_order`, its steps in order): the promo's use and a contract number, then one
   transaction: the buyer's guards, their limits counted again (a racing order of theirs is counted now),
   the admission spent, the unit of stock, the order, its log entry and its event. No unit, no order; no
   order, no promo use nor admission spent.
"""

from __future__ import annotations

import time
from datetime import datetime

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict, Unavailable
from core.ids import new_id
from data import counters
from data.mongo import in_transaction
from domain.catalog import store as catalog
from domain.dealers import store as dealers
from domain.financing import store as financing
from domain.orders import buyers, holds, lifecycle, openings, promo_codes, store
from domain.orders.buyers import Buyer, Holdings
from domain.orders.financed import FinancedDeal, financed_deal
from domain.orders.purchase import OutOfStock, Purchase, resolve_purchase
from domain.orders.records import OrderRecord, PromoCodeRecord
from domain.orders.requests import OrderRequest
from domain.orders.states import OrderStatus, StockHold

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


def new_order(
    purchase: Purchase,
    *,
    owner: ObjectId,
    partner: str,
    payment_type: str,
    now: datetime,
    promo: PromoCodeRecord | None = None,
    deal: FinancedDeal | None = None,
) -> OrderRecord:
    """The document of a NEW order for this purchase placed at `now`, with a snapshot of the names of what
    was bought (the catalog may rename or drop a car later; the order keeps what was sold). No contract
    number nor buyer yet.

    `amountDue` is what the car costs the buyer (price - discount); `amountDueNow` what card payments
    may take: all of it for CASH, the deal's initial payment for a financed order (the bank, lessor or
    installments pay the rest). A promo on a financed order lowers the initial payment, never below 0.
    Its `deposit`, `depositBy` and `payBy` are the hold's terms (`domain.orders.holds.terms`)."""
    discount = promo_codes.discount_for(promo, purchase.price) if promo else 0
    if deal is not None:
        discount = min(discount, deal.initial_payment)
    due_now = purchase.price - discount if deal is None else deal.initial_payment - discount
    rules = purchase.rules
    terms = holds.terms(now, due_now, hold_minutes=rules.hold_minutes, sale_deposit=rules.deposit_amount)
    return {
        "_id": new_id(),
        "userId": owner,
        "partner": partner,
        "statusSlug": OrderStatus.NEW.value,
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
        "deposit": terms.deposit,
        "depositBy": terms.deposit_by,
        "payBy": terms.pay_by,
        "paymentIds": [],
        "carName": purchase.car.get("name"),
        "brandName": purchase.brand.get("name") if purchase.brand else None,
        "modificationName": purchase.modification.get("name"),
        "colorName": purchase.color.get("name"),
        "createdAt": now,
        "updatedAt": now,
    }


def place_order(request: OrderRequest, *, buyer: Buyer, partner: str) -> OrderRecord:
    """Place the order: read, decide, write (the module's docstring). `partner` is the app it was placed
    through: its webhook hears of every change of the order."""
    purchase = resolve_purchase(request)
    deal = financed_deal(request, purchase)
    promo = promo_codes.check(request.promo_code, buyer.user_id) if request.promo_code else None
    now = clock.now()
    held = buyers.holdings(buyer, purchase.car["_id"], purchase.rules, partner=partner, now=now)
    admission = openings.admission(buyer, purchase.car["_id"]) if purchase.rules.queue is not None else None
    order = decide(
        purchase,
        buyer=buyer,
        held=held,
        partner=partner,
        payment_type=request.payment_type.value,
        now=now,
        promo=promo,
        deal=deal,
        admission=admission,
    )
    if admission is None:
        write_order(order, purchase, buyer=buyer, partner=partner, promo=promo)
        return order
    started = time.monotonic()  # an admitted order's time and DATA_BUSY steer the admission's pace
    try:
        write_order(order, purchase, buyer=buyer, partner=partner, promo=promo, admission=admission)
    except Unavailable as failure:
        busy = failure.code == "DATA_BUSY"
        openings.record_order(purchase.car["_id"], busy=busy, seconds=time.monotonic() - started)
        raise
    openings.record_order(purchase.car["_id"], busy=False, seconds=time.monotonic() - started)
    return order


def decide(
    purchase: Purchase,
    *,
    buyer: Buyer,
    held: Holdings,
    partner: str,
    payment_type: str,
    now: datetime,
    promo: PromoCodeRecord | None,
    deal: FinancedDeal | None,
    admission: openings.Admission | None = None,
) -> OrderRecord:
    """The finished order document of what was read, or the refusal (raised): a queued car's order without
    its admission (`openings.check_admission`), a promo on a financed order with no initial payment, and
    the buyer's limits (`buyers.refusal`). Reads and writes nothing."""
    if admission is not None:
        openings.check_admission(admission, now)
    if deal is not None and deal.initial_payment == 0 and promo is not None:
        raise Conflict("PROMO_CODE_NEEDS_INITIAL_PAYMENT")
    refused = buyers.refusal(buyer, held, purchase.rules)
    if refused is not None:
        raise refused
    order = new_order(
        purchase, owner=buyer.user_id, partner=partner, payment_type=payment_type, now=now, promo=promo, deal=deal
    )
    order["buyer"] = buyer.key
    return order


def write_order(
    order: OrderRecord,
    purchase: Purchase,
    *,
    buyer: Buyer,
    partner: str,
    promo: PromoCodeRecord | None,
    admission: openings.Admission | None = None,
) -> None:
    """Store the order, its steps in order: the promo's use (one conditional update), its contract number,
    then one transaction, all or nothing: the buyer's guards, their limits counted again under them, the
    admission spent (a queued car's), the unit of stock, the order, its log entry and event. A refusal in
    the transaction writes nothing and gives the promo use back. The use and the number are taken outside
    the transaction so that a popular code and the year's counter are no documents every order's
    transaction conflicts on, and a buyer refused the last use of a code spends no number
    (docs/DECISIONS.md, "Orders")."""

    def steps(session: ClientSession) -> None:
        now = clock.now()
        buyers.guard(buyer, partner=partner, now=now, session=session)
        held = buyers.holdings(buyer, order["carId"], purchase.rules, partner=partner, now=now, session=session)
        refused = buyers.refusal(buyer, held, purchase.rules)
        if refused is not None:
            raise refused
        if admission is not None:
            openings.use_admission(admission, order["_id"], now=now, session=session)
        bucket = dealers.take_unit(
            order["branchId"], order["modificationId"], order["colorId"], buckets=purchase.buckets, session=session
        )
        if bucket is None:
            raise OutOfStock()
        if bucket:
            order["stockBucket"] = bucket  # where its unit goes back (domain.orders.lifecycle)
        order["stockHold"] = StockHold.HELD.value
        store.insert_order(order, session=session)
        lifecycle.log_change(order, None, "created", session=session)

    if promo is not None:
        promo_codes.take_use(promo, buyer.user_id)
    try:
        order["contractNumber"] = next_contract_number()
        in_transaction(steps)
    except Exception:
        if promo is not None:
            promo_codes.give_back_use(promo["_id"], buyer.user_id)
        raise
