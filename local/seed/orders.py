"""Demo promo codes (in the demo data file) and two demo orders of the demo user (when the catalog has a car
a branch sells).

Promo codes (README "Demo data"): WELCOME10 (10 %, at most 5,000,000 sums), MINUS1M (1,000,000 sums),
LASTONE (500,000 sums, one use in all), EXPIRED (ended), SUMMER2035 (not active yet).
Orders: CR-DEMO-000001 (NEW, cash, ready to pay by card) and CR-DEMO-000002 (PAID, then its timeline).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from pymongo.client_session import ClientSession

from core import clock
from data.mongo import in_transaction
from domain.catalog.records import BrandRecord, CarRecord, ColorRecord, ModificationRecord
from domain.dataset.models import DataSet
from domain.dataset.sections import documents
from domain.dealers.records import BranchRecord
from domain.orders import store
from domain.orders.placement import new_order
from domain.orders.purchase import Purchase
from domain.orders.records import OrderLogRecord, OrderRecord
from domain.orders.states import OrderStatus
from local.seed.core import DEMO_PARTNER, DEMO_USER_ID
from local.seed.support import stable_id

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


def demo_purchase(data: DataSet) -> Purchase | None:
    """The first car of the demo data (by slug) that an active branch of its brand has in stock, as POST
    /api/v1/orders would accept it, or None."""
    cars = sorted(documents(data, "cars"), key=lambda car: car["slug"])
    stock = sorted(documents(data, "stock"), key=lambda row: row["_id"])
    branches = {branch["_id"]: branch for branch in documents(data, "branches")}
    brands = {brand["_id"]: brand for brand in documents(data, "brands")}
    for car in cars:
        for row in stock:
            branch = branches.get(row["branchId"])
            if row["carId"] != car["_id"] or row["quantity"] <= 0 or not branch or not branch["active"]:
                continue
            modification = next((m for m in car["modifications"] if m["_id"] == row["modificationId"]), None)
            color = next((c for c in car["colors"] if c["_id"] == row["colorId"]), None)
            if car["brandId"] in branch["brandIds"] and modification and color:
                return Purchase(
                    car=cast("CarRecord", car),
                    modification=cast("ModificationRecord", modification),
                    color=cast("ColorRecord", color),
                    branch=cast("BranchRecord", branch),
                    brand=cast("BrandRecord | None", brands.get(car["brandId"])),
                )
    return None


def _demo_orders(purchase: Purchase) -> tuple[list[OrderRecord], list[OrderLogRecord]]:
    placed = clock.now() - timedelta(days=3)
    fresh = new_order(purchase, owner=DEMO_USER_ID, partner=DEMO_PARTNER, payment_type="CASH", now=clock.now())
    # Payable for the whole hold from the seeding: its deposit is due by its `payBy`, not in minutes.
    fresh.update(
        {
            "_id": DEMO_NEW_ORDER_ID,
            "contractNumber": "CR-DEMO-000001",
            "depositBy": fresh["payBy"],
            "createdAt": placed,
            "updatedAt": placed,
        }
    )
    paid = new_order(purchase, owner=DEMO_USER_ID, partner=DEMO_PARTNER, payment_type="CASH", now=placed)
    paid_at = placed + timedelta(hours=2)
    paid.update(
        {
            "_id": DEMO_PAID_ORDER_ID,
            "contractNumber": "CR-DEMO-000002",
            "statusSlug": OrderStatus.PAID.value,
            "paidAmount": paid["amountDue"],
            "paymentIds": ["demo-payment"],
            "createdAt": placed,
            "updatedAt": paid_at,
        }
    )
    changes: list[tuple[OrderRecord, OrderStatus | None, OrderStatus, str, datetime]] = [
        (fresh, None, OrderStatus.NEW, "created", placed),
        (paid, None, OrderStatus.NEW, "created", placed),
        (paid, OrderStatus.NEW, OrderStatus.PAID, "card payment demo-payment", paid_at),
    ]
    logs = [
        OrderLogRecord(
            {
                "_id": stable_id(f"order-log:{order['_id']}:{to}"),
                "orderId": order["_id"],
                "userId": DEMO_USER_ID,
                "from": previous.value if previous else None,
                "to": to.value,
                "cause": cause,
                "at": at,
            }
        )
        for order, previous, to, cause, at in changes
    ]
    return [fresh, paid], logs


def seed(data: DataSet) -> int:
    """Store the demo orders and their logs if missing (one transaction); how many orders were stored."""
    purchase = demo_purchase(data)
    if purchase is None or store.find_order(DEMO_NEW_ORDER_ID) is not None:
        return 0
    orders, logs = _demo_orders(purchase)

    def work(session: ClientSession) -> int:
        for order in orders:
            store.insert_order(order, session=session)
        for log in logs:
            store.insert_order_log(log, session=session)
        return len(orders)

    return in_transaction(work)
