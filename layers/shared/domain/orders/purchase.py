"""Checks an order request against the catalog, then the dealers (docs/DATA_MODEL.md): every id exists and
belongs to the others, the price is current, the car's sale has started (`domain.catalog.sale`) and the
branch has the car in stock (placing the order takes the unit in its transaction: `domain.orders.placement`).
Whether the car is sold by the payment type is financing's to say, asked next (`domain.orders.financed`).

404 names the reference that does not exist or does not belong; 409 is a state the client can
refresh and retry (price changed, payment type withdrawn, out of stock), with the current values.
"""

from typing import NamedTuple

from bson import ObjectId

from core import clock
from core.errors import Conflict, NotFound
from domain.catalog import cars, sale
from domain.catalog import store as catalog
from domain.catalog.records import BrandRecord, CarRecord, ColorRecord, ModificationRecord
from domain.catalog.sale import SaleRules
from domain.dealers import store as dealers
from domain.dealers.records import BranchRecord
from domain.orders.requests import OrderRequest


class OutOfStock(Conflict):
    """The branch has no unit of the car left to sell (the buyer may choose another branch or color)."""

    default_code = "OUT_OF_STOCK"

    def __init__(self) -> None:
        super().__init__(details={"quantity": 0})


class Purchase(NamedTuple):
    """What an order buys, as the catalog has it now."""

    car: CarRecord
    modification: ModificationRecord
    color: ColorRecord
    branch: BranchRecord
    brand: BrandRecord | None
    rules: SaleRules = sale.NO_RULES  # of the modification bought (`domain.catalog.sale.rules_of`)
    buckets: int = 1  # the documents the branch's stock row is split into (domain.dealers.store)

    @property
    def brand_id(self) -> ObjectId:
        return ObjectId(self.car["brandId"])

    @property
    def price(self) -> int:
        return int(self.modification["price"])


def resolve_purchase(request: OrderRequest) -> Purchase:
    choice = cars.chosen(request.car_id, request.modification_id, request.color_id)
    car, modification, color = choice.car, choice.modification, choice.color
    brand = catalog.find_brand(car["brandId"])
    region = dealers.find_region(ObjectId(request.region_id))
    if region is None:
        raise NotFound("REGION_NOT_FOUND")
    branch = dealers.find_branch(request.branch_id)
    if branch is None:
        raise NotFound("BRANCH_NOT_FOUND")
    if branch.get("regionId") != region["_id"]:
        raise NotFound("BRANCH_NOT_IN_REGION")
    if car["brandId"] not in branch.get("brandIds", []):
        raise NotFound("BRANCH_DOES_NOT_SELL_BRAND")
    rules = sale.rules_of(car, modification)
    purchase = Purchase(car=car, modification=modification, color=color, branch=branch, brand=brand, rules=rules)
    if request.price != purchase.price:
        raise Conflict("PRICE_CHANGED", details={"currentPrice": purchase.price})
    if not rules.started(clock.now()):
        # To the second, by the server's clock; the catalog lists the same moment (`saleStartsAt`).
        raise Conflict("SALE_NOT_STARTED", details={"startsAt": rules.starts_at})
    stocked = dealers.stock_of(branch["_id"], modification["_id"], color["_id"])
    if not stocked.units:
        # Refused before a promo use or a contract number is spent; placing takes the unit itself.
        raise OutOfStock()
    return purchase._replace(buckets=stocked.buckets)
