"""Payments function: financing (bank credit chain, leasing, installments, special offers)."""

from __future__ import annotations

from common import responses
from common.access import JWT
from common.app import create_app, lambda_entry
from common.assets import api_base_url
from common.enums import PaymentType
from payments import bank_chain, installments, leasing, service, special_offers
from payments.models import GraphFormat, LeasingCalculateBody, QueryId

app = create_app()


@app.get("/api/v1/payments/organizations", middlewares=[JWT])
def get_payments_organizations(brandId: QueryId, slug: PaymentType):
    return responses.ok(service.organizations(brandId, slug))


@app.get("/api/v1/payments/installment", middlewares=[JWT])
def get_payments_installment(brandId: QueryId, paymentTypeId: PaymentType, modificationId: QueryId):
    return responses.ok(installments.matrix(brandId, paymentTypeId, modificationId))


@app.get("/api/v1/payments/leasing", middlewares=[JWT])
def get_payments_leasing(brandId: QueryId, organizationId: QueryId):
    return responses.ok(leasing.programs(brandId, organizationId))


@app.post("/api/v1/payments/leasing/calculate", middlewares=[JWT])
def post_payments_leasing_calculate(body: LeasingCalculateBody):
    return responses.ok(leasing.calculate(body))


@app.get("/api/v1/payments/special-offers", middlewares=[JWT])
def get_payments_special_offers(carId: QueryId, modificationId: QueryId):
    return responses.ok(special_offers.offers(carId, modificationId, special_offers.BANK))


@app.get("/api/v1/payments/special-offers/leasing", middlewares=[JWT])
def get_payments_special_offers_leasing(carId: QueryId, modificationId: QueryId):
    return responses.ok(special_offers.offers(carId, modificationId, special_offers.LEASING))


@app.get("/api/v1/payments/special-offers/graph", middlewares=[JWT])
def get_payments_special_offers_graph(
    carId: QueryId, modificationId: QueryId, offerId: QueryId, format: GraphFormat = "json"
):
    result = special_offers.graph(carId, modificationId, offerId, format, api_base=api_base_url(app.current_event))
    return result if isinstance(result, responses.Response) else responses.ok(result)


@app.get("/api/v2/payments/types", middlewares=[JWT])
def get_payments_types(modificationId: QueryId, brandId: QueryId):
    return responses.ok(service.payment_types(modificationId, brandId))


@app.get("/api/v2/payments/banks")
def get_payments_banks(brandId: QueryId, carId: QueryId, modificationId: QueryId):
    return responses.ok(bank_chain.banks(brandId, carId, modificationId))


@app.get("/api/v2/payments/banks/income-types")
def get_payments_banks_income_types(bankId: QueryId):
    return responses.ok(bank_chain.income_types(bankId))


@app.get("/api/v2/payments/banks/initial-payment")
def get_payments_banks_initial_payment(incomeTypeId: QueryId):
    return responses.ok(bank_chain.initial_payments(incomeTypeId))


@app.get("/api/v2/payments/banks/loan-terms")
def get_payments_banks_loan_terms(initialPaymentId: QueryId):
    return responses.ok(bank_chain.loan_terms(initialPaymentId))


@app.get("/api/v2/payments/banks/refund-types")
def get_payments_banks_refund_types(loanTermId: QueryId):
    return responses.ok(bank_chain.refund_types(loanTermId))


@app.get("/api/v2/payments/banks/calculate")
def get_payments_banks_calculate(
    bankId: QueryId, incomeTypeId: QueryId, initialPaymentId: QueryId, loanTermId: QueryId, refundTypeId: QueryId
):
    return responses.ok(bank_chain.calculate(bankId, incomeTypeId, initialPaymentId, loanTermId, refundTypeId))


lambda_handler = lambda_entry(app)
