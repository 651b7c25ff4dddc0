"""An operator's change of a car's sale rules (`python -m ops sale set`; the rules are `domain.catalog.sale`'s):
the car's or one modification's rules and the car's `saleStartsAt` change together, logged with who and
why in the same transaction, which raises the change version (`data.audit`)."""

from bson import ObjectId
from pymongo.client_session import ClientSession

from core.errors import NotFound
from data import audit
from data.audit import Stamp
from domain.catalog import store
from domain.catalog.records import SaleRecord
from domain.catalog.sale import starts_at
from domain.catalog.store import SaleChange


def set_rules(
    car_id: ObjectId,
    rules: SaleRecord | None,
    *,
    modification_id: ObjectId | None = None,
    by: str,
    cause: str,
) -> SaleChange:
    """Make `rules` the sale rules of the car, or of one of its modifications (None: no rules), and log
    who and why (`sale_changes`), in one transaction; the car's `saleStartsAt` follows. Orders placed
    before keep the hold they were given; the other rules apply to the orders placed from now on."""

    def write(session: ClientSession, stamp: Stamp) -> SaleChange:
        car = store.find_car_sale(car_id, session=session)
        if car is None:
            raise NotFound("CAR_NOT_FOUND", details={"carId": str(car_id)})
        if modification_id is None:
            before = car.get("sale")
            car["sale"] = rules
        else:
            modification = next((m for m in car.get("modifications", []) if m["_id"] == modification_id), None)
            if modification is None:
                raise NotFound("MODIFICATION_NOT_FOUND", details={"modificationId": str(modification_id)})
            before = modification.get("sale")
            modification["sale"] = rules
        store.set_sale(
            car_id, modification_id, rules, starts_at=starts_at(car), changed_in=stamp.version, session=session
        )
        return SaleChange(
            _id=stamp.id,
            carId=car_id,
            modificationId=modification_id,
            before=before,
            after=rules,
            by=stamp.by,
            cause=stamp.cause,
            at=stamp.at,
        )

    return audit.operator_change(write, store.record_sale_change, by=by, cause=cause)
