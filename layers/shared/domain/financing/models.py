"""The figures of a financing: what the API shows of a quote (`credit_math`). The financing routes answer
them (their response models, in `payments.models`, extend them) and orders store them
(docs/DECISIONS.md, "Financed orders"), so an order carries exactly what the client was shown: which
is why they live in the domain, which both functions read. And an organization as the API names it,
which the domain builds (`views.organization_ref`)."""

from typing import Annotated

from pydantic import Field

from core.models import ApiModel, Id, Sums
from domain.financing.credit_math import RefundType

Percent = Annotated[float, Field(ge=0, le=100, description="percent, e.g. 24.0")]


class Organization(ApiModel):
    """A bank, leasing company or installment provider."""

    id: Id = Field(alias="_id")
    name: str = Field(examples=["Kapitalbank"])
    logo: str | None = Field(description="logo URL")


class CreditFigures(ApiModel):
    """A credit's figures (GET /api/v2/payments/banks/calculate without the schedule rows)."""

    monthlyPayment: Sums = Field(description="the first month's payment")
    loanAmount: Sums
    initialPayment: Sums
    totalInterest: Sums
    totalPayment: Sums
    rate: Percent = Field(description="annual rate, percent")
    termMonths: int = Field(gt=0)
    refundType: RefundType
    carPrice: Sums


class LeasingFigures(ApiModel):
    """A lease's figures (POST /api/v1/payments/leasing/calculate answers them alone)."""

    monthlyPayment: Sums
    totalCarPrice: Sums = Field(description="everything paid over the lease, initial payment included")
    price: Sums = Field(description="the car's price")
    initialPayment: Sums
    contractFee: Sums
    markup: Sums
    financedAmount: Sums
    monthlyFee: Sums
    leasePayments: Sums
    buyout: Sums
    termMonths: int = Field(gt=0)
    rate: Percent


class InstallmentCell(ApiModel):
    """One cell of an installment matrix (GET /api/v1/payments/installment): a term of a row."""

    months: int = Field(gt=0)
    markupPercent: Percent
    monthlyPayment: Sums
    totalPayment: Sums = Field(description="the initial payment, plus the rest with its mark-up")


class InstallmentFigures(InstallmentCell):
    """The cell an order chose, with its row's initial payment."""

    initialPercent: Percent
    initialPayment: Sums
    termMonths: int = Field(gt=0, description="= months")
    financedAmount: Sums = Field(description="the rest after the initial payment, with the mark-up")
    price: Sums = Field(description="the car's price")
