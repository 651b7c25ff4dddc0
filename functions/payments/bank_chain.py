"""The v2 bank credit chain: bank offer -> income type -> initial payment -> loan term -> refund type -> calculate.

A bank's credit product for a brand is one `credit_products` document holding its options as a tree:
`incomeTypes[].initialPayments[].loanTerms[].refundTypes[]`, every node with its own ObjectId (the
rate sits on the loan term: it depends on income type, initial payment and term). The items of
`/banks` are *offers*: one `bank_offers` document per product and modification, whose id is derived
from the two, so it is the same on every call and in every database. Offers are created with the
financing data (`domain.financing.store.create_bank_offers`), so no GET writes. `calculate` gets only the five
chosen ids: the offer leads back to the modification, whose current price is read from `cars`, and the
other four ids must follow the offer's tree (404 naming the id that does not belong).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bson import ObjectId

from core.locale import Locale, localize
from core.models import Page, parametrized
from domain.catalog.payment_types import PaymentType
from domain.financing import deals, listings, references
from domain.financing.credit_math import RefundType
from domain.financing.listings import BrandFinancing
from domain.financing.models import Organization
from domain.financing.offered import is_offered
from domain.financing.records import CreditProductRecord
from domain.financing.views import credit_fields, organization_ref, percent
from payments.models import (
    BankOffer,
    CreditCalculation,
    IncomeType,
    InitialPayment,
    LoanTerm,
    RefundTypeItem,
    schedule_rows,
)
from payments.service import listing

REFUND_TYPE_NAMES: dict[str, dict[str, str]] = {
    RefundType.ANNUITY: {"ru": "Аннуитетный (равными долями)", "uz": "Annuitet (teng ulushlarda)", "en": "Annuity"},
    RefundType.DIFFERENTIAL: {
        "ru": "Дифференцированный (убывающий)",
        "uz": "Differensial (kamayib boruvchi)",
        "en": "Differential",
    },
}
MONTHS_NAME = {"ru": "{} мес.", "uz": "{} oy", "en": "{} months"}


def banks(brand_id: str, car_id: str, modification_id: str, *, locale: Locale) -> Page[BankOffer]:
    """The offers of every bank whose active product serves the car's brand; none for a car not sold
    on credit (the products found are the proof that the brand is). What the products say is rendered
    once per language and reading of the reference data (`listings.rendered`); the offers stored for the
    modification and its price are read now."""
    car, modification = references.car_and_modification(modification_id, car_id=car_id, brand_id=brand_id)
    products = listings.rendered(car["brandId"], ("banks", locale), partial(_products, locale=locale))
    if not is_offered(car, PaymentType.CREDIT, financed_for=car["brandId"] if products else None):
        return listing([])
    offers = listings.stored_offers(modification["_id"], [product_id for product_id, _ in products])
    price = modification["price"]
    items = [
        {"_id": offers[product_id], "price": price, **fields} for product_id, fields in products if product_id in offers
    ]
    # The declared answer's own class: the offers' fields are validated in one call.
    return parametrized(Page, BankOffer).model_validate({"items": items, "total": len(items)})


def _products(financing: BrandFinancing, *, locale: Locale) -> list[tuple[ObjectId, dict[str, Any]]]:
    """The brand's credit products of active banks, in the banks' order, each with the fields of its offers
    that the product alone gives."""
    return [
        (product["_id"], _offer_fields(product, organization_ref(bank, locale), locale))
        for bank, product in listings.credit_products(financing)
    ]


def _loan_terms(product: CreditProductRecord) -> list[Any]:
    return [
        term
        for income in product.get("incomeTypes", [])
        for initial in income.get("initialPayments", [])
        for term in initial.get("loanTerms", [])
    ]


def _offer_fields(product: CreditProductRecord, bank: Organization, locale: Locale) -> dict[str, Any]:
    """A product's offer but its id and price (the modification's)."""
    terms = _loan_terms(product)
    initials = [
        initial["percent"] for income in product.get("incomeTypes", []) for initial in income["initialPayments"]
    ]
    return {
        "name": bank.name,
        "logo": bank.logo,
        "bank": bank,
        "product": localize(product["name"], locale),
        "rateFrom": percent(min((term["rateBp"] for term in terms), default=0)),
        "initialPaymentFrom": min(initials, default=0),
        "maxMonths": max((term["months"] for term in terms), default=0),
    }


def income_types(offer_id: str, *, locale: Locale) -> Page[IncomeType]:
    _, product, _ = deals.bank_offer(offer_id)
    return listing(
        [
            IncomeType(id=node["_id"], name=localize(node["name"], locale), slug=node["slug"])
            for node in product["incomeTypes"]
        ]
    )


def initial_payments(income_type_id: str) -> Page[InitialPayment]:
    income = listings.chain_node(0, income_type_id, "initialPayments._id", "initialPayments.percent")
    return listing(
        [
            InitialPayment(id=node["_id"], name=f"{node['percent']}%", percent=node["percent"])
            for node in income["initialPayments"]
        ]
    )


def loan_terms(initial_payment_id: str, *, locale: Locale) -> Page[LoanTerm]:
    initial = listings.chain_node(1, initial_payment_id, "loanTerms._id", "loanTerms.months", "loanTerms.rateBp")
    return listing(
        [
            LoanTerm(
                id=node["_id"],
                name=localize(MONTHS_NAME, locale).format(node["months"]),
                months=node["months"],
                rate=percent(node["rateBp"]),
            )
            for node in initial["loanTerms"]
        ]
    )


def refund_types(loan_term_id: str, *, locale: Locale) -> Page[RefundTypeItem]:
    term = listings.chain_node(2, loan_term_id, "refundTypes._id", "refundTypes.slug")
    return listing(
        [
            RefundTypeItem(id=node["_id"], name=localize(REFUND_TYPE_NAMES[node["slug"]], locale), slug=node["slug"])
            for node in term["refundTypes"]
        ]
    )


def calculate(
    offer_id: str,
    income_type_id: str,
    initial_payment_id: str,
    loan_term_id: str,
    refund_type_id: str,
    *,
    locale: Locale,
) -> CreditCalculation:
    """The credit for the chosen offer and options, on the modification's current price (`domain.financing.deals`,
    which orders use too)."""
    deal = deals.credit_deal(offer_id, income_type_id, initial_payment_id, loan_term_id, refund_type_id)
    rows = schedule_rows(deal.quote.schedule)
    return CreditCalculation(
        **credit_fields(deal.quote),
        bank=organization_ref(deal.bank, locale),
        incomeType=localize(deal.chosen["incomeTypes"]["name"], locale),
        modificationId=deal.modification["_id"],
        schedule=rows,
    )
