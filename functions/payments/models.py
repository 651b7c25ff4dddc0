"""Inputs and responses of the payments routes."""

from typing import Annotated, Literal, TypedDict

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from core.models import ApiModel, Id, Sums, Timestamp
from domain.catalog.payment_types import PaymentType
from domain.financing.credit_math import LeasingQuote, RefundType, Schedule

# The figures' models live with the deals in the domain (orders store and answer them too).
from domain.financing.models import CreditFigures, InstallmentCell, LeasingFigures, Organization, Percent
from edge.validation import Money, MongoId, RequestModel

# Query parameters: a required ObjectId, named in a 400 when malformed (`query.brandId`).
QueryId = Annotated[MongoId, Query()]
# The installment route's `paymentTypeId` (the spec's parameter) has one meaningful value.
InstallmentOnly = Annotated[
    Literal[PaymentType.INSTALLMENT], Query(description="`INSTALLMENT`: installment matrices exist for it only")
]
# The `file` link's own parameters: it opens without headers or token until it expires.
LinkExpires = Annotated[int | None, Query(ge=0, description="set by the `file` link: when it expires (Unix time)")]
LinkSignature = Annotated[
    str | None, Query(max_length=128, description="set by the `file` link: the server's signature of it")
]
GraphFormat = Annotated[Literal["json", "csv"], Query(description="json (default) or csv, the downloadable file")]


class LeasingCalculateBody(RequestModel):
    leasingId: MongoId = Field(description="a leasing program of GET /api/v1/payments/leasing")
    carId: MongoId
    modificationId: MongoId
    loanTermId: MongoId = Field(description="one of the program's loanTerms")
    initialPaymentId: MongoId = Field(description="one of the program's initialPayments")
    price: Money = Field(description="the modification's current price in sums, as the client showed it")


# Responses

# Money these routes have always published without the minimum of `core.models.Sums`: the contract
# (openapi.json) keeps them so.
UnboundedSums = Annotated[int, Field(description="in sums (UZS)")]


class PaymentTypeItem(ApiModel):
    slug: PaymentType
    name: str = Field(description="in the caller's language", examples=["Bank credit"])


class ChainOption(ApiModel):
    """One option of a step of the credit chain (income type, initial payment, loan term, refund type)."""

    id: Id = Field(alias="_id", description="pass it to the next step")
    name: str = Field(description="in the caller's language", examples=["Salaried"])


class IncomeType(ChainOption):
    slug: str = Field(examples=["SALARIED"])


class InitialPayment(ChainOption):
    percent: Percent


class LoanTerm(ChainOption):
    months: int = Field(gt=0, examples=[36])
    rate: Percent = Field(description="annual rate for this term, percent")


class RefundTypeItem(ChainOption):
    slug: RefundType


class BankOffer(ApiModel):
    """A bank's credit offer for the chosen modification; its `_id` is the `bankId` of the next steps."""

    id: Id = Field(alias="_id", description="the offer: `bankId` of the next steps")
    name: str = Field(description="the bank's name", examples=["Kapitalbank"])
    logo: str | None
    bank: Organization
    product: str = Field(description="the credit product's name", examples=["Chevrolet car loan"])
    rateFrom: Percent = Field(description="the lowest annual rate, percent")
    initialPaymentFrom: Percent = Field(description="the lowest initial payment, percent")
    maxMonths: int = Field(ge=0, description="the longest term")
    price: Sums = Field(description="the modification's current price")


class ScheduleRow(TypedDict):
    month: Annotated[int, Field(ge=1)]
    payment: Annotated[UnboundedSums, Field(description="principal + interest (+ fee)")]
    principal: UnboundedSums
    interest: UnboundedSums
    balance: Annotated[UnboundedSums, Field(description="left to repay after this payment")]


class LeasingScheduleRow(ScheduleRow):
    fee: Annotated[UnboundedSums, Field(description="the monthly fee included in `payment`")]


