"""The financing documents as `domain.financing.store` returns them (docs/DATA_MODEL.md, "Financing").

Rates and shares that can be fractional are basis points (`rateBp: 2400` is 24 % a year); initial
payments are whole percents. A read with a projection returns only some fields, so only `_id` is
always there.
"""

# No `from __future__ import annotations`: TypedDict would turn each annotation into a ForwardRef compiled
# at import (docs/DECISIONS.md, "Financing").
from datetime import datetime
from typing import Required, TypedDict

from bson import ObjectId

from domain.catalog.records import LocalizedText


class OrganizationRecord(TypedDict, total=False):
    """A bank, leasing company or installment provider."""

    _id: Required[ObjectId]
    slug: str
    kind: str
    name: str | LocalizedText
    logo: str | None
    order: int
    active: bool


# The tree of a credit product: incomeTypes[].initialPayments[].loanTerms[].refundTypes[].


class RefundTypeRecord(TypedDict):
    _id: ObjectId
    slug: str  # ANNUITY | DIFFERENTIAL


class LoanTermRecord(TypedDict):
    _id: ObjectId
    months: int
    rateBp: int  # the rate of this income type, initial payment and term
    refundTypes: list[RefundTypeRecord]


class InitialPaymentRecord(TypedDict):
    _id: ObjectId
    percent: int
    loanTerms: list[LoanTermRecord]


class IncomeTypeRecord(TypedDict):
    _id: ObjectId
    slug: str
    name: LocalizedText
    initialPayments: list[InitialPaymentRecord]


class CreditProductRecord(TypedDict, total=False):
    """A bank's credit product for a brand (a chain step reads only the tree of one)."""

    _id: Required[ObjectId]
    organizationId: ObjectId
    brandId: ObjectId
    name: LocalizedText
    active: bool
    incomeTypes: list[IncomeTypeRecord]


class BankOfferRecord(TypedDict):
    """A credit product offered for one modification (the items of /api/v2/payments/banks)."""

    _id: ObjectId
    organizationId: ObjectId
    productId: ObjectId
    brandId: ObjectId
    carId: ObjectId
    modificationId: ObjectId
    createdAt: datetime


class LeasingRates(TypedDict, total=False):
    """What a lease is priced with: a leasing program's terms, or a special leasing offer's."""

    rateBp: Required[int]
    markupBp: int
    contractFeeBp: int
    monthlyFee: int
    buyoutBp: int


class ProgramTermRecord(TypedDict):
    _id: ObjectId
    months: int


class ProgramInitialPaymentRecord(TypedDict):
    _id: ObjectId
    percent: int


class LeasingProgramRecord(LeasingRates, total=False):
    _id: Required[ObjectId]
    organizationId: ObjectId
    brandId: ObjectId
    name: LocalizedText
    loanTerms: list[ProgramTermRecord]
    initialPayments: list[ProgramInitialPaymentRecord]
    active: bool
    order: int


class InstallmentRowRecord(TypedDict):
    initialPercent: int
    markupBp: list[int]  # one per term of the plan; 0 is an interest-free cell


class InstallmentPlanRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    organizationId: ObjectId
    brandId: ObjectId
    name: LocalizedText
    terms: list[int]  # months, the columns of the matrix
    rows: list[InstallmentRowRecord]
    active: bool
    order: int


class SpecialOfferTerms(LeasingRates, total=False):
    """A BANK offer's {initialPercent, months, rateBp, refundType}; a LEASING one's rates besides."""

    initialPercent: Required[int]
    months: Required[int]
    refundType: str


class SpecialOfferRecord(TypedDict, total=False):
    _id: Required[ObjectId]
    kind: str  # BANK | LEASING
    organizationId: ObjectId
    carId: ObjectId
    modificationIds: list[ObjectId]  # empty: every modification of the car
    title: LocalizedText
    description: LocalizedText
    validUntil: datetime | None
    active: bool
    order: int
    terms: SpecialOfferTerms
