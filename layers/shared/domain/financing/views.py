"""Financing rendered for the API: percents of basis points, organizations in the caller's language, the
figures of a quote."""

from __future__ import annotations

from typing import Any

from core.assets import url
from core.locale import Locale, localize
from domain.financing.credit_math import CreditQuote, InstallmentQuote, LeasingQuote
from domain.financing.models import Organization
from domain.financing.records import OrganizationRecord


def percent(basis_points: int) -> float:
    """A rate or share stored in basis points as the percent clients read: 2400 -> 24.0."""
    return basis_points / 100


def organization_ref(organization: OrganizationRecord, locale: Locale) -> Organization:
    """`{_id, name, logo}`, the logo as a URL."""
    return Organization(
        id=organization["_id"], name=localize(organization["name"], locale), logo=url(organization.get("logo"))
    )


def credit_fields(quote: CreditQuote) -> dict[str, Any]:
    """The fields of a credit's `CreditFigures` (calculate without the schedule rows), of a chosen offer or
    a special offer: validated with the answer they go in."""
    schedule = quote.schedule
    return {
        "monthlyPayment": schedule.first_payment,
        "loanAmount": schedule.loan,
        "initialPayment": quote.initial_payment,
        "totalInterest": schedule.total_interest,
        "totalPayment": schedule.total_payment,
        "rate": percent(schedule.annual_rate_bp),
        "termMonths": schedule.months,
        "refundType": schedule.refund_type,
        "carPrice": quote.price,
    }


def leasing_fields(quote: LeasingQuote) -> dict[str, Any]:
    """The fields of a lease's `LeasingFigures`: `{monthlyPayment, totalCarPrice}` and the breakdown
    that adds up to the total."""
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


def installment_cell_fields(quote: InstallmentQuote) -> dict[str, Any]:
    """The fields of one cell of an installment matrix (`InstallmentCell`: months across, initial payment
    percent down), validated with the answer they go in."""
    return {
        "months": quote.months,
        "markupPercent": percent(quote.markup_bp),
        "monthlyPayment": quote.monthly_payment,
        "totalPayment": quote.initial_payment + quote.total,
    }
