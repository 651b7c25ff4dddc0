"""A small catalog, dealer network and bank, held in memory and put in place of the stores' functions
(`domain.catalog.store`, `domain.dealers.store`, `domain.financing.store`), so the rules of placing an
order and pricing a credit run without a database. Each read of a car is counted."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from data.lazy_records import LazyRecord
from domain.catalog import store as catalog
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import BrandRecord, CarRecord
from domain.dealers import store as dealers
from domain.dealers.records import BranchRecord, RegionRecord
from domain.financing import store as financing
from domain.financing.records import (
    BankOfferRecord,
    CreditProductRecord,
    LoanTermRecord,
    OrganizationRecord,
    RefundTypeRecord,
)
from domain.financing.store import BrandFinancing, OfferChoice, StoredRecord, offer_id
from domain.orders.requests import CreditRequest

PRICE, OTHER_PRICE = 300_000_000, 350_000_000


def _id() -> ObjectId:
    return ObjectId()


@dataclass
class Shop:
    """One brand's car with two modifications and a color, sold at one branch on credit by one bank:
    30 % down, 36 months at 24 % a year, annuity (or 12 months at 22 %)."""

    brand_id: ObjectId = field(default_factory=_id)
    car_id: ObjectId = field(default_factory=_id)
    modification_id: ObjectId = field(default_factory=_id)
    other_modification_id: ObjectId = field(default_factory=_id)
    color_id: ObjectId = field(default_factory=_id)
    region_id: ObjectId = field(default_factory=_id)
    branch_id: ObjectId = field(default_factory=_id)
    bank_id: ObjectId = field(default_factory=_id)
    product_id: ObjectId = field(default_factory=_id)
    income_type_id: ObjectId = field(default_factory=_id)
    initial_payment_id: ObjectId = field(default_factory=_id)
    loan_term_id: ObjectId = field(default_factory=_id)
    short_term_id: ObjectId = field(default_factory=_id)
    refund_type_id: ObjectId = field(default_factory=_id)
    payment_types: list[str] = field(default_factory=lambda: ["CASH", "CREDIT"])
    stocked: bool = True
    prices: dict[ObjectId, int] = field(default_factory=dict)  # changed prices, by modification
    car_reads: Counter[str] = field(default_factory=Counter)

    def car(self) -> CarRecord:
        return {
            "_id": self.car_id,
            "brandId": self.brand_id,
            "name": {"en": "Cobalt"},
            "paymentTypes": self.payment_types,
            "modifications": [
                {"_id": self.modification_id, "name": "LTZ", "price": PRICE},
                {"_id": self.other_modification_id, "name": "LT", "price": OTHER_PRICE},
            ],
            "colors": [{"_id": self.color_id, "name": {"en": "White"}, "hex": "#FFFFFF"}],
        }

    def _priced_car(self) -> CarRecord:
        car = self.car()
        for modification in car["modifications"]:
            modification["price"] = self.prices.get(modification["_id"], modification["price"])
        return car

    def product(self) -> CreditProductRecord:
        refund: list[RefundTypeRecord] = [{"_id": self.refund_type_id, "slug": "ANNUITY"}]
        terms: list[LoanTermRecord] = [
            {"_id": self.loan_term_id, "months": 36, "rateBp": 2400, "refundTypes": refund},
            {"_id": self.short_term_id, "months": 12, "rateBp": 2200, "refundTypes": refund},
        ]
        return {
            "_id": self.product_id,
            "organizationId": self.bank_id,
            "brandId": self.brand_id,
            "name": {"en": "Car loan"},
            "active": True,
            "incomeTypes": [
                {
                    "_id": self.income_type_id,
                    "slug": "SALARIED",
                    "name": {"en": "Salaried"},
                    "initialPayments": [
                        {
                            "_id": self.initial_payment_id,
                            "percent": 30,
                            "loanTerms": terms,
                        }
                    ],
                }
            ],
        }

    def offer(self, modification_id: ObjectId | None = None) -> BankOfferRecord:
        """The bank's offer for a modification of the car (the first one by default)."""
        modification = modification_id or self.modification_id
        return {
            "_id": offer_id(self.product_id, modification),
            "organizationId": self.bank_id,
            "productId": self.product_id,
            "brandId": self.brand_id,
            "carId": self.car_id,
            "modificationId": modification,
            "createdAt": datetime(2026, 1, 1, tzinfo=UTC),
        }

    def chain(self, **overrides: ObjectId) -> CreditRequest:
        """The five ids of the bank chain for the first modification (`overrides` by field name)."""
        ids = {
            "offer_id": self.offer()["_id"],
            "income_type_id": self.income_type_id,
            "initial_payment_id": self.initial_payment_id,
            "loan_term_id": self.loan_term_id,
            "refund_type_id": self.refund_type_id,
        }
        return CreditRequest(**{name: str(value) for name, value in {**ids, **overrides}.items()})

    def install(self, monkeypatch: pytest.MonkeyPatch) -> Shop:
        """Put this shop in place of the stores' reads."""
        brand: BrandRecord = {"_id": self.brand_id, "name": "Chevrolet"}
        region: RegionRecord = {"_id": self.region_id, "name": {"en": "Tashkent"}}
        branch: BranchRecord = {
            "_id": self.branch_id,
            "regionId": self.region_id,
            "brandIds": [self.brand_id],
            "active": True,
        }
        offers = {offer["_id"]: offer for offer in (self.offer(), self.offer(self.other_modification_id))}
        bank: OrganizationRecord = {"_id": self.bank_id, "name": "Kapitalbank", "active": True}
        stored_product = StoredRecord(
            record_id=self.product_id, organization_id=self.bank_id, order=0, lazy=LazyRecord(self.product)
        )

        def find_car(car_id: str) -> CarRecord | None:
            self.car_reads["find_car"] += 1
            return self._priced_car() if ObjectId(car_id) == self.car_id else None

        def find_car_of_modification(modification_id: str | ObjectId) -> CarRecord | None:
            self.car_reads["find_car_of_modification"] += 1
            car = self._priced_car()
            held = {modification["_id"] for modification in car["modifications"]}
            return car if ObjectId(modification_id) in held else None

        def branches_with_stock(branch_ids: list[ObjectId], modification_id: ObjectId, color_id: ObjectId) -> set[Any]:
            wanted = (modification_id, color_id) == (self.modification_id, self.color_id)
            return {self.branch_id} if self.stocked and wanted and self.branch_id in branch_ids else set()

        def offer_choice(offer_id: str, node_ids: list[ObjectId]) -> OfferChoice | None:
            offer = offers.get(ObjectId(offer_id))
            if offer is None:
                return None
            node: Any = self.product()
            path: list[Any] = []
            for (level, fields), node_id in zip(financing.CREDIT_PATH, node_ids, strict=True):
                node = next((child for child in node.get(level, []) if child["_id"] == node_id), None) if node else None
                path.append({name: node[name] for name in fields if name in node} if node else None)
            return OfferChoice(offer, self.bank_id, path)

        def financed_payment_types(brand_id: ObjectId) -> frozenset[PaymentType]:
            return frozenset({PaymentType.CREDIT}) if brand_id == self.brand_id else frozenset()

        monkeypatch.setattr(catalog, "find_car", find_car)
        monkeypatch.setattr(catalog, "find_car_of_modification", find_car_of_modification)
        monkeypatch.setattr(
            catalog, "find_brand", lambda brand_id: brand if ObjectId(brand_id) == self.brand_id else None
        )
        monkeypatch.setattr(dealers, "find_region", lambda region_id: region if region_id == self.region_id else None)
        monkeypatch.setattr(
            dealers, "find_branch", lambda branch_id: branch if ObjectId(branch_id) == self.branch_id else None
        )
        monkeypatch.setattr(dealers, "branches_with_stock", branches_with_stock)
        monkeypatch.setattr(
            dealers,
            "stock_of",
            lambda branch_id, modification_id, color_id: dealers.Stocked(
                bool(branches_with_stock([branch_id], modification_id, color_id)), 1
            ),
        )
        monkeypatch.setattr(financing, "find_bank_offer", lambda offer_id: offers.get(ObjectId(offer_id)))
        monkeypatch.setattr(financing, "offer_choice", offer_choice)
        monkeypatch.setattr(financing, "brand_financing", lambda brand_id: BrandFinancing([stored_product], [], []))
        monkeypatch.setattr(financing, "financed_payment_types", financed_payment_types)
        monkeypatch.setattr(
            financing, "active_organizations", lambda ids: {bank["_id"]: bank} if self.bank_id in ids else {}
        )
        monkeypatch.setattr(financing, "all_active_organizations", lambda: [bank])
        return self
