"""The financing a client chooses, priced on the car modification's current price: a bank credit (an
offer of /api/v2/payments/banks and the chain's ids), a leasing program's term and initial payment, an
installment plan's cell (initial payment percent and months).

The one place for these checks and figures: the financing routes answer them and orders store them
(docs/DECISIONS.md, "Financed orders"), so an order carries exactly what the client was shown. Each
function checks that the ids belong together (404 naming the id that does not) and that the car is
sold that way (`domain.financing.offered`); the maths is `domain.financing.credit_math`.

The names are the package's (`domain.financing`): a deal is the client's choice checked, with its car
and its quote; a quote the maths (`credit_math`); figures what the API shows of a quote
(`domain.financing.models`).

A route gives a deal the ids the client chose and lets it read the car they price; an order, which has
read its car and modification already, passes them in (`ordered`), so the deal reads no catalog.
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
    LeasingPricing,
    LeasingQuote,
    RefundType,
    credit_quote,
    installment_cell,
    leasing_quote,
)
from domain.financing.models import CreditFigures, InstallmentFigures, LeasingFigures
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

# The bank chain's ids after the offer, one per level of the product's tree (`store.CREDIT_PATH`): the
# query field, and the choice it must belong to.
CHAIN = (
    ("incomeTypeId", "bankId"),
    ("initialPaymentId", "incomeTypeId"),
    ("loanTermId", "initialPaymentId"),
    ("refundTypeId", "loanTermId"),
)

# The car and modification an order has read and found sold by its payment type.
OrderedCar = tuple[CarRecord, ModificationRecord]


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


def bank_offer(offer_id: str) -> tuple[BankOfferRecord, CreditProductRecord, OrganizationRecord]:
    """The offer, its active product and its active bank; 404 unless all three exist."""
    offer = store.find_bank_offer(offer_id)
    product = _active_product(offer) if offer else None
    bank = _active_organization(product["organizationId"]) if product else None
    if offer is None or product is None or bank is None:
        raise NotFound("BANK_OFFER_NOT_FOUND")
    return offer, product, bank


def _active_product(offer: BankOfferRecord) -> CreditProductRecord | None:
    """The offer's product if it is active: from the brand's cached products (`store.brand_financing`)."""
    return store.brand_financing(offer["brandId"]).credit_product(offer["productId"])


def car_of_offer(offer: BankOfferRecord) -> OrderedCar:
    """The car and modification of the offer, read now (their current price), and sold on credit. Called
    once the offer's product is found active, of the offer's brand, with an active bank: that product
    stands for the brand's financing (`offered.ensure_offered`)."""
    try:
        car, modification = references.car_and_modification(str(offer["modificationId"]), car_id=str(offer["carId"]))
    except NotFound as exc:
        raise NotFound("BANK_OFFER_CAR_NOT_SOLD") from exc
    ensure_offered(car, PaymentType.CREDIT, financed_for=offer["brandId"])
    return car, modification


def credit_deal(
    offer_id: str,
    income_type_id: str,
    initial_payment_id: str,
    loan_term_id: str,
    refund_type_id: str,
    *,
    ordered: OrderedCar | None = None,
) -> CreditDeal:
    """The credit of the chosen offer and options: every id must follow the offer's tree. Priced on the
    car and modification of the offer, read now and checked to be sold on credit (`car_of_offer`), or on
    the `ordered` ones, which the order found sold on credit. The offer and the chosen path of its
    product are read together (`store.offer_choice`)."""
    ids = [ObjectId(node_id) for node_id in (income_type_id, initial_payment_id, loan_term_id, refund_type_id)]
    choice = store.offer_choice(offer_id, ids)
    bank = _active_organization(choice.organization_id) if choice and choice.organization_id else None
    if choice is None or bank is None:
        raise NotFound("BANK_OFFER_NOT_FOUND")
    chosen: dict[str, Any] = {}
    for (level, _), (field, parent), node in zip(store.CREDIT_PATH, CHAIN, choice.path, strict=True):
        if node is None:
            raise NotFound("IDS_DO_NOT_MATCH", field=field, parent=parent, details={"field": field, "parent": parent})
        chosen[level] = node
    car, modification = car_of_offer(choice.offer) if ordered is None else ordered
    term, refund_type = chosen["loanTerms"], RefundType(chosen["refundTypes"]["slug"])
    quote = credit_quote(
        price=modification["price"],
        initial_percent=chosen["initialPayments"]["percent"],
        months=term["months"],
        annual_rate_bp=term["rateBp"],
        refund_type=refund_type,
    )
    return CreditDeal(offer=choice.offer, bank=bank, chosen=chosen, car=car, modification=modification, quote=quote)


