"""An operator's daily stock change (`python -m ops stock set`): how many units of a modification and color
a branch can still sell, logged with who and why in the same transaction. Placing an order takes a unit
of this number; setting it says what the branch has left to sell."""

from __future__ import annotations

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock, ids
from core.errors import InvalidInput, NotFound
from data import counters
from data.mongo import in_transaction
from domain.catalog import store as catalog
from domain.dealers import store
from domain.dealers.store import StockChange


def set_quantity(
    branch_id: ObjectId, modification_id: ObjectId, color_id: ObjectId, quantity: int, *, by: str, cause: str
) -> StockChange:
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

    def work(session: ClientSession) -> StockChange:
        version = counters.raise_change_version(session=session)
        before = store.set_stock(
            branch_id, car["_id"], modification_id, color_id, quantity, changed_in=version, session=session
        )
        change = StockChange(
            _id=ids.new_id(),
            branchId=branch_id,
            carId=car["_id"],
            modificationId=modification_id,
            colorId=color_id,
            before=before,
            after=quantity,
            by=by,
            cause=cause,
            at=clock.now(),
        )
        store.record_stock_change(change, session=session)
        return change

    return in_transaction(work)
