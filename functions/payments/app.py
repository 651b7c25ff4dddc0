"""Payments function: financing (bank credit chain, leasing, installments, special offers)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from core.models import Page
from domain.catalog.payment_types import PaymentType
from domain.financing.special_offers import BANK, LEASING
from domain.identity import callers
from edge import context, responses
from edge.access import JWT, JWT_OR_SIGNED_LINK, PUBLIC
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from edge.links import api_base_url
from payments import bank_chain, installments, leasing, service, special_offers
from payments.models import (
    BankOffer,
    CreditCalculation,
    GraphFormat,
    IncomeType,
    InitialPayment,
    InstallmentMatrix,
    InstallmentOnly,
    LeasingCalculateBody,
    LeasingCalculation,
    LeasingProgram,
    LinkExpires,
    LinkSignature,
    LoanTerm,
    OfferGraph,
    Organization,
    PaymentTypeItem,
    QueryId,
    RefundTypeItem,
    SpecialOffers,
)

NOT_FOUND: dict[int, OpenAPIResponse] = {
    404: {"description": "Something named by id does not exist, or does not belong to the rest"}
}

app = create_app(callers=callers)


@app.get(
    "/api/v1/payments/organizations",
    operation_id="listOrganizations",
    middlewares=[JWT],
    summary="Banks, leasing companies or installment providers serving a brand",
    responses={404: {"description": "No such brand"}},
)
def get_payments_organizations(brandId: QueryId, slug: PaymentType) -> Response[Envelope[Page[Organization]]]:
    return responses.ok(service.organizations(brandId, slug, locale=context.locale()))


@app.get(
    "/api/v1/payments/installment",
    operation_id="listInstallmentPlans",
    middlewares=[JWT],
    summary="Installment plans for a modification: monthly payment by initial payment and term",
    responses=NOT_FOUND,
)
def get_payments_installment(
    brandId: QueryId, paymentTypeId: InstallmentOnly, modificationId: QueryId
) -> Response[Envelope[InstallmentMatrix]]:
    return responses.ok(installments.matrix(brandId, modificationId, locale=context.locale()))


@app.get(
    "/api/v1/payments/leasing",
    operation_id="listLeasingPrograms",
    middlewares=[JWT],
    summary="A leasing company's programs for a brand",
    responses=NOT_FOUND,
)
def get_payments_leasing(brandId: QueryId, organizationId: QueryId) -> Response[Envelope[Page[LeasingProgram]]]:
    return responses.ok(leasing.programs(brandId, organizationId, locale=context.locale()))


@app.post(
    "/api/v1/payments/leasing/calculate",
    operation_id="calculateLeasing",
    middlewares=[JWT],
    summary="Calculate a lease at the current price",
    responses={
        **NOT_FOUND,
        409: {"description": "The price has changed (`details.currentPrice`): recalculate"},
    },
)
def post_payments_leasing_calculate(body: LeasingCalculateBody) -> Response[Envelope[LeasingCalculation]]:
    return responses.ok(leasing.calculate(body))


@app.get(
    "/api/v1/payments/special-offers",
    operation_id="listSpecialOffers",
    middlewares=[JWT],
    summary="Special bank offers for a modification, with their figures",
    responses=NOT_FOUND,
)
def get_payments_special_offers(carId: QueryId, modificationId: QueryId) -> Response[Envelope[SpecialOffers]]:
    return responses.ok(special_offers.offers(carId, modificationId, BANK, locale=context.locale()))


@app.get(
    "/api/v1/payments/special-offers/leasing",
    operation_id="listSpecialLeasingOffers",
    middlewares=[JWT],
    summary="Special leasing offers for a modification, with their figures",
    responses=NOT_FOUND,
)
def get_payments_special_offers_leasing(carId: QueryId, modificationId: QueryId) -> Response[Envelope[SpecialOffers]]:
    return responses.ok(special_offers.offers(carId, modificationId, LEASING, locale=context.locale()))


@app.get(
    "/api/v1/payments/special-offers/graph",
    operation_id="getSpecialOfferSchedule",
    middlewares=[JWT_OR_SIGNED_LINK],
    summary="A special offer's payment schedule, as data or as a CSV download",
    responses={
        200: {
            "description": "The schedule: JSON in the envelope, or with `format=csv` a CSV file without it",
            "content": {
                "application/json": {"model": Envelope[OfferGraph]},
                "text/csv": {"schema": {"type": "string"}},
            },
        },
        **NOT_FOUND,
    },
)
def get_payments_special_offers_graph(
    *,
    carId: QueryId,
    modificationId: QueryId,
    offerId: QueryId,
    format: GraphFormat = "json",
    expires: LinkExpires = None,
    signature: LinkSignature = None,
) -> Response[Envelope[OfferGraph] | str]:
    # `expires` and `signature` are the `file` link's: the gate checked them (edge.links).
    graph = special_offers.graph(
        carId, modificationId, offerId, format, api_base=api_base_url(app.current_event), locale=context.locale()
    )
    # The CSV download is sent as it is; the schedule as data goes in the envelope.
    answer: Response[Any] = graph if isinstance(graph, Response) else responses.ok(graph)
    return answer


@app.get(
    "/api/v2/payments/types",
    operation_id="listPaymentTypes",
    middlewares=[JWT],
    summary="How a modification can be bought",
    responses=NOT_FOUND,
)
def get_payments_types(modificationId: QueryId, brandId: QueryId) -> Response[Envelope[Page[PaymentTypeItem]]]:
    return responses.ok(service.payment_types(modificationId, brandId, locale=context.locale()))


@app.get(
    "/api/v2/payments/banks",
    operation_id="listBankOffers",
    middlewares=[PUBLIC],
    summary="Credit chain 1/6: the banks' offers for a modification",
    responses=NOT_FOUND,
)
def get_payments_banks(
    brandId: QueryId, carId: QueryId, modificationId: QueryId
) -> Response[Envelope[Page[BankOffer]]]:
    return responses.ok(bank_chain.banks(brandId, carId, modificationId, locale=context.locale()))


@app.get(
    "/api/v2/payments/banks/income-types",
    operation_id="listIncomeTypes",
    middlewares=[PUBLIC],
    summary="Credit chain 2/6: the income types a bank offer accepts",
    responses=NOT_FOUND,
)
def get_payments_banks_income_types(bankId: QueryId) -> Response[Envelope[Page[IncomeType]]]:
    return responses.ok(bank_chain.income_types(offer_id=bankId, locale=context.locale()))


@app.get(
    "/api/v2/payments/banks/initial-payment",
    operation_id="listInitialPayments",
    middlewares=[PUBLIC],
    summary="Credit chain 3/6: the initial payments for an income type",
    responses=NOT_FOUND,
)
def get_payments_banks_initial_payment(incomeTypeId: QueryId) -> Response[Envelope[Page[InitialPayment]]]:
    return responses.ok(bank_chain.initial_payments(incomeTypeId))


@app.get(
    "/api/v2/payments/banks/loan-terms",
    operation_id="listLoanTerms",
    middlewares=[PUBLIC],
    summary="Credit chain 4/6: the loan terms for an initial payment, with their rates",
    responses=NOT_FOUND,
)
def get_payments_banks_loan_terms(initialPaymentId: QueryId) -> Response[Envelope[Page[LoanTerm]]]:
    return responses.ok(bank_chain.loan_terms(initialPaymentId, locale=context.locale()))


@app.get(
    "/api/v2/payments/banks/refund-types",
    operation_id="listRefundTypes",
    middlewares=[PUBLIC],
    summary="Credit chain 5/6: the refund types for a loan term",
    responses=NOT_FOUND,
)
def get_payments_banks_refund_types(loanTermId: QueryId) -> Response[Envelope[Page[RefundTypeItem]]]:
    return responses.ok(bank_chain.refund_types(loanTermId, locale=context.locale()))


@app.get(
    "/api/v2/payments/banks/calculate",
    operation_id="calculateBankCredit",
    middlewares=[PUBLIC],
    summary="Credit chain 6/6: the credit with its schedule, at the current price",
    responses=NOT_FOUND,
)
def get_payments_banks_calculate(
    bankId: QueryId, incomeTypeId: QueryId, initialPaymentId: QueryId, loanTermId: QueryId, refundTypeId: QueryId
) -> Response[Envelope[CreditCalculation]]:
    return responses.ok(
        bank_chain.calculate(
            offer_id=bankId,
            income_type_id=incomeTypeId,
            initial_payment_id=initialPaymentId,
            loan_term_id=loanTermId,
            refund_type_id=refundTypeId,
            locale=context.locale(),
        )
    )


lambda_handler = lambda_entry(app)
