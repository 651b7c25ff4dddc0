"""The financing a client chooses, priced on the car modification's current price: a bank credit (an
offer of /api/v2/payments/banks and the chain's ids), a leasing program's term and initial payment, an
installment plan's cell (initial payment percent and months).

The one place for these checks and figures: the financing routes answer them and orders store them
(docs/DECISIONS.md, "Financed orders"), so an order carries exactly what the client was shown. Each
function checks that the ids belong together (404 naming the id that does not) and that the car is
sold that way (`financing.ensure_offered`); the maths is `domain.financing.credit_math`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from bson import ObjectId
from pydantic import Field

from core.errors import NotFound
from core.models import ApiModel, Organization, Sums
from data.mongo import get_db
from domain.catalog.payment_types import PaymentType
from domain.financing import store as financing
from domain.financing.credit_math import (
    CreditQuote,
    LeasingQuote,
    LeasingTerms,
    RefundType,
    credit_quote,
    installment_cell,
    leasing_quote,
)
from domain.financing.credit_math import InstallmentCell as Cell
from domain.financing.store import Doc, child, ensure_offered, percent

Percent = Annotated[float, Field(ge=0, le=100, description="percent, e.g. 24.0")]


class CreditSummary(ApiModel):
    """A credit's figures (GET /api/v2/payments/banks/calculate without the schedule rows)."""

    monthlyPayment: Sums = Field(description="the first month's payment")
    loanAmount: Sums
    initialPayment: Sums
    totalInterest: Sums
    totalPayment: Sums
    rate: Percent = Field(description="annual rate, percent")
    termMonths: int = Field(gt=0)
    refundType: RefundType
    carPrice: Sums


class LeasingCalculation(ApiModel):
    """A lease's figures (POST /api/v1/payments/leasing/calculate)."""

    monthlyPayment: Sums
    totalCarPrice: Sums = Field(description="everything paid over the lease, initial payment included")
    price: Sums = Field(description="the car's price")
    initialPayment: Sums
    contractFee: Sums
    markup: Sums
    financedAmount: Sums
    monthlyFee: Sums
    leasePayments: Sums
    buyout: Sums
    termMonths: int = Field(gt=0)
    rate: Percent


class InstallmentCell(ApiModel):
    """One cell of an installment matrix (GET /api/v1/payments/installment): a term of a row."""

    months: int = Field(gt=0)
    markupPercent: Percent
    monthlyPayment: Sums
    totalPayment: Sums = Field(description="the initial payment, plus the rest with its mark-up")


class InstallmentFigures(InstallmentCell):
    """The cell an order chose, with its row's initial payment."""

    initialPercent: Percent
    initialPayment: Sums
    termMonths: int = Field(gt=0, description="= months")
    financedAmount: Sums = Field(description="the rest after the initial payment, with the mark-up")
    price: Sums = Field(description="the car's price")


# (query field, tree level, the choice it must belong to), in the order of the bank chain.
CHAIN = (
    ("incomeTypeId", "incomeTypes", "bankId"),
    ("initialPaymentId", "initialPayments", "incomeTypeId"),
    ("loanTermId", "loanTerms", "initialPaymentId"),
    ("refundTypeId", "refundTypes", "loanTermId"),
)


def _organization_of(doc: Doc | None) -> Organization | None:
    """The active organization of a product, program or plan (None if it is not active)."""
    return financing.organization_refs([doc["organizationId"]]).get(doc["organizationId"]) if doc else None


# --- bank credit ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreditDeal:
    offer: Doc
    product: Doc
    bank: Organization
    chosen: dict[str, Doc]  # tree level -> the chosen node
    car: Doc
    modification: Doc
    quote: CreditQuote

    def figures(self) -> CreditSummary:
        return credit_figures(self.quote)


def credit_figures(quote: CreditQuote) -> CreditSummary:
    """The credit calculate fields (without the schedule rows), of a chosen offer or a special offer."""
    schedule = quote.schedule
    return CreditSummary(
        monthlyPayment=schedule.first_payment,
        loanAmount=schedule.loan,
        initialPayment=quote.initial_payment,
        totalInterest=schedule.total_interest,
        totalPayment=schedule.total_payment,
        rate=percent(schedule.annual_rate_bp),
        termMonths=schedule.months,
        refundType=schedule.refund_type,
        carPrice=quote.price,
    )


def bank_offer(bank_id: str) -> tuple[Doc, Doc, Organization]:
    """The offer, its active product and its active bank; 404 unless all three exist."""
    offer = get_db().bank_offers.find_one({"_id": ObjectId(bank_id)})
    product = _active_product(offer) if offer else None
    bank = _organization_of(product)
    if offer is None or product is None or bank is None:
        raise NotFound("Bank offer not found: choose one from /api/v2/payments/banks")
    return offer, product, bank


def _active_product(offer: Doc) -> Doc | None:
    """The offer's product if it is active: from the brand's cached products (`financing.brand_financing`)."""
    products = financing.brand_financing(offer["brandId"]).credit_products
    return next((product for product in products if product["_id"] == offer["productId"]), None)


