"""Promo codes: validated for a caller, consumed atomically when an order uses one.

A code is stored uppercase as `_id` (codes are case-insensitive). A FIXED promo takes `value` sums off
the price; a PERCENT promo takes `value` percent, rounded down to whole sums and capped at
`maxDiscount`. A discount never exceeds the price.

`check` only reads. `take_use` is one conditional update (`used < usageLimit` and the caller not in
`usedBy`, then `$inc` + `$addToSet`, `domain.orders.store.take_promo_use`), so of several racing uses of
the last slot exactly one wins; `give_back_use` undoes it when the order it was for could not be stored.
An order cancelled before it was paid in full gives its use back too (`domain.orders.lifecycle`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any

from bson import ObjectId
from pymongo.client_session import ClientSession

from core import clock
from core.errors import Conflict, NotFound
from data import counters
from data.mongo import in_transaction
from domain.orders import store
from domain.orders.records import PromoCodeRecord


class DiscountType(StrEnum):
    FIXED = "FIXED"
    PERCENT = "PERCENT"


def normalize(code: str) -> str:
    return code.strip().upper()


def discount_for(promo: Mapping[str, Any], price: int) -> int:
    """The discount in whole sums that this promo gives on `price`."""
    value = int(promo["value"])
    if promo["discountType"] == DiscountType.PERCENT:
        discount = price * value // 100
        cap = promo.get("maxDiscount")
        if cap is not None:
            discount = min(discount, int(cap))
    else:
        discount = value
    return max(0, min(discount, price))


def _refuse_unusable(promo: PromoCodeRecord, user_id: ObjectId, now: datetime) -> None:
    """Raise the error that says why the caller cannot use this promo now; return if they can."""
    valid_from, valid_to = promo.get("validFrom"), promo.get("validTo")
    if valid_from is not None and now < valid_from:
        raise Conflict("PROMO_CODE_NOT_ACTIVE_YET", details={"validFrom": valid_from})
    if valid_to is not None and now >= valid_to:
        raise Conflict("PROMO_CODE_EXPIRED", details={"validTo": valid_to})
    if user_id in promo.get("usedBy", []):
        raise Conflict("PROMO_CODE_ALREADY_USED")
    limit = promo.get("usageLimit")
    if limit is not None and int(promo.get("used", 0)) >= int(limit):
        raise Conflict("PROMO_CODE_USED_UP")


def _find(code: str) -> PromoCodeRecord:
    promo = store.find_promo_code(normalize(code))
    if promo is None:
        raise NotFound("PROMO_CODE_NOT_FOUND")
    return promo


def check(code: str, user_id: ObjectId) -> PromoCodeRecord:
    """The promo if the caller may use it now; 404 unknown, 409 not active yet / expired / used."""
    promo = _find(code)
    _refuse_unusable(promo, user_id, clock.now())
    return promo


def take_use(promo: PromoCodeRecord, user_id: ObjectId) -> None:
    """Take one use of the promo for the caller, atomically; the same errors as `check` when someone else
    took the last use meanwhile, or this caller used it in a racing order."""
    if store.take_promo_use(promo["_id"], user_id, promo.get("usageLimit")) is None:
        _refuse_unusable(store.find_promo_code(promo["_id"]) or promo, user_id, clock.now())
        raise Conflict("PROMO_CODE_USED_UP")


def give_back_use(code: str, user_id: ObjectId) -> None:
    """Give back a use taken by `take_use` (the order it was for was not stored)."""
    store.give_back_promo_use(code, user_id)


# --- operators (python -m ops promo) ------------------------------------------------------------------


def add(promo: PromoCodeRecord) -> PromoCodeRecord:
    """Store a new code (its rules checked by the caller: `domain.dataset.models.PromoCodeEntry`), unused,
    stamped with a new change version (`data.counters`) in the same transaction."""

    def work(session: ClientSession) -> PromoCodeRecord:
        record = PromoCodeRecord(
            {
                **promo,
                "_id": normalize(promo["_id"]),
                "used": 0,
                "usedBy": [],
                "createdAt": clock.now(),
                "changedIn": counters.raise_change_version(session=session),
            }
        )
        if not store.insert_promo_code(record, session=session):
            raise Conflict("PROMO_CODE_EXISTS", details={"code": record["_id"]})
        return record

    return in_transaction(work)


def all_codes() -> list[PromoCodeRecord]:
    """Every code with how often it was used (not by whom)."""
    return store.all_promo_codes()


def disable(code: str) -> PromoCodeRecord:
    """End the code now (it answers "expired" from now on), stamped with a new change version; uses already
    taken stay."""

    def work(session: ClientSession) -> PromoCodeRecord:
        version = counters.raise_change_version(session=session)
        ended = store.end_promo_code(normalize(code), clock.now(), changed_in=version, session=session)
        if ended is None:
            raise NotFound("PROMO_CODE_NOT_FOUND")
        return ended

    return in_transaction(work)
