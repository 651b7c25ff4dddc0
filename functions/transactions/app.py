"""Transactions function: card payment by OTP (check-card, create, resend-code, apply, history)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from pydantic import SecretStr

from core.models import CountedPage
from domain.identity import callers
from domain.payments.cards import CARD_NUMBER_PATTERN
from edge import context, responses
from edge.access import JWT
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from edge.idempotency import IDEMPOTENT
from edge.validation import Limit, MongoId, Offset
from transactions import service
from transactions.models import (
    CARD_ENTRY,
    AppliedPayment,
    ApplyBody,
    CardCheck,
    CreateBody,
    HistoryItem,
    ResendBody,
    TransactionRef,
)

CONFLICT: dict[int, OpenAPIResponse] = {
    404: {"description": "No such order (or transaction) of the caller"},
    409: {"description": "The order is not payable, the amount is more than is due, or the transaction is closed"},
}

app = create_app(callers=callers)
# Every payment of any real order (installments run up to 36 months) on the first page, as before paging.
HISTORY_PAGE_SIZE = 50


@app.get(
    "/api/v1/transactions/check-card",
    operation_id="checkCard",
    middlewares=[JWT],
    summary="Which network a card number belongs to",
    responses={400: {"description": "Not a valid card number (length, digits, Luhn check, unknown network)"}},
)
def check_card(
    cardNumber: Annotated[
        SecretStr,
        Query(
            max_length=40,
            description="16 digits, single spaces allowed between them, the last the Luhn check digit",
            json_schema_extra={"pattern": CARD_NUMBER_PATTERN, "format": "card-number"},
        ),
    ],
) -> Response[Envelope[CardCheck]]:
    # SecretStr: Powertools logs a handler's arguments at DEBUG, and a card number must never be logged.
    return responses.ok(service.check_card(cardNumber.get_secret_value()))


@app.post(
    "/api/v1/transactions/create",
    operation_id="createCardPayment",
    middlewares=[JWT, IDEMPOTENT],
    summary="Start a card payment: the processor sends a code to the card holder",
    description=CARD_ENTRY + " The answer says how long the code is valid (`codeValidSeconds`, `codeExpiresAt`). "
    "Sandbox: test card 8600 4954 7331 6478, any future expiry, or any card token; code 666666.",
    responses=CONFLICT,
)
def create(body: CreateBody) -> Response[Envelope[TransactionRef]]:
    return responses.ok(service.create(context.caller_id(), body))


@app.post(
    "/api/v1/transactions/apply",
    operation_id="confirmCardPayment",
    middlewares=[JWT, IDEMPOTENT],
    summary="Confirm a card payment with the code",
    description="`amount`, `brandId` and `orderId` must be those of the transaction. Sandbox code: 666666.",
    responses={**CONFLICT, 400: {"description": "Wrong code (`details.attemptsLeft`), or the fields do not match"}},
)
def apply(body: ApplyBody) -> Response[Envelope[AppliedPayment]]:
    return responses.ok(service.apply(context.caller_id(), body))


@app.post(
    "/api/v1/transactions/resend-code",
    operation_id="resendPaymentCode",
    middlewares=[JWT, IDEMPOTENT],
    summary="Send the code of a pending payment again",
    description="The card as create was given it: `cardNumber`, or `cardToken`. The answer says how long the new "
    "code is valid.",
    responses={**CONFLICT, 429: {"description": "Too soon or too many resends; `Retry-After` says when"}},
)
def resend_code(body: ResendBody) -> Response[Envelope[TransactionRef]]:
    return responses.ok(service.resend(context.caller_id(), body))


@app.get(
    "/api/v1/transactions/history",
    operation_id="listCardPayments",
    middlewares=[JWT],
    summary="The payments of one of the caller's orders",
    responses={404: {"description": "No such order of the caller"}},
)
def history(
    orderId: Annotated[MongoId, Query(description="the order's id")],
    limit: Limit = HISTORY_PAGE_SIZE,
    offset: Offset = 0,
) -> Response[Envelope[CountedPage[HistoryItem]]]:
    return responses.ok(service.history(context.caller_id(), orderId, offset=offset, limit=limit))


lambda_handler = lambda_entry(app)