def credit_deal(
    bank_id: str, income_type_id: str, initial_payment_id: str, loan_term_id: str, refund_type_id: str
) -> CreditDeal:
    """The credit of the chosen offer and options: every id must follow the offer's tree."""
    offer, product, bank = bank_offer(bank_id)
    chosen: dict[str, Doc] = {}
    node = product
    for (field, level, parent), node_id in zip(
        CHAIN, (income_type_id, initial_payment_id, loan_term_id, refund_type_id), strict=True
    ):
        found = child(node, level, ObjectId(node_id))
        if found is None:
            raise NotFound(
                f"{field} does not belong to the chosen {parent}", details={"field": field, "parent": parent}
            )
        chosen[level] = node = found
    try:
        car, modification = financing.car_and_modification(str(offer["modificationId"]), car_id=str(offer["carId"]))
    except NotFound as exc:
        raise NotFound("The car modification of this bank offer is no longer sold") from exc
    ensure_offered(car, PaymentType.CREDIT)
    term, refund_type = chosen["loanTerms"], RefundType(chosen["refundTypes"]["slug"])
    quote = credit_quote(
        modification["price"], chosen["initialPayments"]["percent"], term["months"], term["rateBp"], refund_type
    )
    return CreditDeal(offer, product, bank, chosen, car, modification, quote)


# --- leasing ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeasingDeal:
    program: Doc
    company: Organization
    car: Doc
    modification: Doc
    quote: LeasingQuote

    def figures(self) -> LeasingCalculation:
        return leasing_figures(self.quote)


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


def leasing_figures(quote: LeasingQuote) -> LeasingCalculation:
    """`{monthlyPayment, totalCarPrice}` and the breakdown that adds up to the total."""
    return LeasingCalculation(
        monthlyPayment=quote.monthly_payment,
        totalCarPrice=quote.total_car_price,
        price=quote.price,
        initialPayment=quote.initial_payment,
        contractFee=quote.contract_fee,
        markup=quote.markup,
        financedAmount=quote.financed,
        monthlyFee=quote.monthly_fee,
        leasePayments=quote.lease_payments,
        buyout=quote.buyout,
        termMonths=quote.schedule.months,
        rate=percent(quote.schedule.annual_rate_bp),
    )


def _brand_product(
    collection: str,
    product_id: str,
    *,
    noun: str,
    field: str,
    car_id: str,
    modification_id: str,
    payment_type: PaymentType,
) -> tuple[Doc, Organization, Doc, Doc]:
    """An active leasing program or installment plan with its organization, checked against the car:
    it must serve the car's brand, and the car must be sold that way."""
    product = get_db()[collection].find_one({"_id": ObjectId(product_id), "active": True})
    organization = _organization_of(product)
    if product is None or organization is None:
        raise NotFound(f"{noun} not found")
    car, modification = financing.car_and_modification(modification_id, car_id=car_id)
    if product["brandId"] != car["brandId"]:
        raise NotFound(f"{field} does not serve the brand of carId")
    ensure_offered(car, payment_type)
    return product, organization, car, modification


def leasing_deal(
    leasing_id: str, car_id: str, modification_id: str, loan_term_id: str, initial_payment_id: str
) -> LeasingDeal:
    """The lease of the chosen program, term and initial payment for the car's modification."""
    program, company, car, modification = _brand_product(
        "leasing_programs",
        leasing_id,
        noun="Leasing program",
        field="leasingId",
        car_id=car_id,
        modification_id=modification_id,
        payment_type=PaymentType.LEASING,
    )
    term = child(program, "loanTerms", ObjectId(loan_term_id))
    if term is None:
        raise NotFound("loanTermId does not belong to leasingId")
    initial = child(program, "initialPayments", ObjectId(initial_payment_id))
    if initial is None:
        raise NotFound("initialPaymentId does not belong to leasingId")
    quote = leasing_quote(modification["price"], program_terms(program, initial["percent"], term["months"]))
    return LeasingDeal(program, company, car, modification, quote)


# --- installment ------------------------------------------------------------------------------------


def installment_cell_figures(cell: Cell) -> InstallmentCell:
    """One cell of an installment matrix: months across, initial payment percent down."""
    return InstallmentCell(
        months=cell.months,
        markupPercent=percent(cell.markup_bp),
        monthlyPayment=cell.monthly_payment,
        totalPayment=cell.initial_payment + cell.total,
    )


@dataclass(frozen=True)
class InstallmentDeal:
    plan: Doc
    provider: Organization
    car: Doc
    modification: Doc
    cell: Cell

    def figures(self) -> InstallmentFigures:
        return InstallmentFigures(
            **installment_cell_figures(self.cell).model_dump(),
            initialPercent=self.cell.initial_percent,
            initialPayment=self.cell.initial_payment,
            termMonths=self.cell.months,
            financedAmount=self.cell.total,
            price=self.modification["price"],
        )


def installment_deal(
    plan_id: str, car_id: str, modification_id: str, initial_percent: int, months: int
) -> InstallmentDeal:
    """The installment of one cell of the plan's matrix (a row's initial percent, a column's months)."""
    plan, provider, car, modification = _brand_product(
        "installment_plans",
        plan_id,
        noun="Installment plan",
        field="planId",
        car_id=car_id,
        modification_id=modification_id,
        payment_type=PaymentType.INSTALLMENT,
    )
    row = next((row for row in plan["rows"] if row["initialPercent"] == initial_percent), None)
    if row is None:
        raise NotFound(
            "initialPercent is not a row of the plan",
            details={"initialPercents": [row["initialPercent"] for row in plan["rows"]]},
        )
    if months not in plan["terms"]:
        raise NotFound("months is not a term of the plan", details={"terms": plan["terms"]})
    markup_bp = row["markupBp"][plan["terms"].index(months)]
    cell = installment_cell(modification["price"], initial_percent, months, markup_bp)
    return InstallmentDeal(plan, provider, car, modification, cell)
