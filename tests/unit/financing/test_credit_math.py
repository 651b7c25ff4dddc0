"""Financing maths against hand-worked values, and the properties every schedule keeps."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.financing.credit_math import (
    LeasingPricing,
    RefundType,
    annuity_payment,
    credit_quote,
    installment_cell,
    leasing_quote,
    monthly_rate,
    percent_of,
    round_half_up,
    schedule,
)

# The worked example: a 300,000,000 sums car, 30 % down, 24 % a year, 36 months.
PRICE = 300_000_000
LOAN = 210_000_000
RATE_BP = 2400
MONTHS = 36


def cents(value: Fraction) -> Fraction:
    """An exact value rounded half-up to 0.01, for comparing with values worked by hand."""
    return Fraction(round_half_up(value * 100), 100)


def test_the_monthly_rate_is_the_annual_rate_over_twelve() -> None:
    assert monthly_rate(2400) == Fraction(2, 100)
    assert monthly_rate(0) == 0


def test_the_down_payment_leaves_the_loan() -> None:
    quote = credit_quote(PRICE, 30, MONTHS, RATE_BP, RefundType.ANNUITY)
    assert quote.initial_payment == 90_000_000
    assert quote.loan == LOAN


def test_annuity_before_rounding_matches_the_hand_worked_values() -> None:
    # A = L·i / (1 - (1+i)^-n) = 210,000,000 · 0.02 / (1 - 1.02^-36)
    exact = annuity_payment(LOAN, RATE_BP, MONTHS)
    assert cents(exact) == Fraction("8238899.05")
    assert cents(exact * MONTHS - LOAN) == Fraction("86600365.64")


def test_annuity_schedule_rounds_the_payment_up_and_the_last_month_takes_the_remainder() -> None:
    # When the worked example is scheduled in whole sums
    plan = schedule(LOAN, RATE_BP, MONTHS, RefundType.ANNUITY)
    # Then every month but the last pays 8,238,899.05 rounded up
    assert {row["payment"] for row in plan.rows[:-1]} == {8_238_900}
    # And month 1's interest is 2 % of the loan, the rest of the payment is principal
    assert plan.rows[0]["interest"] == 4_200_000
    assert plan.rows[0]["principal"] == 4_038_900
    assert plan.rows[0]["balance"] == LOAN - 4_038_900
    # And the whole loan is repaid, the interest within a sum a month of the exact total
    assert sum(row["principal"] for row in plan.rows) == LOAN
    assert plan.rows[-1]["balance"] == 0
    assert abs(plan.total_interest - 86_600_365.64) <= MONTHS
    assert plan.total_payment == LOAN + plan.total_interest


def test_differential_schedule_matches_the_hand_worked_values() -> None:
    # When the worked example is scheduled with a differential refund
    plan = schedule(LOAN, RATE_BP, MONTHS, RefundType.DIFFERENTIAL)
    # Then month 1 pays L/n + L·i = 5,833,333.33 + 4,200,000 = 10,033,333.33, the share rounded up
    assert plan.rows[0]["principal"] == 5_833_334
    assert plan.rows[0]["interest"] == 4_200_000
    assert plan.rows[0]["payment"] == 10_033_334
    # And the last month (5,950,000.00 by hand) pays what the rounded-up shares left: 24 sums less
    last = plan.rows[-1]
    assert last["principal"] == LOAN - 35 * 5_833_334 == 5_833_310
    assert last["interest"] == round_half_up(Fraction(5_833_310 * 2, 100)) == 116_666
    assert last["payment"] == 5_949_976
    # And the interest is L·i·(n+1)/2 = 77,700,000 by hand, within a sum a month
    assert abs(plan.total_interest - 77_700_000) <= MONTHS
    assert plan.rows[-1]["balance"] == 0


def test_a_zero_rate_splits_the_loan_into_equal_months() -> None:
    assert annuity_payment(1_000_000, 0, 3) == Fraction(1_000_000, 3)
    for refund_type in RefundType:
        plan = schedule(1_000_000, 0, 3, refund_type)
        assert [row["payment"] for row in plan.rows] == [333_334, 333_334, 333_332]
        assert plan.total_interest == 0


def test_one_month_repays_everything_at_once() -> None:
    plan = schedule(1_000_000, 2400, 1, RefundType.ANNUITY)
    assert plan.rows[0]["principal"] == 1_000_000
    assert plan.rows[0]["interest"] == 20_000
    assert plan.rows[0]["balance"] == 0


@pytest.mark.parametrize(
    ("loan", "rate_bp", "months", "residual"),
    [(100, 0, 0, 0), (100, -1, 12, 0), (100, 2400, 12, 101), (100, 2400, 12, -1)],
)
def test_impossible_terms_are_refused(loan: int, rate_bp: int, months: int, residual: int) -> None:
    with pytest.raises(ValueError, match=r"must"):
        schedule(loan, rate_bp, months, RefundType.ANNUITY, residual=residual)


def test_percent_of_rounds_half_up() -> None:
    assert percent_of(300_000_000, 3000) == 90_000_000
    assert percent_of(5, 5000) == 3  # 2.5 -> 3
    assert percent_of(3, 5000) == 2  # 1.5 -> 2
    assert percent_of(1, 4900) == 0


def test_leasing_quote_adds_markup_fees_and_buyout_to_the_total_car_price() -> None:
    # Given 30 % down, 5 % mark-up, 22 % a year, 1 % contract fee, 150,000 a month service, 10 % buyout
    terms = LeasingPricing(
        initial_percent=30,
        months=36,
        annual_rate_bp=2200,
        markup_bp=500,
        contract_fee_bp=100,
        monthly_fee=150_000,
        buyout_bp=1000,
    )
    # When a 300,000,000 car is leased
    quote = leasing_quote(PRICE, terms)
    # Then the lessor finances the rest plus its mark-up, amortized down to the buyout
    assert quote.initial_payment == 90_000_000
    assert quote.markup == 10_500_000
    assert quote.financed == 220_500_000
    assert quote.buyout == 30_000_000
    assert quote.contract_fee == 3_000_000
    assert quote.schedule.rows[-1]["balance"] == 30_000_000
    # And the monthly payment is the balloon annuity rounded up plus the service fee
    exact = annuity_payment(220_500_000, 2200, 36, residual=30_000_000)
    assert quote.monthly_payment == -(-exact.numerator // exact.denominator) + 150_000
    # And the total car price is everything paid: down payment, fee, all lease payments, buyout
    lease_payments = sum(row["payment"] for row in quote.schedule.rows) + 36 * 150_000
    assert quote.total_car_price == 90_000_000 + 3_000_000 + lease_payments + 30_000_000


def test_leasing_without_rate_markup_or_fees_costs_the_price() -> None:
    quote = leasing_quote(PRICE, LeasingPricing(initial_percent=20, months=24, annual_rate_bp=0))
    assert quote.total_car_price == PRICE
    assert quote.monthly_payment == 10_000_000


def test_installment_zero_cell_divides_the_rest_by_the_months() -> None:
    cell = installment_cell(PRICE, 30, 12, 0)
    assert cell.initial_payment == 90_000_000
    assert cell.total == 210_000_000
    assert cell.monthly_payment == 17_500_000


def test_installment_markup_cell_adds_the_markup_before_dividing() -> None:
    cell = installment_cell(200_000_001, 50, 9, 500)
    # 50 % of 200,000,001 is 100,000,000.5 -> 100,000,001 down; rest 100,000,000; +5 % = 105,000,000
    assert cell.initial_payment == 100_000_001
    assert cell.total == 105_000_000
    assert cell.monthly_payment == 11_666_667  # 11,666,666.67 rounded up


loans = st.integers(min_value=1, max_value=50_000_000_000)
rates = st.integers(min_value=0, max_value=9_900)
terms = st.integers(min_value=1, max_value=120)
refunds = st.sampled_from(list(RefundType))


@given(loan=loans, rate_bp=rates, months=terms, refund_type=refunds)
def test_principal_adds_up_to_the_loan_and_the_balance_ends_at_zero(
    loan: int, rate_bp: int, months: int, refund_type: RefundType
) -> None:
    plan = schedule(loan, rate_bp, months, refund_type)
    assert len(plan.rows) == months
    assert sum(row["principal"] for row in plan.rows) == loan
    assert plan.rows[-1]["balance"] == 0
    assert all(row["balance"] >= 0 and row["principal"] >= 0 and row["interest"] >= 0 for row in plan.rows)
    assert all(row["payment"] == row["principal"] + row["interest"] for row in plan.rows)
    balances = [loan, *(row["balance"] for row in plan.rows)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(balances))


@given(loan=st.integers(min_value=1_000_000, max_value=50_000_000_000), rate_bp=rates, months=terms)
def test_differential_payments_never_increase(loan: int, rate_bp: int, months: int) -> None:
    payments = [row["payment"] for row in schedule(loan, rate_bp, months, RefundType.DIFFERENTIAL).rows]
    assert all(later <= earlier for earlier, later in itertools.pairwise(payments))


@given(loan=st.integers(min_value=1_000_000, max_value=50_000_000_000), rate_bp=rates, months=terms)
def test_annuity_payments_are_level_until_the_loan_is_repaid(loan: int, rate_bp: int, months: int) -> None:
    plan = schedule(loan, rate_bp, months, RefundType.ANNUITY)
    level = plan.rows[0]["payment"]
    repaid = next(row["month"] for row in plan.rows if row["balance"] == 0)
    assert all(row["payment"] == level for row in plan.rows[: repaid - 1])
    assert all(row["payment"] == 0 for row in plan.rows[repaid:])
    if months > 1:  # a single month is only the last one: the loan plus its interest rounded half-up
        assert level >= annuity_payment(loan, rate_bp, months)


def test_at_an_extreme_rate_and_term_the_rounded_up_level_repays_the_loan_before_its_last_month() -> None:
    # Given 1,000,000 at 98.6 % a year over 115 months: a level of 82,177 is 82,176.3 rounded up, and
    # each month's fraction of a sum overpaid compounds at 8.2 % a month (found by Hypothesis)
    # When the schedule is made
    plan = schedule(1_000_000, 9_860, 115, RefundType.ANNUITY)

    # Then month 114 pays what is left and month 115 nothing: still 115 rows, the loan repaid exactly
    assert [row["payment"] for row in plan.rows[112:]] == [82_177, 70_810, 0]
    assert sum(row["principal"] for row in plan.rows) == 1_000_000
    assert plan.rows[-1]["balance"] == 0


@given(
    loan=st.integers(min_value=1_000_000, max_value=50_000_000_000),
    rate_bp=rates,
    months=terms,
    residual_share=st.integers(min_value=0, max_value=60),
)
def test_a_residual_is_left_exactly_at_the_end(loan: int, rate_bp: int, months: int, residual_share: int) -> None:
    residual = loan * residual_share // 100
    plan = schedule(loan, rate_bp, months, RefundType.ANNUITY, residual=residual)
    assert plan.rows[-1]["balance"] == residual
    assert sum(row["principal"] for row in plan.rows) == loan - residual
    assert all(row["balance"] >= residual for row in plan.rows)


@given(
    loan=st.integers(min_value=1, max_value=50_000_000_000),
    rate_bp=rates,
    months=terms,
    residual_share=st.integers(min_value=0, max_value=100),
)
def test_the_total_interest_alone_is_the_sum_of_the_months_interest(
    loan: int, rate_bp: int, months: int, residual_share: int
) -> None:
    # Given any schedule (a residual up to the whole loan, extreme rates and terms included)
    for refund_type in RefundType:
        residual = loan * residual_share // 100 if refund_type is RefundType.ANNUITY else 0
        # When its total interest is asked before its rows, and its rows of another of the same
        alone = schedule(loan, rate_bp, months, refund_type, residual=residual).total_interest
        walked = schedule(loan, rate_bp, months, refund_type, residual=residual).rows
        # Then the total is the sum of the months' interest
        assert alone == sum(row["interest"] for row in walked)


def test_a_total_interest_past_a_month_that_pays_less_than_the_level_is_the_months_sum() -> None:
    # Given the schedule whose month 114 repays the loan early and whose month 115 pays nothing
    plan = schedule(1_000_000, 9_860, 115, RefundType.ANNUITY)
    # Then its total interest alone is its months' interest
    assert plan.total_interest == sum(
        row["interest"] for row in schedule(1_000_000, 9_860, 115, RefundType.ANNUITY).rows
    )
