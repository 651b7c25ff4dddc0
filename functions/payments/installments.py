"""Installment matrices: rows are initial payment percents, columns terms, cells the monthly payment
for the modification's current price (a plan stores a mark-up per cell; 0 % cells are interest-free)."""

from __future__ import annotations

from typing import Any

from core.locale import Locale, localize
from domain.catalog.payment_types import PaymentType
from domain.financing import listings, references
from domain.financing.credit_math import installment_row, percent_of
from domain.financing.models import Organization
from domain.financing.offered import is_offered
from domain.financing.records import InstallmentPlanRecord
from domain.financing.views import installment_cell_fields, organization_ref
from payments.models import InstallmentMatrix


def matrix(brand_id: str, modification_id: str, *, locale: Locale) -> InstallmentMatrix:
    car, modification = references.car_and_modification(modification_id, brand_id=brand_id)
    price = modification["price"]
    plans = listings.installment_plans(car["brandId"])
    # The plans found are the proof that the brand is financed by installments.
    if not is_offered(car, PaymentType.INSTALLMENT, financed_for=car["brandId"] if plans else None):
        plans = []
    items = [_plan(plan, organization_ref(provider, locale), price, locale) for plan, provider in plans]
    # The whole matrix validated in one call, as the declared answer.
    return InstallmentMatrix(price=price, modificationId=modification["_id"], items=items, total=len(items))


def _plan(plan: InstallmentPlanRecord, provider: Organization, price: int, locale: Locale) -> dict[str, Any]:
    """An `InstallmentPlan`'s fields."""
    terms = plan["terms"]
    return {
        "_id": plan["_id"],
        "name": localize(plan["name"], locale),
        "organization": provider,
        "terms": terms,
        "rows": [
            {
                "initialPercent": row["initialPercent"],
                "initialPayment": percent_of(price, row["initialPercent"] * 100),
                "cells": [
                    installment_cell_fields(cell)
                    for cell in installment_row(price, row["initialPercent"], terms, row["markupBp"])
                ],
            }
            for row in plan["rows"]
        ],
    }
