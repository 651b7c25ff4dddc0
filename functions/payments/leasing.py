"""Leasing programs of a leasing company for a brand, and the leasing calculation on the current price."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from core.errors import Conflict
from core.locale import Locale, localize
from core.models import Page, parametrized
from domain.financing import deals, listings, references
from domain.financing.listings import BrandFinancing
from domain.financing.models import Organization
from domain.financing.records import LeasingProgramRecord, LeasingRates
from domain.financing.views import leasing_fields, organization_ref, percent
from payments.models import (
    InitialPaymentRef,
    LeasingCalculateBody,
    LeasingCalculation,
    LeasingProgram,
    LoanTermRef,
)


def programs(brand_id: str, organization_id: str, *, locale: Locale) -> Page[LeasingProgram]:
    """Rendered once per language and reading of the reference data (`listings.rendered`)."""
    references.brand(brand_id)
    company = references.organization(organization_id)

    def render(financing: BrandFinancing) -> Page[LeasingProgram]:
        reference = organization_ref(company, locale)
        found = financing.leasing_programs(company["_id"])
        items = [_program_item(program, reference, locale) for program in found]
        return parametrized(Page, LeasingProgram)(items=items, total=len(items))  # as organizations'

    return listings.rendered(ObjectId(brand_id), ("leasing", company["_id"], locale), render)


def _program_item(program: LeasingProgramRecord, company: Organization, locale: Locale) -> LeasingProgram:
    return LeasingProgram(
        id=program["_id"],
        name=localize(program["name"], locale),
        organization=company,
        loanTerms=[LoanTermRef(id=term["_id"], months=term["months"]) for term in program["loanTerms"]],
        initialPayments=[
            InitialPaymentRef(id=item["_id"], percent=item["percent"]) for item in program["initialPayments"]
        ],
        **price_terms(program),
    )


def price_terms(program: LeasingRates) -> dict[str, Any]:
    """The rate, mark-up, fees and buyout of a program (or of a special leasing offer's terms)."""
    return {
        "rate": percent(program["rateBp"]),
        "markupPercent": percent(program.get("markupBp", 0)),
        "contractFeePercent": percent(program.get("contractFeeBp", 0)),
        "monthlyFee": program.get("monthlyFee", 0),
        "buyoutPercent": percent(program.get("buyoutBp", 0)),
    }


def calculate(body: LeasingCalculateBody) -> LeasingCalculation:
    """The lease of the chosen program, term and initial payment (`domain.financing.deals`, which orders use too),
    on the current price: 409 when the client showed another."""
    deal = deals.leasing_deal(body.leasingId, body.carId, body.modificationId, body.loanTermId, body.initialPaymentId)
    if body.price != deal.modification["price"]:
        raise Conflict(
            "PRICE_CHANGED",
            details={"currentPrice": deal.modification["price"], "modificationId": str(deal.modification["_id"])},
        )
    return LeasingCalculation.model_validate(leasing_fields(deal.quote))
