"""Transactions function: card payment by OTP."""

from __future__ import annotations

from common.access import JWT
from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.get("/api/v1/transactions/check-card", middlewares=[JWT])
def get_transactions_check_card():
    raise NotImplementedYet()


@app.post("/api/v1/transactions/create", middlewares=[JWT])
def post_transactions_create():
    raise NotImplementedYet()


@app.post("/api/v1/transactions/apply", middlewares=[JWT])
def post_transactions_apply():
    raise NotImplementedYet()


@app.post("/api/v1/transactions/resend-code", middlewares=[JWT])
def post_transactions_resend_code():
    raise NotImplementedYet()


@app.get("/api/v1/transactions/history", middlewares=[JWT])
def get_transactions_history():
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
