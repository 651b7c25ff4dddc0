"""An operator's daily price change (`python -m ops prices set`): the modification's price and its car's
`priceFrom` change together, logged with who and why in the same transaction, which raises the change
version (`data.audit`). Orders placed before keep the price they were placed with; bank offers read
the current price, so they follow."""

from __future__ import annotations

from bson import ObjectId
from pymongo.client_session import ClientSession

from core.errors import NotFound
from data import audit
from data.audit import Stamp
from domain.catalog import store
from domain.catalog.store import PriceChange


def set_price(modification_id: ObjectId, price: int, *, by: str, cause: str) -> PriceChange:
    def write(session: ClientSession, stamp: Stamp) -> PriceChange:
        found = store.set_price(modification_id, price, changed_in=stamp.version, session=session)
        if found is None:
            raise NotFound("MODIFICATION_NOT_FOUND", details={"modificationId": str(modification_id)})
        car, before = found
        return PriceChange(
            _id=stamp.id,
            carId=car["_id"],
            modificationId=modification_id,
            before=before,
            after=price,
            by=stamp.by,
            cause=stamp.cause,
            at=stamp.at,
        )

    return audit.operator_change(write, store.record_price_change, by=by, cause=cause)
