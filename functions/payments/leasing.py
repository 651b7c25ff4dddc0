"""Leasing programs of a leasing company for a brand, and the leasing calculation on the current price."""

from __future__ import annotations

from bson import ObjectId

from common import financing
from common.db import get_db
from common.enums import PaymentType
from common.errors import Conflict, NotFound
from common.financing import Doc, child, ensure_offered, listing, percent, text
from common.models import Organization, Page
from payments.credit_math import LeasingQuote, LeasingTerms, leasing_quote
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
    found = (
        get_db()
        .leasing_programs.find(
            {"brandId": ObjectId(brand_id), "organizationId": ObjectId(organization_id), "active": True}
        )
        .sort([("order", 1), ("_id", 1)])
    )
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


def program_terms(program: Doc, initial_percent: int, months: int) -> LeasingTerms:
    """The terms of a program (or of a special leasing offer, stored alike) for one choice."""
    return LeasingTerms(
        initial_percent=initial_percent,
        months=months,
        annual_rate_bp=program["rateBp"],
        markup_bp=program.get("markupBp", 0),
        contract_fee_bp=program.get("contractFeeBp", 0),
        monthly_fee=program.get("monthlyFee", 0),
        buyout_bp=program.get("buyoutBp", 0),
    )


def quote_fields(quote: LeasingQuote) -> Doc:
    """`{monthlyPayment, totalCarPrice}` and the breakdown that adds up to the total."""
    return {
        "monthlyPayment": quote.monthly_payment,
        "totalCarPrice": quote.total_car_price,
        "price": quote.price,
        "initialPayment": quote.initial_payment,
        "contractFee": quote.contract_fee,
        "markup": quote.markup,
        "financedAmount": quote.financed,
        "monthlyFee": quote.monthly_fee,
        "leasePayments": quote.lease_payments,
        "buyout": quote.buyout,
        "termMonths": quote.schedule.months,
        "rate": percent(quote.schedule.annual_rate_bp),
    }


def calculate(body: LeasingCalculateBody) -> LeasingCalculation:
    program = get_db().leasing_programs.find_one({"_id": ObjectId(body.leasingId), "active": True})
    if program is None:
        raise NotFound("Leasing program not found")
    car, modification = financing.car_and_modification(body.modificationId, car_id=body.carId)
    if program["brandId"] != car["brandId"]:
        raise NotFound("leasingId does not serve the brand of carId")
    ensure_offered(car, PaymentType.LEASING)
    term = child(program, "loanTerms", ObjectId(body.loanTermId))
    if term is None:
        raise NotFound("loanTermId does not belong to leasingId")
    initial = child(program, "initialPayments", ObjectId(body.initialPaymentId))
    if initial is None:
        raise NotFound("initialPaymentId does not belong to leasingId")
    if body.price != modification["price"]:
        raise Conflict(
            "The price has changed: recalculate with the current price",
            details={"currentPrice": modification["price"], "modificationId": str(modification["_id"])},
        )
    quote = leasing_quote(modification["price"], program_terms(program, initial["percent"], term["months"]))
    return LeasingCalculation(**quote_fields(quote))
