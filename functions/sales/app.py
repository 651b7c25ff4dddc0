"""Sales function: a person's entry in a car's fair opening (registration, their place). The place and
the pace everyone polls are files served from the edge (`/sales/{carId}/status.json`), not routes."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from domain.identity import callers
from edge import context, responses
from edge.access import JWT
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from edge.validation import MongoId
from sales import service
from sales.models import MySaleQueueEntry, SaleQueueEntry

app = create_app(callers=callers)


@app.post(
    "/api/v1/sales/<carId>/entries",
    operation_id="enterSaleQueue",
    middlewares=[JWT],
    status_code=201,
    summary="Register for a car's opening: one entry per person, ordered by a draw at the sale's start",
    description="One entry per person (the verified PINFL, else the account). Entries registered before the "
    "sale's start are ordered by a draw anyone can check (docs: Sale queues); later ones follow in arrival "
    "order. The place and the pace are polled at `/sales/{carId}/status.json`, served from the edge.",
    responses={
        404: {"description": "The car's sale has no queue"},
        409: {"description": "Registration has not opened, the person has an entry, or may not buy more of the car"},
    },
)
def enter_sale_queue(carId: MongoId) -> Response[Envelope[SaleQueueEntry]]:
    return responses.created(service.register(carId, user_id=context.caller_id()))


@app.get(
    "/api/v1/sales/<carId>/entries/me",
    operation_id="getMySaleEntry",
    middlewares=[JWT],
    summary="The caller's entry in a car's opening: their place, and until when they may order",
    responses={404: {"description": "The car's sale has no queue, or the caller has no entry"}},
)
def get_my_sale_entry(carId: MongoId) -> Response[Envelope[MySaleQueueEntry]]:
    return responses.ok(service.my_entry(carId, user_id=context.caller_id()))


lambda_handler = lambda_entry(app)
