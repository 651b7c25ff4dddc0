"""Transactions function: card payment by OTP (check-card, create, resend-code, apply, history)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import SecretStr

from common import context, responses
from common.access import JWT
from common.app import create_app, lambda_entry
from common.idempotency import IDEMPOTENT
from common.validation import MongoId
from transactions import service
from transactions.models import ApplyBody, CreateBody, ResendBody

app = create_app()


@app.get("/api/v1/transactions/check-card", middlewares=[JWT])
def check_card(cardNumber: Annotated[SecretStr, Query(max_length=40, description="16 digits, spaces allowed")]):
    # SecretStr: Powertools logs a handler's arguments at DEBUG, and a card number must never be logged.
    return responses.ok(service.check_card(cardNumber.get_secret_value()))


@app.post("/api/v1/transactions/create", middlewares=[JWT, IDEMPOTENT])
def create(body: CreateBody):
    return responses.ok(service.create(context.caller_id(), body))


@app.post("/api/v1/transactions/apply", middlewares=[JWT, IDEMPOTENT])
def apply(body: ApplyBody):
    return responses.ok(service.apply(context.caller_id(), body))


@app.post("/api/v1/transactions/resend-code", middlewares=[JWT, IDEMPOTENT])
def resend_code(body: ResendBody):
    return responses.ok(service.resend(context.caller_id(), body))


@app.get("/api/v1/transactions/history", middlewares=[JWT])
def history(orderId: Annotated[MongoId, Query(description="the order's id")]):
    return responses.ok(service.history(context.caller_id(), orderId))


lambda_handler = lambda_entry(app)
