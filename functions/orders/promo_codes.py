"""Promo codes: validated for a caller, consumed atomically when an order uses one.

A code is stored uppercase as `_id` (codes are case-insensitive). A FIXED promo takes `value` sums off
the price; a PERCENT promo takes `value` percent, rounded down to whole sums and capped at
`maxDiscount`. A discount never exceeds the price.

`check` only reads. `consume` is one conditional update (`used < usageLimit` and the caller not in
`usedBy`, then `$inc` + `$addToSet`), so of several racing uses of the last slot exactly one wins;
`release` gives the use back when the order it was for could not be stored.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument

from core import clock
from core.errors import Conflict, NotFound
from data.mongo import get_db
from orders.models import PromoCode

Promo = dict[str, Any]


class DiscountType(StrEnum):
    FIXED = "FIXED"
    PERCENT = "PERCENT"


def normalize(code: str) -> str:
    return code.strip().upper()


def discount_for(promo: Promo, price: int) -> int:
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


def _refuse_unusable(promo: Promo, user_id: ObjectId, now: datetime) -> None:
    """Raise the error that says why the caller cannot use this promo now; return if they can."""
    valid_from, valid_to = promo.get("validFrom"), promo.get("validTo")
    if valid_from is not None and now < valid_from:
        raise Conflict("Promo code is not active yet", details={"validFrom": valid_from})
    if valid_to is not None and now >= valid_to:
        raise Conflict("Promo code has expired", details={"validTo": valid_to})
    if user_id in promo.get("usedBy", []):
        raise Conflict("You have already used this promo code")
    limit = promo.get("usageLimit")
    if limit is not None and int(promo.get("used", 0)) >= int(limit):
        raise Conflict("Promo code has been used up")


def _find(code: str) -> Promo:
    promo = get_db().promo_codes.find_one({"_id": normalize(code)})
    if promo is None:
        raise NotFound("Promo code not found")
    return promo


def check(code: str, user_id: ObjectId) -> Promo:
    """The promo if the caller may use it now; 404 unknown, 409 not active yet / expired / used."""
    promo = _find(code)
    _refuse_unusable(promo, user_id, clock.now())
    return promo


def consume(code: str, user_id: ObjectId) -> Promo:
    """Take one use of the promo for the caller, atomically; the same errors as `check`."""
    promo = check(code, user_id)
    limit = promo.get("usageLimit")
    condition: dict[str, Any] = {"_id": promo["_id"], "usageLimit": limit, "usedBy": {"$ne": user_id}}
    if limit is not None:
        condition["used"] = {"$lt": limit}
    taken = get_db().promo_codes.find_one_and_update(
        condition, {"$inc": {"used": 1}, "$addToSet": {"usedBy": user_id}}, return_document=ReturnDocument.AFTER
    )
    if taken is None:
        # Someone else took the last use, or this caller used it in a racing request: say which.
        _refuse_unusable(_find(code), user_id, clock.now())
        raise Conflict("Promo code has been used up")
    return taken


def release(code: str, user_id: ObjectId) -> None:
    """Give back a use taken by `consume` (the order it was for was not stored)."""
    get_db().promo_codes.update_one(
        {"_id": normalize(code), "usedBy": user_id}, {"$inc": {"used": -1}, "$pull": {"usedBy": user_id}}
    )


def describe(promo: Promo) -> PromoCode:
    """The apply-promo-code answer: `discount` is sums for FIXED and percent for PERCENT."""
    return PromoCode(
        code=promo["_id"],
        discount=int(promo["value"]),
        discountType=promo["discountType"],
        maxDiscount=promo.get("maxDiscount"),
        validTo=promo.get("validTo"),
    )
