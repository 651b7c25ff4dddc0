"""Financing maths: credit schedules (annuity and differential), leasing quotes and installment cells.

Pure functions, no I/O. Money is whole sums (`int`); rates are annual basis points (`2400` = 24 % a
year), and the monthly rate is exactly `i = rate / 12`: every amount is computed in integers (the rate
as `rate_bp / 120,000`), so intermediate maths is exact and cheap.

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
   ends at 0 (at R for a lease with a buyout). The fraction of a sum rounded up each month compounds
   at the monthly rate: at rates and terms no lender offers (98.6 % a year over 115 months) it repays
   the loan a month early, and the months after pay nothing (tests/unit/financing/test_credit_math.py).
Percentages of an amount (a down payment, a mark-up, a fee) are rounded half-up to whole sums.

A `Schedule` computes what is asked of it: the level amount in closed form; the first payment, the totals
and the rows by one walk of the months (each month's interest is rounded, so only the months add up to
the totals exactly); the rows only when the schedule itself is answered.
"""

import functools
import math
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple, TypedDict

BASIS_POINTS = 10_000  # 100 % in basis points
MONTHS_PER_YEAR = 12
RATE_DENOMINATOR = BASIS_POINTS * MONTHS_PER_YEAR  # the monthly rate is rate_bp / RATE_DENOMINATOR
TWICE_RATE_DENOMINATOR = 2 * RATE_DENOMINATOR  # a month's interest is rounded half-up: (2·x + D) // 2D


class RefundType(StrEnum):
    ANNUITY = "ANNUITY"
    DIFFERENTIAL = "DIFFERENTIAL"


def round_half_up(value: Fraction) -> int:
    """Whole sums, halves away from zero (amounts here are never negative)."""
    return math.floor(value + Fraction(1, 2))


def percent_of(amount: int, basis_points: int) -> int:
    """`basis_points` / 100 % of `amount`, rounded half-up to whole sums (3000 bp of 300 M is 90 M)."""
    return (2 * amount * basis_points + BASIS_POINTS) // (2 * BASIS_POINTS)


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


class Row(TypedDict):
    """A month of a schedule, as the API answers it."""

    month: int
    payment: int
    principal: int
    interest: int
    balance: int


class Schedule:
    """A month-by-month schedule by the rounding rule of this module: the level amount in closed form,
    every month by one walk (`_walk`), which gives the first payment and the totals, and the rows when
    they are asked for."""

    def __init__(self, *, loan: int, residual: int, annual_rate_bp: int, refund_type: RefundType, months: int) -> None:
        self.loan = loan
        self.residual = residual
        self.annual_rate_bp = annual_rate_bp
        self.refund_type = refund_type
        self.months = months
        self._totals: tuple[int, int] | None = None  # the first payment and the total interest, once walked

    @cached_property
    def level(self) -> int:
        """The level amount, rounded up: the annuity payment, or the differential principal share. With
        q = 120,000 + rate_bp and D = 120,000, the annuity is (L·q^n - R·D^n)·rate_bp / (D·(q^n - D^n))."""
        to_amortize = self.loan - self.residual
        if self.refund_type is RefundType.DIFFERENTIAL or self.annual_rate_bp == 0:
            return _ceil_div(to_amortize, self.months)
        grown, kept, denominator = _annuity_powers(self.annual_rate_bp, self.months)
        return _ceil_div((self.loan * grown - self.residual * kept) * self.annual_rate_bp, denominator)

    def _walk(self, rows: list[Row] | None) -> tuple[int, int]:
        """Every month, in order, by the rounding rule (rules 2 and 3 of the module's docstring): the first
        month's payment and the total interest, and each month's row appended to `rows` if given."""
        balance, residual, last, level = self.loan, self.residual, self.months, self.level
        twice_rate, annuity = 2 * self.annual_rate_bp, self.refund_type is RefundType.ANNUITY
        first_payment = total_interest = 0
        for month in range(1, last + 1):
            interest = (balance * twice_rate + RATE_DENOMINATOR) // TWICE_RATE_DENOMINATOR  # half-up
            principal = level - interest if annuity else level
            to_amortize = balance - residual
            if month == last or principal > to_amortize:
                principal = to_amortize
            elif principal < 0:
                principal = 0
            balance -= principal
            total_interest += interest
            if month == 1:
                first_payment = principal + interest
            if rows is not None:
                rows.append(
                    {
                        "month": month,
                        "payment": principal + interest,
                        "principal": principal,
                        "interest": interest,
                        "balance": balance,
                    }
                )
        return first_payment, total_interest

    def _walked(self) -> tuple[int, int]:
        if self._totals is None:
            self._totals = self._walk(None)
        return self._totals

    @property
    def first_payment(self) -> int:
        return self._walked()[0]

    @property
    def total_interest(self) -> int:
        return self._walked()[1]

    @property
    def total_payment(self) -> int:
        """What the months pay together (a residual is paid apart from them): the amortized principal and
        every month's interest."""
        return self.loan - self.residual + self.total_interest

    @cached_property
    def rows(self) -> list[Row]:
        """Shared by whoever asks again: never changed. The walk that makes them gives the totals too."""
        rows: list[Row] = []
        self._totals = self._walk(rows)
        return rows


