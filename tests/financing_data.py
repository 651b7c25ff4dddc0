"""Data factories for the financing collections (docs/DATA_MODEL.md, "Financing"): organizations,
credit products with their option tree, leasing programs, installment plans and special offers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bson import ObjectId

from domain.financing.store import create_bank_offers
from tests.data import Db, text


def insert_organization(db: Db, name: str = "Kapitalbank", kind: str = "BANK", **fields: Any) -> ObjectId:
    org_id = ObjectId()
    db.organizations.insert_one(
        {
            "_id": org_id,
            "slug": f"{name.lower().replace(' ', '-')}-{org_id}",
            "kind": kind,
            "name": name,
            "logo": None,
            "order": 1,
            "active": True,
            **fields,
        }
    )
    return org_id


def insert_credit_product(
    db: Db,
    brand_id: ObjectId,
    bank_id: ObjectId,
    *,
    income_types: Iterable[str] = ("SALARIED", "SELF_EMPLOYED"),
    rates: Mapping[int, Mapping[int, int]] | None = None,
    refund_types: Iterable[str] = ("ANNUITY", "DIFFERENTIAL"),
    **fields: Any,
) -> dict[str, Any]:
    """A product whose every income type has the same options: `rates` maps initial percent -> months
    -> annual rate in basis points (default: 30 % or 50 % down, 12 or 36 months, 24 % at 30 %/36)."""
    rates = rates or {30: {12: 2000, 36: 2400}, 50: {12: 1800, 36: 2200}}
    doc = {
        "_id": ObjectId(),
        "organizationId": bank_id,
        "brandId": brand_id,
        "name": text("Car loan"),
        "active": True,
        "incomeTypes": [
            {
                "_id": ObjectId(),
                "slug": slug,
                "name": text(slug.title()),
                "initialPayments": [
                    {
                        "_id": ObjectId(),
                        "percent": percent,
                        "loanTerms": [
                            {
                                "_id": ObjectId(),
                                "months": months,
                                "rateBp": rate,
                                "refundTypes": [{"_id": ObjectId(), "slug": refund} for refund in refund_types],
                            }
                            for months, rate in terms.items()
                        ],
                    }
                    for percent, terms in rates.items()
                ],
            }
            for slug in income_types
        ],
        **fields,
    }
    db.credit_products.insert_one(doc)
    create_bank_offers(db)  # with the financing data, as operators do: /banks only reads them
    return doc


def chain_ids(
    product: dict[str, Any], *, income: int = 0, initial: int = 0, term: int = 0, refund: int = 0
) -> dict[str, str]:
    """The node ids of one path through a product's tree, named as the calculate query names them."""
    income_node = product["incomeTypes"][income]
    initial_node = income_node["initialPayments"][initial]
    term_node = initial_node["loanTerms"][term]
    return {
        "incomeTypeId": str(income_node["_id"]),
        "initialPaymentId": str(initial_node["_id"]),
        "loanTermId": str(term_node["_id"]),
        "refundTypeId": str(term_node["refundTypes"][refund]["_id"]),
    }


def insert_leasing_program(
    db: Db,
    brand_id: ObjectId,
    company_id: ObjectId,
    *,
    terms: Iterable[int] = (12, 24, 36),
    initial_percents: Iterable[int] = (20, 30),
    **fields: Any,
) -> dict[str, Any]:
    doc = {
        "_id": ObjectId(),
        "organizationId": company_id,
        "brandId": brand_id,
        "name": text("Leasing"),
        "rateBp": 2200,
        "markupBp": 500,
        "contractFeeBp": 100,
        "monthlyFee": 150_000,
        "buyoutBp": 1000,
        "loanTerms": [{"_id": ObjectId(), "months": months} for months in terms],
        "initialPayments": [{"_id": ObjectId(), "percent": percent} for percent in initial_percents],
        "active": True,
        "order": 1,
        **fields,
    }
    db.leasing_programs.insert_one(doc)
    return doc


def insert_installment_plan(db: Db, brand_id: ObjectId, provider_id: ObjectId, **fields: Any) -> dict[str, Any]:
    doc = {
        "_id": ObjectId(),
        "organizationId": provider_id,
        "brandId": brand_id,
        "name": text("Installment"),
        "terms": [6, 12],
        "rows": [{"initialPercent": 30, "markupBp": [0, 600]}, {"initialPercent": 50, "markupBp": [0, 0]}],
        "active": True,
        "order": 1,
        **fields,
    }
    db.installment_plans.insert_one(doc)
    return doc


def insert_special_offer(
    db: Db, kind: str, car_id: ObjectId, organization_id: ObjectId, terms: dict[str, Any], **fields: Any
) -> dict[str, Any]:
    doc = {
        "_id": ObjectId(),
        "kind": kind,
        "organizationId": organization_id,
        "carId": car_id,
        "modificationIds": [],
        "title": text(f"{kind.title()} offer"),
        "description": text("Special terms"),
        "terms": terms,
        "validUntil": None,
        "active": True,
        "order": 1,
        **fields,
    }
    db.special_offers.insert_one(doc)
    return doc


def well_formed_choices(payment_type: str) -> dict[str, Any]:
    """The choices field of a POST /api/v1/orders body of this financed type, with ids nothing has (for
    checks that come before the choices are looked at)."""

    def new(*names: str) -> dict[str, str]:
        return {name: str(ObjectId()) for name in names}

    field = payment_type.lower()
    return {
        field: {
            "credit": new("bankId", "incomeTypeId", "initialPaymentId", "loanTermId", "refundTypeId"),
            "leasing": new("leasingId", "loanTermId", "initialPaymentId"),
            "installment": {**new("planId"), "initialPercent": 30, "months": 12},
        }[field]
    }
