"""Checks an order request against the catalog (docs/DATA_MODEL.md): every id exists and belongs to
the others, the payment type is offered (the rule of `payments.service`), the price is current and
the branch has the car in stock.

404 names the reference that does not exist or does not belong; 409 is a state the client can
refresh and retry (price changed, payment type withdrawn, out of stock), with the current values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from common.db import get_db
from common.errors import Conflict, NotFound
from orders.models import CreateOrderBody
from payments.service import offered_payment_types

Document = dict[str, Any]


@dataclass(frozen=True)
class Purchase:
    """What an order buys, as the catalog has it now."""

    car: Document
    modification: Document
    color: Document
    branch: Document
    brand: Document | None

    @property
    def brand_id(self) -> ObjectId:
        return ObjectId(self.car["brandId"])

    @property
    def price(self) -> int:
        return int(self.modification["price"])


def _embedded(items: list[Document], item_id: ObjectId) -> Document | None:
    return next((item for item in items if item.get("_id") == item_id), None)


def resolve_purchase(body: CreateOrderBody) -> Purchase:
    db = get_db()
    car = db.cars.find_one({"_id": ObjectId(body.carId)})
    if car is None:
        raise NotFound("Car not found")
    modification = _embedded(car.get("modifications", []), ObjectId(body.modificationId))
    if modification is None:
        raise NotFound("Modification not found for this car")
    color = _embedded(car.get("colors", []), ObjectId(body.colorId))
    if color is None:
        raise NotFound("Color not found for this car")
    region_id = ObjectId(body.regionId)
    if db.regions.count_documents({"_id": region_id}, limit=1) == 0:
        raise NotFound("Region not found")
    branch = db.branches.find_one({"_id": ObjectId(body.branchId), "active": True})
    if branch is None:
        raise NotFound("Branch not found or not active")
    if branch.get("regionId") != region_id:
        raise NotFound("Branch not found in this region")
    if car["brandId"] not in branch.get("brandIds", []):
        raise NotFound("This branch does not sell this car's brand")

    brand = db.brands.find_one({"_id": car["brandId"]})
    purchase = Purchase(car=car, modification=modification, color=color, branch=branch, brand=brand)
    offered = [kind.value for kind in offered_payment_types(car)]
    if body.paymentTypeId.value not in offered:
        raise Conflict(
            f"Payment type {body.paymentTypeId.value} is not offered for this car", details={"paymentTypes": offered}
        )
    if body.price != purchase.price:
        raise Conflict("The price has changed", details={"currentPrice": purchase.price})
    stock = db.stock.find_one(
        {"branchId": branch["_id"], "modificationId": modification["_id"], "colorId": color["_id"]}, {"quantity": 1}
    )
    if stock is None or int(stock.get("quantity", 0)) <= 0:
        raise Conflict("This branch has no car of this modification and color in stock", details={"quantity": 0})
    return purchase
