"""Demo promo codes (always) and two demo orders of the demo user (when the catalog has a car a branch sells).

Promo codes (README "Demo data"): WELCOME10 (10 %, at most 5,000,000 sums), MINUS1M (1,000,000 sums),
LASTONE (500,000 sums, one use in all), EXPIRED (ended), SUMMER2035 (not active yet).
Orders: CR-DEMO-000001 (NEW, cash, ready to pay by card) and CR-DEMO-000002 (PAID, then its timeline).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from pymongo.database import Database

from core import clock
from domain.catalog.records import BrandRecord, CarRecord, ColorRecord, ModificationRecord
from domain.dealers.records import BranchRecord
from domain.orders.lifecycle import Status
from domain.orders.placement import new_order
from domain.orders.purchase import Purchase
from domain.orders.records import OrderRecord
from local.seed.core import DEMO_PARTNER, DEMO_USER_ID
from local.seed.support import insert_missing, stable_id

Db = Database[dict[str, Any]]

DEMO_NEW_ORDER_ID = stable_id("order:demo:new")
DEMO_PAID_ORDER_ID = stable_id("order:demo:paid")


def _promo(code: str, discount_type: str, value: int, **fields: Any) -> dict[str, Any]:
    """A demo promo code, valid 2025 to 2035 for 1000 uses unless told otherwise."""
    return {
        "_id": code,
        "discountType": discount_type,
        "value": value,
        "maxDiscount": None,
        "validFrom": datetime(2025, 1, 1, tzinfo=UTC),
        "validTo": datetime(2035, 1, 1, tzinfo=UTC),
        "usageLimit": 1000,
        "used": 0,
        "usedBy": [],
        "createdAt": datetime(2025, 1, 1, tzinfo=UTC),
        **fields,
    }


PROMO_CODES = [
    _promo("WELCOME10", "PERCENT", 10, maxDiscount=5_000_000),
    _promo("MINUS1M", "FIXED", 1_000_000, usageLimit=100),
    _promo("LASTONE", "FIXED", 500_000, usageLimit=1),
    _promo("EXPIRED", "PERCENT", 5, validTo=datetime(2025, 6, 1, tzinfo=UTC)),
    _promo("SUMMER2035", "PERCENT", 15, validFrom=datetime(2035, 6, 1, tzinfo=UTC), validTo=None),
]


def _demo_purchase(db: Db) -> Purchase | None:
    """The first car of the catalog that an active branch of its brand has in stock, as POST
    /api/v1/orders would accept it, or None."""
    for car in db.cars.find({}).sort("slug", 1):
        for stock in db.stock.find({"carId": car["_id"], "quantity": {"$gt": 0}}).sort("_id", 1):
            branch = db.branches.find_one({"_id": stock["branchId"], "brandIds": car["brandId"], "active": True})
            modification = next((m for m in car.get("modifications", []) if m["_id"] == stock["modificationId"]), None)
            color = next((c for c in car.get("colors", []) if c["_id"] == stock["colorId"]), None)
            if branch and modification and color:
                brand = db.brands.find_one({"_id": car["brandId"]})
                return Purchase(
                    car=cast("CarRecord", car),
                    modification=cast("ModificationRecord", modification),
                    color=cast("ColorRecord", color),
                    branch=cast("BranchRecord", branch),
                    brand=cast("BrandRecord | None", brand),
                )
    return None


def _demo_orders(purchase: Purchase) -> tuple[list[OrderRecord], list[dict[str, Any]]]:
    placed = clock.now() - timedelta(days=3)
    fresh = new_order(purchase, owner=DEMO_USER_ID, partner=DEMO_PARTNER, payment_type="CASH")
    fresh.update(
        {"_id": DEMO_NEW_ORDER_ID, "contractNumber": "CR-DEMO-000001", "createdAt": placed, "updatedAt": placed}
    )
    paid = new_order(purchase, owner=DEMO_USER_ID, partner=DEMO_PARTNER, payment_type="CASH")
    paid_at = placed + timedelta(hours=2)
    paid.update(
        {
            "_id": DEMO_PAID_ORDER_ID,
            "contractNumber": "CR-DEMO-000002",
            "statusSlug": Status.PAID.value,
            "paidAmount": paid["amountDue"],
            "paymentIds": ["demo-payment"],
            "createdAt": placed,
            "updatedAt": paid_at,
        }
    )
    changes: list[tuple[OrderRecord, Status | None, Status, str, datetime]] = [
        (fresh, None, Status.NEW, "created", placed),
        (paid, None, Status.NEW, "created", placed),
        (paid, Status.NEW, Status.PAID, "card payment demo-payment", paid_at),
    ]
    logs = [
        {
            "_id": stable_id(f"order-log:{order['_id']}:{to}"),
            "orderId": order["_id"],
            "userId": DEMO_USER_ID,
            "from": previous.value if previous else None,
            "to": to.value,
            "cause": cause,
            "at": at,
        }
        for order, previous, to, cause, at in changes
    ]
    return [fresh, paid], logs


def seed(db: Db) -> int:
    inserted = insert_missing(db.promo_codes, PROMO_CODES)
    purchase = _demo_purchase(db)
    if purchase is None:
        return inserted
    orders, logs = _demo_orders(purchase)
    return inserted + insert_missing(db.orders, orders) + insert_missing(db.order_logs, logs)
