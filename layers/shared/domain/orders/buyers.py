"""Who buys, and how much one person may hold: the limits that follow a person rather than an account.

A person is the verified PINFL when the account has one (identity verification), else the account: one
partner key can mint any number of accounts (any phone number signs in), but not PINFLs. Orders carry
the person as `buyer`, a key that names the PINFL only by its keyed hash ("pin:<hmac>"; "user:<id>"
for an unverified account).

Two limits are counted against the person's orders when an order is placed:
- open holds, for every car: at most ORDER_OPEN_HOLDS_PER_PERSON unpaid NEW orders at once;
- a car's sale rule `perPersonLimit` (`domain.catalog.sale`): at most `count` orders of that car not
  cancelled within the last `days` days.

Race-safe: MongoDB transactions are snapshot-isolated, so two transactions that each count the person's
orders and then insert one would both pass (write skew: they write different documents). Each order's
transaction therefore first writes the person's guard document in `order_buyers` (`store.guard_buyer`),
then counts: two orders of one person write the same guard, so one of them meets a write conflict and
the driver runs it again after the other committed, counting its order (docs/DECISIONS.md, "Orders").
Buyers who are different people never touch the same guard."""

from datetime import timedelta
from typing import NamedTuple

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict
from core.secrets import keyed_hash
from core.settings import get_settings
from domain.catalog.sale import PerPersonLimit
from domain.orders import store
from domain.orders.lifecycle import Status


class Buyer(NamedTuple):
    """The account placing an order and, when it was verified, its person's PINFL."""

    user_id: ObjectId
    verified_pin: str | None = None

    @property
    def verified(self) -> bool:
        return self.verified_pin is not None

    @property
    def key(self) -> str:
        """The person, as orders store it (`buyer`): never the PINFL itself."""
        if self.verified_pin is not None:
            return "pin:" + keyed_hash("order-buyer", self.verified_pin)
        return f"user:{self.user_id}"


def check_limits(
    buyer: Buyer, car_id: ObjectId, per_person: PerPersonLimit | None, *, session: ClientSession | None = None
) -> None:
    """Refuse (409) an order the person may not place now: OPEN_ORDERS_LIMIT_REACHED when they hold as
    many unpaid orders as allowed, PURCHASE_LIMIT_REACHED past the car's `perPersonLimit`. Without a
    session, a fast check before the order's transaction (it spends no contract number nor promo use on a
    refusal); `hold_limits` is the one that holds under races."""
    limit = get_settings().order_open_holds_per_person
    if store.count_open_orders(buyer.key, buyer.user_id, Status.NEW.value, limit=limit, session=session) >= limit:
        raise Conflict("OPEN_ORDERS_LIMIT_REACHED", limit=limit, details={"limit": limit})
    if per_person is not None:
        since = clock.now() - timedelta(days=per_person.days)
        placed = store.count_orders_of_car(
            buyer.key,
            buyer.user_id,
            car_id,
            since=since,
            cancelled=Status.CANCELLED.value,
            limit=per_person.orders,
            session=session,
        )
        if placed >= per_person.orders:
            raise Conflict(
                "PURCHASE_LIMIT_REACHED",
                count=per_person.orders,
                days=per_person.days,
                details={"count": per_person.orders, "days": per_person.days},
            )


def hold_limits(buyer: Buyer, car_id: ObjectId, per_person: PerPersonLimit | None, session: ClientSession) -> None:
    """`check_limits` inside the order's transaction, after writing the person's guard: of two orders
    of one person, the second counts the first (see the module's docstring)."""
    store.guard_buyer(buyer.key, at=clock.now(), session=session)
    check_limits(buyer, car_id, per_person, session=session)