def schedule_rows(schedule: Schedule) -> list[ScheduleRow]:
    """A credit's month-by-month rows as the API answers them: the schedule's own (`credit_math.Row`, the
    same keys), validated with the answer they are put in (rows are TypedDicts, not models: docs/DECISIONS.md,
    "Financing")."""
    return schedule.rows


def leasing_schedule_rows(quote: LeasingQuote) -> list[LeasingScheduleRow]:
    """A leasing's month-by-month rows, its monthly fee in each payment."""
    fee = quote.monthly_fee
    return [{**row, "payment": row["payment"] + fee, "fee": fee} for row in quote.schedule.rows]


class LeasingCalculation(LeasingFigures):
    """A lease's figures (POST /api/v1/payments/leasing/calculate)."""


class CreditCalculation(CreditFigures):
    bank: Organization
    incomeType: str = Field(description="the chosen income type's name")
    modificationId: Id
    schedule: list[ScheduleRow]


class LoanTermRef(ApiModel):
    id: Id = Field(alias="_id", description="`loanTermId` of POST /api/v1/payments/leasing/calculate")
    months: int = Field(gt=0, examples=[24])


class InitialPaymentRef(ApiModel):
    id: Id = Field(alias="_id", description="`initialPaymentId` of POST /api/v1/payments/leasing/calculate")
    percent: Percent


class PriceTerms(ApiModel):
    rate: Percent = Field(description="annual rate, percent")
    markupPercent: Percent
    contractFeePercent: Percent
    monthlyFee: UnboundedSums
    buyoutPercent: Percent


class LeasingProgram(PriceTerms):
    id: Id = Field(alias="_id", description="`leasingId` of POST /api/v1/payments/leasing/calculate")
    name: str
    organization: Organization
    loanTerms: list[LoanTermRef]
    initialPayments: list[InitialPaymentRef]


class InstallmentRow(ApiModel):
    initialPercent: Percent
    initialPayment: UnboundedSums
    cells: list[InstallmentCell] = Field(description="one per term of `terms`, in order")


class InstallmentPlan(ApiModel):
    id: Id = Field(alias="_id")
    name: str
    organization: Organization
    terms: list[int] = Field(description="the plan's terms in months (the matrix columns)")
    rows: list[InstallmentRow] = Field(description="one per initial payment (the matrix rows)")


class InstallmentMatrix(ApiModel):
    price: Sums = Field(description="the modification's current price")
    modificationId: Id
    items: list[InstallmentPlan]
    total: int = Field(ge=0)


class BankOfferTerms(ApiModel):
    initialPercent: Percent
    months: int = Field(gt=0)
    rate: Percent = Field(description="annual rate, percent")
    refundType: RefundType


class LeasingOfferTerms(PriceTerms):
    initialPercent: Percent
    months: int = Field(gt=0)


class _OfferBase(ApiModel):
    id: Id = Field(alias="_id", description="`offerId` of the graph route")
    title: str
    description: str
    organization: Organization
    validUntil: Timestamp | None
    modificationId: Id


class BankSpecialOffer(CreditFigures, _OfferBase):
    """A bank's special offer with its credit figures for the modification."""

    kind: Literal["BANK"]
    terms: BankOfferTerms


class LeasingSpecialOffer(LeasingFigures, _OfferBase):
    """A leasing company's special offer with its lease figures for the modification."""

    kind: Literal["LEASING"]
    terms: LeasingOfferTerms


SpecialOffer = Annotated[BankSpecialOffer | LeasingSpecialOffer, Field(discriminator="kind")]


class SpecialOffers(ApiModel):
    price: Sums = Field(description="the modification's current price")
    items: list[SpecialOffer]
    total: int = Field(ge=0)


class OfferGraph(ApiModel):
    offer: SpecialOffer
    schedule: list[LeasingScheduleRow | ScheduleRow] = Field(description="month by month")
    file: str = Field(
        description="the same schedule as a CSV download: a signed link that opens as it is (a browser, a "
        "WebView) without headers or token, for an hour"
    )
