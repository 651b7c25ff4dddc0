"""Financing maths: credit schedules (annuity and differential), leasing quotes and installment cells.

Pure functions, no I/O. Money is whole sums (`int`); rates are annual basis points (`2400` = 24 % a
year), and the monthly rate is exactly `i = rate / 12` as a `Fraction`, so intermediate maths is exact.

Formulas (L the loan, n the months, i the monthly rate, R a residual left at the end, 0 for a credit):
- annuity: `A = (L - R·(1+i)^-n)·i / (1 - (1+i)^-n)`, which is `L·i / (1 - (1+i)^-n)` when R = 0,
  and `(L - R) / n` when i = 0;
- differential: month k pays `(L - R)/n` of principal plus interest on the balance left before it.

Rounding rule (the one rule, also in docs/DECISIONS.md, "Financing"):
1. The level amount of a schedule (the annuity payment, or the differential principal share
   `(L - R)/n`) is rounded UP to a whole sum: no month asks for less than the exact amount.
2. Each month's interest is the balance before that month times i, rounded half-up to a whole sum.
3. principal = payment - interest, kept between 0 and what is left to amortize; the last month pays
   all that is left (plus its interest). So the principal adds up to the loan exactly and the balance
   ends at 0 (at R for a lease with a buyout).
Percentages of an amount (a down payment, a mark-up, a fee) are rounded half-up to whole sums.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

BASIS_POINTS = 10_000  # 100 % in basis points
MONTHS_PER_YEAR = 12


class RefundType(StrEnum):
    ANNUITY = "ANNUITY"
    DIFFERENTIAL = "DIFFERENTIAL"


def round_half_up(value: Fraction) -> int:
    """Whole sums, halves away from zero (amounts here are never negative)."""
    return math.floor(value + Fraction(1, 2))


def percent_of(amount: int, basis_points: int) -> int:
    """`basis_points` / 100 % of `amount`, rounded half-up to whole sums (3000 bp of 300 M is 90 M)."""
    return round_half_up(Fraction(amount * basis_points, BASIS_POINTS))


def monthly_rate(annual_rate_bp: int) -> Fraction:
    """The exact monthly rate of an annual rate in basis points: 2400 bp a year is 0.02 a month."""
    return Fraction(annual_rate_bp, BASIS_POINTS * MONTHS_PER_YEAR)


def annuity_payment(loan: int, annual_rate_bp: int, months: int, residual: int = 0) -> Fraction:
    """The exact, unrounded level payment that amortizes `loan` down to `residual` in `months`."""
    _check(loan, annual_rate_bp, months, residual)
    i = monthly_rate(annual_rate_bp)
    if i == 0:
        return Fraction(loan - residual, months)
    discount = (1 + i) ** -months
    return (loan - residual * discount) * i / (1 - discount)


@dataclass(frozen=True)
class Row:
    month: int
    payment: int
    principal: int
    interest: int
    balance: int

    def as_dict(self) -> dict[str, int]:
        return {
            "month": self.month,
            "payment": self.payment,
            "principal": self.principal,
            "interest": self.interest,
            "balance": self.balance,
        }


@dataclass(frozen=True)
class Schedule:
    loan: int
    residual: int
    annual_rate_bp: int
    refund_type: RefundType
    rows: tuple[Row, ...]

    @property
    def months(self) -> int:
        return len(self.rows)

    @property
    def first_payment(self) -> int:
        return self.rows[0].payment

    @property
    def total_interest(self) -> int:
        return sum(row.interest for row in self.rows)

    @property
    def total_payment(self) -> int:
        """What the months pay together (a residual is paid apart from them)."""
        return sum(row.payment for row in self.rows)


def schedule(loan: int, annual_rate_bp: int, months: int, refund_type: RefundType, *, residual: int = 0) -> Schedule:
    """The month-by-month schedule in whole sums, by the rounding rule of this module."""
    _check(loan, annual_rate_bp, months, residual)
    i = monthly_rate(annual_rate_bp)
    if refund_type is RefundType.ANNUITY:
        level = math.ceil(annuity_payment(loan, annual_rate_bp, months, residual))
    else:
        level = math.ceil(Fraction(loan - residual, months))
    balance = loan
    rows = []
    for month in range(1, months + 1):
        interest = round_half_up(balance * i)
        to_amortize = balance - residual
        if month == months:
            principal = to_amortize
        else:
            wanted = level - interest if refund_type is RefundType.ANNUITY else level
            principal = max(0, min(wanted, to_amortize))
        balance -= principal
        rows.append(Row(month, principal + interest, principal, interest, balance))
    return Schedule(loan, residual, annual_rate_bp, refund_type, tuple(rows))


def _check(loan: int, annual_rate_bp: int, months: int, residual: int) -> None:
    if months < 1:
        raise ValueError("months must be at least 1")
    if annual_rate_bp < 0:
        raise ValueError("the rate must not be negative")
    if not 0 <= residual <= loan:
        raise ValueError("the loan and residual must satisfy 0 <= residual <= loan")


@dataclass(frozen=True)
class CreditQuote:
    price: int
    initial_payment: int
    schedule: Schedule

    @property
    def loan(self) -> int:
        return self.schedule.loan


def credit_quote(
    price: int, initial_percent: int, months: int, annual_rate_bp: int, refund_type: RefundType
) -> CreditQuote:
    """A car credit: the down payment is `initial_percent` % of the price, the bank lends the rest."""
    initial_payment = percent_of(price, initial_percent * 100)
    return CreditQuote(price, initial_payment, schedule(price - initial_payment, annual_rate_bp, months, refund_type))


@dataclass(frozen=True)
class LeasingTerms:
    """A leasing program's terms for one choice of initial payment and term.

    The lessor adds `markup_bp` to the amount it finances (price - initial payment), charges the rate
    on what is outstanding, takes a one-off contract fee (`contract_fee_bp` of the price, with the
    initial payment) and a fixed `monthly_fee` with every lease payment; the client buys the car out
    at the end for `buyout_bp` of the price.
    """

    initial_percent: int
    months: int
    annual_rate_bp: int
    markup_bp: int = 0
    contract_fee_bp: int = 0
    monthly_fee: int = 0
    buyout_bp: int = 0


@dataclass(frozen=True)
class LeasingQuote:
    price: int
    initial_payment: int
    markup: int
    contract_fee: int
    monthly_fee: int
    buyout: int
    schedule: Schedule

    @property
    def financed(self) -> int:
        return self.schedule.loan

    @property
    def monthly_payment(self) -> int:
        return self.schedule.first_payment + self.monthly_fee

    @property
    def lease_payments(self) -> int:
        return self.schedule.total_payment + self.monthly_fee * self.schedule.months

    @property
    def total_car_price(self) -> int:
        """Everything the client pays: initial payment, contract fee, every lease payment, the buyout."""
        return self.initial_payment + self.contract_fee + self.lease_payments + self.buyout


def leasing_quote(price: int, terms: LeasingTerms) -> LeasingQuote:
    initial_payment = percent_of(price, terms.initial_percent * 100)
    markup = percent_of(price - initial_payment, terms.markup_bp)
    financed = price - initial_payment + markup
    buyout = min(percent_of(price, terms.buyout_bp), financed)
    return LeasingQuote(
        price=price,
        initial_payment=initial_payment,
        markup=markup,
        contract_fee=percent_of(price, terms.contract_fee_bp),
        monthly_fee=terms.monthly_fee,
        buyout=buyout,
        schedule=schedule(financed, terms.annual_rate_bp, terms.months, RefundType.ANNUITY, residual=buyout),
    )


@dataclass(frozen=True)
class InstallmentQuote:
    initial_percent: int
    months: int
    markup_bp: int
    initial_payment: int
    total: int
    monthly_payment: int


def installment_cell(price: int, initial_percent: int, months: int, markup_bp: int) -> InstallmentQuote:
    """An installment: the rest after the down payment, plus the plan's mark-up, in equal months
    (a 0 % cell is the rest divided by the months, rounded up; the last month takes the remainder)."""
    initial_payment = percent_of(price, initial_percent * 100)
    rest = price - initial_payment
    total = rest + percent_of(rest, markup_bp)
    monthly = schedule(total, 0, months, RefundType.ANNUITY).first_payment
    return InstallmentQuote(initial_percent, months, markup_bp, initial_payment, total, monthly)