# --- leasing ----------------------------------------------------------------------------------------


class LeasingDeal(NamedTuple):
    program: LeasingProgramRecord
    company: OrganizationRecord
    car: CarRecord
    modification: ModificationRecord
    quote: LeasingQuote

    def figures(self) -> LeasingFigures:
        return LeasingFigures.model_validate(leasing_fields(self.quote))


def program_pricing(rates: LeasingRates, initial_percent: int, months: int) -> LeasingPricing:
    """The terms of a program (or of a special leasing offer, stored alike) for one choice."""
    return LeasingPricing(
        initial_percent=initial_percent,
        months=months,
        annual_rate_bp=rates["rateBp"],
        markup_bp=rates.get("markupBp", 0),
        contract_fee_bp=rates.get("contractFeeBp", 0),
        monthly_fee=rates.get("monthlyFee", 0),
        buyout_bp=rates.get("buyoutBp", 0),
    )


def _checked_against_car[Product: (LeasingProgramRecord, InstallmentPlanRecord)](
    product: Product | None,
    *,
    missing: Callable[[], NotFound],
    field: str,
    car_id: str,
    modification_id: str,
    ordered: OrderedCar | None,
    payment_type: PaymentType,
) -> tuple[Product, OrganizationRecord, CarRecord, ModificationRecord]:
    """An active leasing program or installment plan with its organization, and the car it is checked
    against (read now, unless `ordered`): it must serve the car's brand, and the car must be sold that way."""
    organization = _active_organization(product["organizationId"]) if product else None
    if product is None or organization is None:
        raise missing()
    if ordered is None:
        car, modification = references.car_and_modification(modification_id, car_id=car_id)
    else:
        car, modification = ordered
    if product["brandId"] != car["brandId"]:
        raise NotFound("PRODUCT_NOT_FOR_BRAND", field=field)
    ensure_offered(car, payment_type, financed_for=product["brandId"])  # an active one of an active organization
    return product, organization, car, modification


def leasing_deal(
    program_id: str,
    car_id: str,
    modification_id: str,
    loan_term_id: str,
    initial_payment_id: str,
    *,
    ordered: OrderedCar | None = None,
) -> LeasingDeal:
    """The lease of the chosen program, term and initial payment for the car's modification (the program
    read with the chosen term and initial payment alone, `store.leasing_choice`). `ordered`: the car and
    modification of these ids, which an order has read: not read again."""
    program, company, car, modification = _checked_against_car(
        store.leasing_choice(program_id, ObjectId(loan_term_id), ObjectId(initial_payment_id)),
        missing=lambda: NotFound("LEASING_PROGRAM_NOT_FOUND"),
        field="leasingId",
        car_id=car_id,
        modification_id=modification_id,
        ordered=ordered,
        payment_type=PaymentType.LEASING,
    )
    terms, initials = program.get("loanTerms", []), program.get("initialPayments", [])
    if not terms:
        raise NotFound("IDS_DO_NOT_MATCH", field="loanTermId", parent="leasingId")
    if not initials:
        raise NotFound("IDS_DO_NOT_MATCH", field="initialPaymentId", parent="leasingId")
    term, initial = terms[0], initials[0]
    quote = leasing_quote(modification["price"], program_pricing(program, initial["percent"], term["months"]))
    return LeasingDeal(program=program, company=company, car=car, modification=modification, quote=quote)


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
    plan_id: str,
    car_id: str,
    modification_id: str,
    initial_percent: int,
    months: int,
    *,
    ordered: OrderedCar | None = None,
) -> InstallmentDeal:
    """The installment of one cell of the plan's matrix (a row's initial percent, a column's months).
    `ordered`: the car and modification of these ids, which an order has read: not read again."""
    plan, provider, car, modification = _checked_against_car(
        store.find_installment_plan(plan_id),
        missing=lambda: NotFound("INSTALLMENT_PLAN_NOT_FOUND"),
        field="planId",
        car_id=car_id,
        modification_id=modification_id,
        ordered=ordered,
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
    return InstallmentDeal(plan=plan, provider=provider, car=car, modification=modification, quote=quote)
