"""The financing a client chooses, priced on the car modification's current price: a bank credit (an
offer of /api/v2/payments/banks and the chain's ids), a leasing program's term and initial payment, an
installment plan's cell (initial payment percent and months).

The one place for these checks and figures: the financing routes answer them and orders store them
(docs/DECISIONS.md, "Financed orders"), so an order carries exactly what the client was shown. Each
function checks that the ids belong together (404 naming the id that does not) and that the car is
sold that way (`domain.financing.offered`); the maths is `domain.financing.credit_math`.

The names: a quote is the maths of one choice (`credit_math`), a deal the chosen offer with its quote,
figures what the API shows of a quote (`domain.financing.models`).
"""

from collections.abc import Callable
from typing import Any, NamedTuple

from bson import ObjectId

from core.errors import NotFound
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import CarRecord, ModificationRecord
from domain.financing import references, store
from domain.financing.credit_math import (
    CreditQuote,
    InstallmentQuote,
    LeasingQuote,
    LeasingTerms,
    RefundType,
    credit_quote,
    installment_cell,
    leasing_quote,
)
from domain.financing.models import CreditFigures, InstallmentFigures, LeasingCalculation
from domain.financing.offered import ensure_offered
from domain.financing.records import (
    BankOfferRecord,
    CreditProductRecord,
    InstallmentPlanRecord,
    LeasingProgramRecord,
    LeasingRates,
    OrganizationRecord,
)
from domain.financing.views import credit_fields, installment_cell_fields, leasing_fields

# (query field, tree level, the choice it must belong to, what is read of the chosen node), in the order
# of the bank chain.
CHAIN = (
    ("incomeTypeId", "incomeTypes", "bankId", ("_id", "slug", "name")),
    ("initialPaymentId", "initialPayments", "incomeTypeId", ("_id", "percent")),
    ("loanTermId", "loanTerms", "initialPaymentId", ("_id", "months", "rateBp")),
    ("refundTypeId", "refundTypes", "loanTermId", ("_id", "slug")),
)
CHAIN_LEVELS = tuple((level, fields) for _, level, _, fields in CHAIN)
CHAIN_LOOKUP = store.path_lookup(CHAIN_LEVELS)  # what `credit_deal` reads of the product, built once


def _active_organization(organization_id: ObjectId) -> OrganizationRecord | None:
    """The organization of a product, program or plan, if it is active."""
    return next((found for found in store.all_active_organizations() if found["_id"] == organization_id), None)


# --- bank credit ------------------------------------------------------------------------------------


class CreditDeal(NamedTuple):
    offer: BankOfferRecord
    bank: OrganizationRecord
    chosen: dict[str, Any]  # tree level -> the chosen node (its own fields, not the levels below)
    car: CarRecord
    modification: ModificationRecord
    quote: CreditQuote

    def figures(self) -> CreditFigures:
        return CreditFigures(**credit_fields(self.quote))


def bank_offer(bank_id: str) -> tuple[BankOfferRecord, CreditProductRecord, OrganizationRecord]:
    """The offer, its active product and its active bank; 404 unless all three exist."""
    offer = store.find_bank_offer(bank_id)
    product = _active_product(offer) if offer else None
    bank = _active_organization(product["organizationId"]) if product else None
    if offer is None or product is None or bank is None:
        raise NotFound("BANK_OFFER_NOT_FOUND")
    return offer, product, bank


def _active_product(offer: BankOfferRecord) -> CreditProductRecord | None:
    """The offer's product if it is active: from the brand's cached products (`store.brand_financing`)."""
    return store.brand_financing(offer["brandId"]).credit_product(offer["productId"])


# Gives the car and modification a bank offer prices, checked to be sold on credit.
CarOfOffer = Callable[[BankOfferRecord], tuple[CarRecord, ModificationRecord]]


def car_of_offer(offer: BankOfferRecord) -> tuple[CarRecord, ModificationRecord]:
    """The car and modification of the offer, read now (their current price), and sold on credit. Called
    once the offer's product is found active, of the offer's brand, with an active bank (`credit_deal`)."""
    try:
        car, modification = references.car_and_modification(str(offer["modificationId"]), car_id=str(offer["carId"]))
    except NotFound as exc:
        raise NotFound("BANK_OFFER_CAR_NOT_SOLD") from exc
    ensure_offered(car, PaymentType.CREDIT, financed_for=offer["brandId"])
    return car, modification


def credit_deal(
    bank_id: str,
    income_type_id: str,
    initial_payment_id: str,
    loan_term_id: str,
    refund_type_id: str,
    *,
    priced: CarOfOffer = car_of_offer,
) -> CreditDeal:
    """The credit of the chosen offer and options: every id must follow the offer's tree. `priced` gives
    the car and modification of the offer, checked to be sold on credit: read by default; an order
    that has read and checked its car already passes it in. The offer and the chosen path of its product
    are read together (`store.offer_choice`): one product's path is priced, its tree is not decoded."""
    ids = [ObjectId(node_id) for node_id in (income_type_id, initial_payment_id, loan_term_id, refund_type_id)]
    choice = store.offer_choice(bank_id, CHAIN_LOOKUP, ids)
    bank = _active_organization(choice.organization_id) if choice and choice.organization_id else None
    if choice is None or bank is None:
        raise NotFound("BANK_OFFER_NOT_FOUND")
    chosen: dict[str, Any] = {}
    for (field, level, parent, _), node in zip(CHAIN, choice.path, strict=True):
        if node is None:
            raise NotFound("IDS_DO_NOT_MATCH", field=field, parent=parent, details={"field": field, "parent": parent})
        chosen[level] = node
    car, modification = priced(choice.offer)
    term, refund_type = chosen["loanTerms"], RefundType(chosen["refundTypes"]["slug"])
    quote = credit_quote(
        modification["price"], chosen["initialPayments"]["percent"], term["months"], term["rateBp"], refund_type
    )
    return CreditDeal(choice.offer, bank, chosen, car, modification, quote)


