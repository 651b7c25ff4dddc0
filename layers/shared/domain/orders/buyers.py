"""Who buys, and how many cars one person may hold: the limits that follow a person rather than an account.

A person is the verified PINFL when the account has one (identity verification), else the account: one
partner key can mint any number of accounts (any phone number signs in), but not PINFLs. Orders carry
the person as `buyer`, a key that names the PINFL only by its keyed hash ("pin:<hmac>"; "user:<id>"
for an unverified account).

What a person holds (`holdings`) is counted when an order is placed, and `refusal` says whether they may
place it (ORDER_VERIFIED_BUYERS_ONLY, on everywhere but `local`, asks every buyer to be verified):
- unpaid cars, for every car: at most ORDER_UNPAID_CARS_PER_PERSON orders not paid in full at once
  (unpaid, deposit-paid, financed ones waiting for their bank), ORDER_UNVERIFIED_UNPAID_CARS for an
  unverified account;
- the unverified accounts of one partner together hold at most ORDER_UNVERIFIED_CARS_PER_PARTNER unpaid
  cars, so one leaked partner key cannot hold a branch;
- a car's sale rule `perPersonLimit` (`domain.catalog.sale`): at most `count` orders of that car within
  the last `days` days, not cancelled, or cancelled because they were not paid in time (a hold is not
  renewed by letting it expire).

Race-safe: MongoDB transactions are snapshot-isolated, so two transactions that each count the person's
orders and then insert one would both pass (write skew: they write different documents). Each order's
transaction therefore first writes the person's guard documents in `order_buyers` (`guard`), then
counts again: two orders of one person write the same guard, so one of them meets a write conflict and
the driver runs it again after the other committed, counting its order (docs/DECISIONS.md, "Orders").
The account's guard is written by every order of the account and the PINFL's by every order of a verified
person, so a verification between two orders cannot split them; an unverified order also writes its
partner's guard. Buyers who are different people never touch the same guard."""

from datetime import datetime, timedelta
from typing import NamedTuple

from bson import ObjectId
from pymongo.client_session import ClientSession

from core.errors import AppError, Conflict, NotPermitted
from core.secrets import keyed_hash
from domain.catalog.sale import SaleRules
from domain.identity import store as identity
from domain.orders import store
from domain.orders.settings import get_order_settings
from domain.orders.states import UNPAID_VALUES, OrderStatus


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

    @property
    def unpaid_allowance(self) -> int:
        """How many cars the person may hold not paid in full."""
        settings = get_order_settings()
        if self.verified:
            return settings.order_unpaid_cars_per_person
        return min(settings.order_unpaid_cars_per_person, settings.order_unverified_unpaid_cars)


def buyer_of(user_id: str) -> Buyer:
    """The signed-in user as a buyer: the account and, once identity verification confirmed it, its PINFL
    (the person the limits, and a fair opening's one entry, follow)."""
    return Buyer(ObjectId(user_id), verified_pin=identity.verified_pin(user_id))


class Holdings(NamedTuple):
    """What a buyer holds when an order is placed, counted up to what the limits need."""

    unpaid_cars: int  # the person's orders not paid in full, of any car
    of_car: int  # the person's orders of this car that count against its `perPersonLimit`
    partner_unverified: int  # unpaid cars of the partner's unverified accounts (0 for a verified buyer)


def holdings(
    buyer: Buyer,
    car_id: ObjectId,
    rules: SaleRules,
    *,
    partner: str,
    now: datetime,
    session: ClientSession | None = None,
) -> Holdings:
    """Count what the buyer holds (in the order's transaction when `session` is given)."""
    ceiling = get_order_settings().order_unverified_cars_per_partner
    return Holdings(
        unpaid_cars=store.count_orders_in(
            buyer.key, buyer.user_id, UNPAID_VALUES, limit=buyer.unpaid_allowance, session=session
        ),
        of_car=orders_of_car(buyer, car_id, rules, now=now, session=session),
        partner_unverified=0
        if buyer.verified
        else store.count_unverified_orders_of_partner(partner, UNPAID_VALUES, limit=ceiling, session=session),
    )


def orders_of_car(
    buyer: Buyer, car_id: ObjectId, rules: SaleRules, *, now: datetime, session: ClientSession | None = None
) -> int:
    """The person's orders of the car that count against its `perPersonLimit` (0 when it has none): within
    the last `days` days, not cancelled, or cancelled because they were not paid in time."""
    limit = rules.per_person_limit
    if limit is None:
        return 0
    return store.count_orders_of_car(
        buyer.key,
        buyer.user_id,
        car_id,
        since=now - timedelta(days=limit.days),
        cancelled=OrderStatus.CANCELLED.value,
        limit=limit.orders,
        session=session,
    )


def refusal(buyer: Buyer, held: Holdings, rules: SaleRules) -> AppError | None:
    """Why the buyer may not place an order of a car with these sale `rules` while holding `held`, or None:
    403 IDENTITY_VERIFICATION_REQUIRED, 409 OPEN_ORDERS_LIMIT_REACHED, UNVERIFIED_ORDERS_LIMIT_REACHED or
    PURCHASE_LIMIT_REACHED."""
    settings = get_order_settings()
    if not buyer.verified and (rules.verified_buyers_only or settings.verified_buyers_only):
        return NotPermitted("IDENTITY_VERIFICATION_REQUIRED")
    allowed = buyer.unpaid_allowance
    if held.unpaid_cars >= allowed:
        return Conflict("OPEN_ORDERS_LIMIT_REACHED", limit=allowed, details={"limit": allowed})
    if held.partner_unverified >= settings.order_unverified_cars_per_partner and not buyer.verified:
        return Conflict("UNVERIFIED_ORDERS_LIMIT_REACHED")
    per_person = rules.per_person_limit
    if per_person is not None and held.of_car >= per_person.orders:
        return Conflict(
            "PURCHASE_LIMIT_REACHED",
            count=per_person.orders,
            days=per_person.days,
            details={"count": per_person.orders, "days": per_person.days},
        )
    return None


def entry_refusal(buyer: Buyer, car_id: ObjectId, rules: SaleRules, *, now: datetime) -> AppError | None:
    """Why the buyer may not enter the car's fair opening (domain.orders.openings), or None: `refusal` of
    the sale's rules of the person (403 IDENTITY_VERIFICATION_REQUIRED, 409 PURCHASE_LIMIT_REACHED), so
    nobody waits for a car they may not buy. What they hold of other cars may change before their turn,
    so it is counted when they order, not here."""
    held = Holdings(unpaid_cars=0, of_car=orders_of_car(buyer, car_id, rules, now=now), partner_unverified=0)
    return refusal(buyer, held, rules)


def guard(buyer: Buyer, *, partner: str, now: datetime, session: ClientSession) -> None:
    """Write the buyer's guard documents in the order's transaction (see the module's docstring)."""
    keys = [f"user:{buyer.user_id}"] + ([buyer.key] if buyer.verified else [f"partner-unverified:{partner}"])
    for key in keys:
        store.guard_buyer(key, at=now, session=session)
