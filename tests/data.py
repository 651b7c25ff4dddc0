"""Data factories for catalog documents (docs/DATA_MODEL.md), for tests of any function group that
needs a real car to point at: a brand, a car with modifications and colors, a region, a branch, stock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from bson import ObjectId
from pymongo.database import Database

from domain.catalog.store import brand_search_prefixes, car_search_prefixes
from domain.orders.records import OrderRecord

if TYPE_CHECKING:
    from tests.factories import ApiClient

Db = Database[dict[str, Any]]


def text(en: str, ru: str | None = None, uz: str | None = None) -> dict[str, str]:
    """A localized text; ru and uz default to tagged copies of en, so tests can tell locales apart."""
    return {"en": en, "ru": ru or f"{en} (ru)", "uz": uz or f"{en} (uz)"}


@dataclass
class CatalogCar:
    """Ids of one purchasable car and a branch that stocks it."""

    brand_id: ObjectId
    car_id: ObjectId
    modification_ids: list[ObjectId]
    color_ids: list[ObjectId]
    region_id: ObjectId
    branch_id: ObjectId
    prices: list[int]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def modification_id(self) -> ObjectId:
        return self.modification_ids[0]

    @property
    def color_id(self) -> ObjectId:
        return self.color_ids[0]

    @property
    def price(self) -> int:
        return self.prices[0]


def insert_brand(db: Db, name: str = "Chevrolet", **fields: Any) -> ObjectId:
    brand_id = ObjectId()
    doc = {
        "_id": brand_id,
        "slug": name.lower().replace(" ", "-"),
        "name": name,
        "logo": f"brands/{name.lower()}.svg",
        "country": text("Uzbekistan"),
        "description": text(f"{name} cars"),
        "order": 1,
        "createdAt": datetime(2026, 1, 1, tzinfo=UTC),
        **fields,
    }
    doc["searchPrefixes"] = brand_search_prefixes(doc)  # as the catalog's writers store it
    db.brands.insert_one(doc)
    return brand_id


def insert_car(
    db: Db,
    brand_id: ObjectId,
    *,
    name: str = "Cobalt",
    prices: tuple[int, ...] = (180_000_000, 210_000_000),
    colors: tuple[tuple[str, str], ...] = (("White", "#FFFFFF"), ("Black", "#000000")),
    payment_types: tuple[str, ...] = ("CASH", "CREDIT", "LEASING", "INSTALLMENT"),
    localized_name: dict[str, str] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    modifications = [
        {
            "_id": ObjectId(),
            "name": f"{name} {index + 1}.5 {'MT' if index == 0 else 'AT'}",
            "price": price,
            "specs": [{"title": text("Engine"), "items": [{"name": text("Volume"), "value": text("1.5 l")}]}],
        }
        for index, price in enumerate(prices)
    ]
    doc = {
        "_id": ObjectId(),
        "slug": f"{name.lower().replace(' ', '-')}-{ObjectId()}",
        "brandId": brand_id,
        "bodyTypeId": fields.pop("bodyTypeId", ObjectId()),
        "powertrainId": fields.pop("powertrainId", ObjectId()),
        "name": localized_name or text(name),
        "description": text(f"The {name}"),
        "year": 2026,
        "image": f"cars/{name.lower()}.webp",
        "gallery": [],
        "priceFrom": min(prices),
        "paymentTypes": list(payment_types),
        "isNew": True,
        "createdAt": datetime(2026, 1, 1, tzinfo=UTC),
        "info": [{"_id": ObjectId(), "title": text("Safety"), "description": text("Six airbags"), "image": None}],
        "colors": [{"_id": ObjectId(), "name": text(c), "hex": h, "image": None} for c, h in colors],
        "modifications": modifications,
        **fields,
    }
    brand = db.brands.find_one({"_id": brand_id}, {"name": 1})
    doc["searchPrefixes"] = car_search_prefixes(doc, brand["name"] if brand else "")  # as the catalog's writers do
    db.cars.insert_one(doc)
    return doc


def insert_body_type(db: Db, slug: str = "sedan", **fields: Any) -> ObjectId:
    body_type_id = ObjectId()
    doc = {"_id": body_type_id, "slug": slug, "name": text(slug.title()), "image": f"bodies/{slug}.svg", "order": 1}
    db.body_types.insert_one({**doc, **fields})
    return body_type_id


def insert_powertrain(db: Db, slug: str = "ICE", **fields: Any) -> ObjectId:
    powertrain_id = ObjectId()
    db.powertrains.insert_one({"_id": powertrain_id, "slug": slug, "name": text(slug), "order": 1, **fields})
    return powertrain_id


def insert_region(db: Db, name: str = "Tashkent") -> ObjectId:
    region_id = ObjectId()
    db.regions.insert_one({"_id": region_id, "slug": f"{name.lower()}-{region_id}", "name": text(name), "order": 1})
    return region_id


def insert_branch(db: Db, region_id: ObjectId, brand_ids: list[ObjectId], name: str = "Chilonzor") -> ObjectId:
    branch_id = ObjectId()
    doc = {
        "_id": branch_id,
        "regionId": region_id,
        "brandIds": brand_ids,
        "name": text(f"{name} dealer"),
        "address": text(f"{name} street 1"),
        "phone": "+998712000000",
        "hours": text("09:00-18:00"),
        "location": {"lat": 41.28, "lng": 69.2},
        "active": True,
    }
    db.branches.insert_one(doc)
    return branch_id


def insert_stock(db: Db, branch_id: ObjectId, car: dict[str, Any], quantity: int = 3) -> None:
    db.stock.insert_many(
        [
            {
                "_id": ObjectId(),
                "branchId": branch_id,
                "carId": car["_id"],
                "modificationId": modification["_id"],
                "colorId": color["_id"],
                "quantity": quantity,
            }
            for modification in car["modifications"]
            for color in car["colors"]
        ]
    )


def stock_quantity(db: Db, car: CatalogCar) -> int:
    """How many of the car's first modification in its first color its branch can still sell (every bucket
    of a split row together)."""
    where = {"branchId": car.branch_id, "modificationId": car.modification_id, "colorId": car.color_id}
    split = sum(int(bucket["quantity"]) for bucket in db.stock_buckets.find(where))
    return int((db.stock.find_one(where) or {})["quantity"]) + split


def purchasable_car(
    db: Db, *, brand: str = "Chevrolet", name: str = "Cobalt", quantity: int = 3, **car_fields: Any
) -> CatalogCar:
    """A brand, a car with two modifications and two colors, and a branch in a region that stocks
    `quantity` of each (each order placed takes one)."""
    brand_id = insert_brand(db, brand)
    car = insert_car(db, brand_id, name=name, **car_fields)
    region_id = insert_region(db)
    branch_id = insert_branch(db, region_id, [brand_id])
    insert_stock(db, branch_id, car, quantity)
    return CatalogCar(
        brand_id=brand_id,
        car_id=car["_id"],
        modification_ids=[m["_id"] for m in car["modifications"]],
        color_ids=[c["_id"] for c in car["colors"]],
        region_id=region_id,
        branch_id=branch_id,
        prices=[m["price"] for m in car["modifications"]],
    )


def insert_order(
    db: Db,
    user_id: ObjectId,
    car: CatalogCar | None = None,
    *,
    status: str = "NEW",
    amount_due: int = 200_000_000,
    paid: int = 0,
    payment_type: str = "CASH",
    **fields: Any,
) -> OrderRecord:
    """An order document as POST /api/v1/orders stores it (docs/DATA_MODEL.md), with its creation log."""
    now = datetime.now(UTC)
    order_id = ObjectId()
    doc: dict[str, Any] = {
        "_id": order_id,
        "userId": user_id,
        "contractNumber": f"CR-TEST-{order_id}",
        "statusSlug": status,
        "brandId": car.brand_id if car else ObjectId(),
        "carId": car.car_id if car else ObjectId(),
        "modificationId": car.modification_id if car else ObjectId(),
        "colorId": car.color_id if car else ObjectId(),
        "branchId": car.branch_id if car else ObjectId(),
        "regionId": car.region_id if car else ObjectId(),
        "paymentTypeId": payment_type,
        "price": amount_due,
        "discount": 0,
        "promoCode": None,
        "amountDue": amount_due,
        "paidAmount": paid,
        "paymentIds": [],
        "createdAt": now,
        "updatedAt": now,
        **fields,
    }
    db.orders.insert_one(doc)
    db.order_logs.insert_one(
        {"orderId": order_id, "userId": user_id, "from": None, "to": status, "cause": "created", "at": now}
    )
    return cast("OrderRecord", doc)


def order_body(car: CatalogCar, **overrides: Any) -> dict[str, Any]:
    """A POST /api/v1/orders body for this car at its current price, paid in cash."""
    body: dict[str, Any] = {
        "carId": str(car.car_id),
        "modificationId": str(car.modification_id),
        "colorId": str(car.color_id),
        "regionId": str(car.region_id),
        "branchId": str(car.branch_id),
        "paymentTypeId": "CASH",
        "price": car.price,
    }
    body.update(overrides)
    return body


def insert_promo_code(
    db: Db,
    code: str = "SAVE10",
    *,
    discount_type: str = "PERCENT",
    value: int = 10,
    max_discount: int | None = None,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
    usage_limit: int | None = 100,
    used_by: tuple[ObjectId, ...] = (),
) -> dict[str, Any]:
    """A promo code as docs/DATA_MODEL.md describes it; open-ended validity unless told otherwise."""
    doc: dict[str, Any] = {
        "_id": code.upper(),
        "discountType": discount_type,
        "value": value,
        "maxDiscount": max_discount,
        "validFrom": valid_from,
        "validTo": valid_to,
        "usageLimit": usage_limit,
        "used": len(used_by),
        "usedBy": list(used_by),
        "createdAt": datetime.now(UTC),
    }
    db.promo_codes.insert_one(doc)
    return doc


def place_and_pay_by_card(api: ApiClient, db: Db) -> tuple[dict[str, Any], dict[str, Any]]:
    """A buyer signs in, orders a car of 1,000,000 sums and pays it in full by card in the sandbox;
    returns the order as placed and the apply's answer."""
    api.login()
    car = purchasable_car(db, prices=(1_000_000,))
    order: dict[str, Any] = api.post("/api/v1/orders", json=order_body(car)).json()["data"]
    payment = {"amount": 1_000_000, "brandId": order["brandId"], "orderId": order["_id"]}
    created = api.post(
        "/api/v1/transactions/create",
        json={**payment, "cardNumber": "8600495473316478", "expiry": "12/39", "cardType": "UZCARD"},
    )
    transaction_id = created.json()["data"]["transactionId"]
    applied = api.post("/api/v1/transactions/apply", json={**payment, "transactionId": transaction_id, "otp": 666666})
    assert applied.status_code == 200, applied.text
    return order, applied.json()["data"]


def insert_entries(db: Db, car_id: ObjectId, people: int, registered_at: datetime) -> None:
    """`people` distinct people registered for a queued car's draw at `registered_at`, not yet drawn."""
    db.sale_entries.insert_many(
        [
            {
                "_id": ObjectId(),
                "carId": car_id,
                "person": f"person-{n}",
                "userId": ObjectId(),
                "registeredAt": registered_at,
                "late": False,
                "position": None,
            }
            for n in range(people)
        ]
    )
