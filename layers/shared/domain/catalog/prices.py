"""An operator's daily price change (`python -m ops prices set`): the modification's price and its car's
`priceFrom` change together, logged with who and why in the same transaction, which raises the change
version (`data.counters`). Orders placed before keep the price they were placed with; bank offers read
the current price, so they follow."""

from __future__ import annotations

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock, ids
from core.errors import NotFound
from data import counters
from data.mongo import in_transaction
from domain.catalog import store
from domain.catalog.store import PriceChange


def set_price(modification_id: ObjectId, price: int, *, by: str, cause: str) -> PriceChange:
    def work(session: ClientSession) -> PriceChange:
        found = store.set_price(
            modification_id, price, changed_in=counters.raise_change_version(session=session), session=session
        )
        if found is None:
            raise NotFound("MODIFICATION_NOT_FOUND", details={"modificationId": str(modification_id)})
        car, before = found
        change = PriceChange(
            _id=ids.new_id(),
            carId=car["_id"],
            modificationId=modification_id,
            before=before,
            after=price,
            by=by,
            cause=cause,
            at=clock.now(),
        )
        store.record_price_change(change, session=session)
        return change

    return in_transaction(work)
