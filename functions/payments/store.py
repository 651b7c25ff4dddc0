"""Data access of the Payments function besides the shared financing look-ups (`domain.financing.store`, which
holds the organizations and each brand's products, programs and plans, cached; `domain.financing.deals`, the
chosen offer or program that orders check too): bank offers of a modification, the credit product
holding a chain node, special offers.

Bank offers are created with the financing data, never by a GET: `create_bank_offers` stores the offer of
every active credit product for every modification of its brand's cars (the seed runs it, operators run
`python -m ops bank-offers` after adding cars, modifications or credit products).
"""

from __future__ import annotations

import hashlib
from typing import Any

from bson import ObjectId
from pymongo.database import Database
from pymongo.errors import BulkWriteError

from core import clock
from data.mongo import get_db

Doc = dict[str, Any]
DUPLICATE_KEY = 11000


def offer_id(product_id: ObjectId, modification_id: ObjectId) -> ObjectId:
    """The id of a product's offer for a modification: the same for the same pair, everywhere."""
    digest = hashlib.sha1(f"bank-offer:{product_id}:{modification_id}".encode(), usedforsecurity=False)
    return ObjectId(digest.hexdigest()[:24])


def offer_documents(products: list[Doc], car: Doc, modification_id: ObjectId) -> list[Doc]:
    """The `bank_offers` documents of these products for one modification of the car."""
    now = clock.now()
    return [
        {
            "_id": offer_id(product["_id"], modification_id),
            "organizationId": product["organizationId"],
            "productId": product["_id"],
            "brandId": car["brandId"],
            "carId": car["_id"],
            "modificationId": modification_id,
            "createdAt": now,
        }
        for product in products
    ]


def create_bank_offers(db: Database[Doc] | None = None) -> int:
    """Store the missing offers of every active credit product for every modification of its brand's cars,
    never changing a stored one (its id is what clients hold); idempotent. Returns how many were created."""
    db = db if db is not None else get_db()
    products = list(db.credit_products.find({"active": True}, {"organizationId": 1, "brandId": 1}))
    cars = db.cars.find(
        {"brandId": {"$in": list({product["brandId"] for product in products})}}, {"brandId": 1, "modifications._id": 1}
    )
    wanted = [
        offer
        for car in cars
        for modification in car.get("modifications", [])
        for offer in offer_documents(
            [product for product in products if product["brandId"] == car["brandId"]], car, modification["_id"]
        )
    ]
    stored = {
        doc["_id"] for doc in db.bank_offers.find({"_id": {"$in": [offer["_id"] for offer in wanted]}}, {"_id": 1})
    }
    missing = [offer for offer in wanted if offer["_id"] not in stored]
    if not missing:
        return 0
    try:
        return len(db.bank_offers.insert_many(missing, ordered=False).inserted_ids)
    except BulkWriteError as exc:  # a concurrent run stored some first: they are the same documents
        if any(error.get("code") != DUPLICATE_KEY for error in exc.details.get("writeErrors", [])):
            raise
        return int(exc.details.get("nInserted", 0))


def offers_of_modification(modification_id: ObjectId, product_ids: list[ObjectId]) -> dict[ObjectId, Doc]:
    """The stored offers of these products for the modification, by product id."""
    found = get_db().bank_offers.find({"productId": {"$in": product_ids}, "modificationId": modification_id})
    return {offer["productId"]: offer for offer in found}


def product_holding(path: str, node_id: ObjectId) -> Doc | None:
    """The active credit product with a node of this id at `path` (e.g. `incomeTypes._id`), its tree only."""
    return get_db().credit_products.find_one({path: node_id, "active": True}, {path.split(".", maxsplit=1)[0]: 1})


def special_offers_of_car(car_id: str, kind: str) -> list[Doc]:
    found = get_db().special_offers.find({"carId": ObjectId(car_id), "kind": kind, "active": True})
    return list(found.sort("order", 1))


def find_special_offer(offer_id: str) -> Doc | None:
    return get_db().special_offers.find_one({"_id": ObjectId(offer_id), "active": True})
