"""Leasing programs of a leasing company for a brand, and the leasing calculation on the current price."""

from __future__ import annotations

from bson import ObjectId

from core.errors import Conflict
from core.models import Organization, Page
from domain.financing import deals
from domain.financing import store as financing
from domain.financing.store import Doc, listing, percent, text
from payments.models import (
    InitialPaymentRef,
    LeasingCalculateBody,
    LeasingCalculation,
    LeasingProgram,
    LoanTermRef,
)


def programs(brand_id: str, organization_id: str) -> Page[LeasingProgram]:
    financing.brand(brand_id)
    company = financing.organization(organization_id)
    programs = financing.brand_financing(ObjectId(brand_id)).leasing_programs
    found = [program for program in programs if program["organizationId"] == ObjectId(organization_id)]
    return listing([_program_item(program, company) for program in found])


def _program_item(program: Doc, company: Organization) -> LeasingProgram:
    return LeasingProgram(
        id=program["_id"],
        name=text(program["name"]),
        organization=company,
        loanTerms=[LoanTermRef(id=term["_id"], months=term["months"]) for term in program["loanTerms"]],
        initialPayments=[
            InitialPaymentRef(id=item["_id"], percent=item["percent"]) for item in program["initialPayments"]
        ],
        **price_terms(program),
    )


def price_terms(program: Doc) -> Doc:
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
            "The price has changed: recalculate with the current price",
            details={"currentPrice": deal.modification["price"], "modificationId": str(deal.modification["_id"])},
        )
    return deal.figures()