@functools.lru_cache(maxsize=256)  # a few rates and terms per product: the same powers on every price
def _annuity_powers(annual_rate_bp: int, months: int) -> tuple[int, int, int]:
    """q^n, D^n and D·(q^n - D^n) of `Schedule.level` (numbers of hundreds of digits at 60 months)."""
    grown = (RATE_DENOMINATOR + annual_rate_bp) ** months
    kept = RATE_DENOMINATOR**months
    return grown, kept, RATE_DENOMINATOR * (grown - kept)


def _ceil_div(numerator: int, denominator: int) -> int:
    return -(-numerator // denominator)


def schedule(loan: int, annual_rate_bp: int, months: int, refund_type: RefundType, *, residual: int = 0) -> Schedule:
    """The month-by-month schedule in whole sums, by the rounding rule of this module (computed as asked)."""
    _check(loan, annual_rate_bp, months, residual)
    return Schedule(loan=loan, residual=residual, annual_rate_bp=annual_rate_bp, refund_type=refund_type, months=months)


def _check(loan: int, annual_rate_bp: int, months: int, residual: int) -> None:
    if months < 1:
        raise ValueError("months must be at least 1")
    if annual_rate_bp < 0:
        raise ValueError("the rate must not be negative")
    if not 0 <= residual <= loan:
        raise ValueError("the loan and residual must satisfy 0 <= residual <= loan")


class CreditQuote(NamedTuple):
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
    loan = schedule(price - initial_payment, annual_rate_bp, months, refund_type)
    return CreditQuote(price=price, initial_payment=initial_payment, schedule=loan)


class LeasingPricing(NamedTuple):
    """A lease's pricing: a leasing program's rates for one choice of initial payment and term.

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


class LeasingQuote(NamedTuple):
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


def leasing_quote(price: int, terms: LeasingPricing) -> LeasingQuote:
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


class InstallmentQuote(NamedTuple):
    initial_percent: int
    months: int
    markup_bp: int
    initial_payment: int
    total: int
    monthly_payment: int


def installment_cell(price: int, initial_percent: int, months: int, markup_bp: int) -> InstallmentQuote:
    """An installment: the rest after the down payment, plus the plan's mark-up, in equal months
    (a 0 % cell is the rest divided by the months, rounded up; the last month takes the remainder)."""
    return installment_row(price, initial_percent, (months,), (markup_bp,))[0]


def installment_row(
    price: int, initial_percent: int, terms: Sequence[int], markups_bp: Sequence[int]
) -> list[InstallmentQuote]:
    """A row of a plan's matrix: the `installment_cell` of each term with its mark-up, the down payment
    and the rest after it computed once for the row."""
    initial_payment = percent_of(price, initial_percent * 100)
    rest = price - initial_payment
    cells: list[InstallmentQuote] = []
    for months, markup_bp in zip(terms, markups_bp, strict=True):
        total = rest + percent_of(rest, markup_bp)
        _check(total, 0, months, 0)
        monthly = _ceil_div(total, months)  # the first payment of a 0 % schedule of `total` over `months`
        cells.append(
            InstallmentQuote(
                initial_percent=initial_percent,
                months=months,
                markup_bp=markup_bp,
                initial_payment=initial_payment,
                total=total,
                monthly_payment=monthly,
            )
        )
    return cells
