"""Payments function: financing (bank credit chain, leasing, installments, special offers)."""

from __future__ import annotations

from common.access import JWT
from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.get("/api/v1/payments/organizations", middlewares=[JWT])
def get_payments_organizations():
    raise NotImplementedYet()


@app.get("/api/v1/payments/installment", middlewares=[JWT])
def get_payments_installment():
    raise NotImplementedYet()


@app.get("/api/v1/payments/leasing", middlewares=[JWT])
def get_payments_leasing():
    raise NotImplementedYet()


@app.post("/api/v1/payments/leasing/calculate", middlewares=[JWT])
def post_payments_leasing_calculate():
    raise NotImplementedYet()


@app.get("/api/v1/payments/special-offers", middlewares=[JWT])
def get_payments_special_offers():
    raise NotImplementedYet()


@app.get("/api/v1/payments/special-offers/leasing", middlewares=[JWT])
def get_payments_special_offers_leasing():
    raise NotImplementedYet()


@app.get("/api/v1/payments/special-offers/graph", middlewares=[JWT])
def get_payments_special_offers_graph():
    raise NotImplementedYet()


@app.get("/api/v2/payments/types", middlewares=[JWT])
def get_payments_types():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks")
def get_payments_banks():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks/income-types")
def get_payments_banks_income_types():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks/initial-payment")
def get_payments_banks_initial_payment():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks/loan-terms")
def get_payments_banks_loan_terms():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks/refund-types")
def get_payments_banks_refund_types():
    raise NotImplementedYet()


@app.get("/api/v2/payments/banks/calculate")
def get_payments_banks_calculate():
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
