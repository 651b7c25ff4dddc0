"""Checks an order request against the catalog (docs/DATA_MODEL.md): every id exists and belongs to
the others, the payment type is offered (the rule of `domain.financing.store`), the price is current and
the branch has the car in stock.

404 names the reference that does not exist or does not belong; 409 is a state the client can
refresh and retry (price changed, payment type withdrawn, out of stock), with the current values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from core.errors import Conflict, NotFound
from domain.catalog import brands, cars
from domain.dealers import store as dealers
from domain.financing.store import offered_payment_types
from orders.models import CreateOrderBody

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


def resolve_purchase(body: CreateOrderBody) -> Purchase:
    choice = cars.chosen(body.carId, body.modificationId, body.colorId)
    car, modification, color = choice.car, choice.modification, choice.color
    region = dealers.find_region(ObjectId(body.regionId))
    if region is None:
        raise NotFound("Region not found")
    branch = dealers.find_branch(body.branchId)
    if branch is None:
        raise NotFound("Branch not found or not active")
    if branch.get("regionId") != region["_id"]:
        raise NotFound("Branch not found in this region")
    if car["brandId"] not in branch.get("brandIds", []):
        raise NotFound("This branch does not sell this car's brand")

    brand = brands.find_by_id(str(car["brandId"]))
    purchase = Purchase(car=car, modification=modification, color=color, branch=branch, brand=brand)
    offered = [kind.value for kind in offered_payment_types(car)]
    if body.paymentTypeId.value not in offered:
        raise Conflict(
            f"Payment type {body.paymentTypeId.value} is not offered for this car", details={"paymentTypes": offered}
        )
    if body.price != purchase.price:
        raise Conflict("The price has changed", details={"currentPrice": purchase.price})
    if not dealers.branches_with_stock([branch["_id"]], modification["_id"], color["_id"]):
        raise Conflict("This branch has no car of this modification and color in stock", details={"quantity": 0})
    return purchase