# --- leasing ----------------------------------------------------------------------------------------


class LeasingDeal(NamedTuple):
    program: LeasingProgramRecord
    company: OrganizationRecord
    car: CarRecord
    modification: ModificationRecord
    quote: LeasingQuote

    def figures(self) -> LeasingCalculation:
        return LeasingCalculation.model_validate(leasing_fields(self.quote))


def program_terms(rates: LeasingRates, initial_percent: int, months: int) -> LeasingTerms:
    """The terms of a program (or of a special leasing offer, stored alike) for one choice."""
    return LeasingTerms(  # positional, in the fields' order: keywords cost a third more on every calculation
        initial_percent,
        months,
        rates["rateBp"],
        rates.get("markupBp", 0),
        rates.get("contractFeeBp", 0),
        rates.get("monthlyFee", 0),
        rates.get("buyoutBp", 0),
    )


def _checked_against_car[Product: (LeasingProgramRecord, InstallmentPlanRecord)](
    product: Product | None,
    *,
    missing: Callable[[], NotFound],
    field: str,
    car_id: str,
    modification_id: str,
    payment_type: PaymentType,
) -> tuple[Product, OrganizationRecord, CarRecord, ModificationRecord]:
    """An active leasing program or installment plan with its organization, and the car it is checked
    against: it must serve the car's brand, and the car must be sold that way."""
    organization = _active_organization(product["organizationId"]) if product else None
    if product is None or organization is None:
        raise missing()  # built when raised: an error object cost more than the check
    car, modification = references.car_and_modification(modification_id, car_id=car_id)
    if product["brandId"] != car["brandId"]:
        raise NotFound("PRODUCT_NOT_FOR_BRAND", field=field)
    ensure_offered(car, payment_type, financed_for=product["brandId"])  # an active one of an active organization
    return product, organization, car, modification


def leasing_deal(
    leasing_id: str, car_id: str, modification_id: str, loan_term_id: str, initial_payment_id: str
) -> LeasingDeal:
    """The lease of the chosen program, term and initial payment for the car's modification (the program
    read with the chosen term and initial payment alone, `store.leasing_choice`)."""
    program, company, car, modification = _checked_against_car(
        store.leasing_choice(leasing_id, ObjectId(loan_term_id), ObjectId(initial_payment_id)),
        missing=lambda: NotFound("LEASING_PROGRAM_NOT_FOUND"),
        field="leasingId",
        car_id=car_id,
        modification_id=modification_id,
        payment_type=PaymentType.LEASING,
    )
    terms, initials = program.get("loanTerms", []), program.get("initialPayments", [])
    if not terms:
        raise NotFound("IDS_DO_NOT_MATCH", field="loanTermId", parent="leasingId")
    if not initials:
        raise NotFound("IDS_DO_NOT_MATCH", field="initialPaymentId", parent="leasingId")
    term, initial = terms[0], initials[0]
    quote = leasing_quote(modification["price"], program_terms(program, initial["percent"], term["months"]))
    return LeasingDeal(program, company, car, modification, quote)


# --- installment ------------------------------------------------------------------------------------


class InstallmentDeal(NamedTuple):
    plan: InstallmentPlanRecord
    provider: OrganizationRecord
    car: CarRecord
    modification: ModificationRecord
    quote: InstallmentQuote

    def figures(self) -> InstallmentFigures:
        return InstallmentFigures(
            **installment_cell_fields(self.quote),
            initialPercent=self.quote.initial_percent,
            initialPayment=self.quote.initial_payment,
            termMonths=self.quote.months,
            financedAmount=self.quote.total,
            price=self.modification["price"],
        )


def installment_deal(
    plan_id: str, car_id: str, modification_id: str, initial_percent: int, months: int
) -> InstallmentDeal:
    """The installment of one cell of the plan's matrix (a row's initial percent, a column's months)."""
    plan, provider, car, modification = _checked_against_car(
        store.find_installment_plan(plan_id),
        missing=lambda: NotFound("INSTALLMENT_PLAN_NOT_FOUND"),
        field="planId",
        car_id=car_id,
        modification_id=modification_id,
        payment_type=PaymentType.INSTALLMENT,
    )
    row = next((row for row in plan["rows"] if row["initialPercent"] == initial_percent), None)
    if row is None:
        raise NotFound(
            "INSTALLMENT_ROW_NOT_FOUND",
            details={"initialPercents": [row["initialPercent"] for row in plan["rows"]]},
        )
    if months not in plan["terms"]:
        raise NotFound("INSTALLMENT_TERM_NOT_FOUND", details={"terms": plan["terms"]})
    markup_bp = row["markupBp"][plan["terms"].index(months)]
    quote = installment_cell(modification["price"], initial_percent, months, markup_bp)
    return InstallmentDeal(plan, provider, car, modification, quote)
