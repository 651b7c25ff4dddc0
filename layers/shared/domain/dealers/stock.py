"""An operator's daily stock change (`python -m ops stock set`): how many units of a modification and color
a branch can still sell, logged with who and why in the same transaction. Placing an order takes a unit
of this number; setting it says what the branch has left to sell.

The units may be split into K documents (`buckets`, domain.dealers.store) so a rush of orders does not
queue on one: an operator's K, else the row's current K, else QUEUED_CAR_BUCKETS for a car sold through a
fair opening's queue (docs/OPERATIONS.md, "Running a sale opening"); never more buckets than units."""

from __future__ import annotations

from bson import ObjectId
from pymongo.client_session import ClientSession

from core.errors import InvalidInput, NotFound
from data import audit
from data.audit import Stamp
from domain.catalog import sale
from domain.catalog import store as catalog
from domain.dealers import store
from domain.dealers.store import StockChange

# A queued car's rows by default: 8 to 32 documents sold 110-252 units/s where one sold 49-77 with racing
# buyers (docs/PERFORMANCE.md, "A sale opening"); most of what 16 gain, without many empty buckets to try.
QUEUED_CAR_BUCKETS = 16
MAX_BUCKETS = 64


def set_quantity(
    branch_id: ObjectId,
    modification_id: ObjectId,
    color_id: ObjectId,
    quantity: int,
    *,
    by: str,
    cause: str,
    buckets: int | None = None,
) -> StockChange:
    """Set the row's quantity, split over `buckets` documents (None: as it is, or a queued car's default;
    between 1 and MAX_BUCKETS, and no more than the units)."""
    if quantity < 0:
        raise InvalidInput("STOCK_QUANTITY_NEGATIVE")
    branch = store.find_any_branch(branch_id)
    if branch is None:
        raise NotFound("BRANCH_NOT_FOUND", details={"branchId": str(branch_id)})
    car = catalog.find_car_of_modification(modification_id)
    if car is None:
        raise NotFound("MODIFICATION_NOT_FOUND", details={"modificationId": str(modification_id)})
    if color_id not in {color["_id"] for color in catalog.car_colors(car["_id"])}:
        raise NotFound("COLOR_NOT_FOUND", details={"colorId": str(color_id)})
    if car.get("brandId") not in branch.get("brandIds", []):
        raise NotFound("BRANCH_DOES_NOT_SELL_BRAND", details={"branchId": str(branch_id)})

    if buckets is None:
        asked = store.buckets_asked(branch_id, modification_id, color_id)
        queued = sale.queue_of(catalog.find_car_sale(car["_id"]) or car) is not None
        buckets = asked if asked is not None and asked > 1 else (QUEUED_CAR_BUCKETS if queued else 1)
    buckets = max(1, min(buckets, MAX_BUCKETS))
    split = min(buckets, max(1, quantity))

    def write(session: ClientSession, stamp: Stamp) -> StockChange:
        before = store.set_stock(
            branch_id,
            car["_id"],
            modification_id,
            color_id,
            quantity,
            buckets=split,
            asked=buckets,
            changed_in=stamp.version,
            session=session,
        )
        return StockChange(
            _id=stamp.id,
            branchId=branch_id,
            carId=car["_id"],
            modificationId=modification_id,
            colorId=color_id,
            before=before,
            after=quantity,
            buckets=split,
            by=stamp.by,
            cause=stamp.cause,
            at=stamp.at,
        )

    return audit.operator_change(write, store.record_stock_change, by=by, cause=cause)
