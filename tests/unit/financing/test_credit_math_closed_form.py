"""The integer, closed-form schedule answers exactly what the month-by-month Fraction schedule it replaced
answered, for every product the demo data seeds on every seeded car's price (its cheapest modification's).

`fraction_schedule` is the previous implementation, kept here as the reference: each month's interest as
an exact Fraction rounded half-up, the level amount as the exact annuity rounded up.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from domain.financing.credit_math import (
    LeasingPricing,
    RefundType,
    annuity_payment,
    installment_cell,
    installment_row,
    leasing_quote,
    monthly_rate,
    percent_of,
    round_half_up,
    schedule,
)
from local.seed.catalog_data import MODELS
from local.seed.financing import BANKS, INSTALLMENT_ROWS, INSTALLMENT_TERMS, LEASING_COMPANIES, SPECIAL_OFFERS

PRICES = sorted({min(mod.price for mod in model.mods) for model in MODELS})


def fraction_schedule(
    loan: int, rate_bp: int, months: int, refund_type: RefundType, residual: int = 0
) -> list[tuple[int, int, int, int]]:
    """(payment, principal, interest, balance) of every month, as the Fraction schedule computed them."""
    i = monthly_rate(rate_bp)
    if refund_type is RefundType.ANNUITY:
        level = math.ceil(annuity_payment(loan, rate_bp, months, residual))
    else:
        level = math.ceil(Fraction(loan - residual, months))
    balance, rows = loan, []
    for month in range(1, months + 1):
        interest = round_half_up(balance * i)
        to_amortize = balance - residual
        if month == months:
            principal = to_amortize
        else:
            wanted = level - interest if refund_type is RefundType.ANNUITY else level
            principal = max(0, min(wanted, to_amortize))
        balance -= principal
        rows.append((principal + interest, principal, interest, balance))
    return rows


def assert_same(loan: int, rate_bp: int, months: int, refund_type: RefundType, residual: int = 0) -> None:
    reference = fraction_schedule(loan, rate_bp, months, refund_type, residual)
    plan = schedule(loan, rate_bp, months, refund_type, residual=residual)
    assert plan.first_payment == reference[0][0]
    assert plan.total_interest == sum(row[2] for row in reference)
    assert plan.total_payment == sum(row[0] for row in reference)
    assert [(row["payment"], row["principal"], row["interest"], row["balance"]) for row in plan.rows] == reference


def test_every_seeded_credit_product_on_every_price_is_unchanged() -> None:
    # Given every bank's every income type, down payment, term and refund type, on every seeded price
    checked = 0
    for bank, price in itertools.product(BANKS, PRICES):
        for income, percent, months, refund in itertools.product(
            bank.income_types, bank.initial_percents, bank.terms, bank.refund_types
        ):
            loan = price - percent_of(price, percent * 100)
            # When it is scheduled in closed form; then every figure is the Fraction schedule's
            assert_same(loan, bank.rate_bp(income, percent, months), months, RefundType(refund))
            checked += 1
    assert checked > 5_000


def test_every_seeded_leasing_program_and_special_offer_on_every_price_is_unchanged() -> None:
    # Given every leasing company's down payments and terms, and the special offers, on every seeded price
    for company, price in itertools.product(LEASING_COMPANIES, PRICES):
        for percent, months in itertools.product(company.initial_percents, company.terms):
            terms = LeasingPricing(
                initial_percent=percent,
                months=months,
                annual_rate_bp=company.rate_bp,
                markup_bp=company.markup_bp,
                contract_fee_bp=company.contract_fee_bp,
                monthly_fee=company.monthly_fee,
                buyout_bp=company.buyout_bp,
            )
            quote = leasing_quote(price, terms)
            # Then the lease with its buyout left at the end is scheduled exactly as before
            assert_same(quote.financed, terms.annual_rate_bp, months, RefundType.ANNUITY, quote.buyout)
    for offer, price in itertools.product(SPECIAL_OFFERS, PRICES):
        given = offer.terms
        if offer.kind == "LEASING":
            lease = LeasingPricing(
                initial_percent=given["initialPercent"],
                months=given["months"],
                annual_rate_bp=given["rateBp"],
                buyout_bp=given["buyoutBp"],
            )
            quote = leasing_quote(price, lease)
            assert_same(quote.financed, lease.annual_rate_bp, lease.months, RefundType.ANNUITY, quote.buyout)
        else:
            loan = price - percent_of(price, given["initialPercent"] * 100)
            assert_same(loan, given["rateBp"], given["months"], RefundType(given["refundType"]))


def test_every_seeded_installment_cell_on_every_price_is_unchanged() -> None:
    # Given every installment cell on every seeded price
    for (percent, markups), price in itertools.product(INSTALLMENT_ROWS, PRICES):
        for months, markup in zip(INSTALLMENT_TERMS, markups, strict=True):
            cell = installment_cell(price, percent, months, markup)
            # Then its monthly payment is the first of the Fraction schedule of its total
            assert cell.monthly_payment == fraction_schedule(cell.total, 0, months, RefundType.ANNUITY)[0][0]


def test_every_seeded_installment_row_on_every_price_is_its_cells_one_by_one() -> None:
    # Given every seeded installment row on every seeded price
    for (percent, markups), price in itertools.product(INSTALLMENT_ROWS, PRICES):
        # When the row is computed at once
        row = installment_row(price, percent, INSTALLMENT_TERMS, markups)
        # Then each cell is what the cell alone gives, its payment the first of the Fraction schedule of its total
        for cell, months, markup in zip(row, INSTALLMENT_TERMS, markups, strict=True):
            assert cell.initial_payment == percent_of(price, percent * 100)
            assert cell.total == price - cell.initial_payment + percent_of(price - cell.initial_payment, markup)
            assert cell.monthly_payment == fraction_schedule(cell.total, 0, months, RefundType.ANNUITY)[0][0]
            assert cell == installment_cell(price, percent, months, markup)
