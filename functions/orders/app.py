"""Orders function: orders, promo codes, the order timeline."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from core.models import CountedPage, Page
from domain.identity import callers
from edge import context, responses, snapstart
from edge.access import JWT
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from edge.idempotency import IDEMPOTENT
from edge.validation import DEFAULT_PAGE_SIZE, Limit, MongoId, Offset
from orders import service
from orders.models import CreateOrderBody, Order, OrderItem, OrderStep, PromoCode, PromoCodeBody

app = create_app(callers=callers)


@app.post(
    "/api/v1/orders",
    operation_id="createOrder",
    middlewares=[JWT, IDEMPOTENT],
    status_code=201,
    summary="Place an order at the current price",
    description="The server checks the car, modification, color, branch and price against the catalog; "
    "`price` must equal the current price of the modification.",
    responses={
        404: {"description": "The car, modification, color, region, branch or promo code does not exist"},
        409: {"description": "The price has changed (`details.currentPrice`), or the promo code cannot be used"},
    },
)
def create_order(body: CreateOrderBody) -> Response[Envelope[Order]]:
    order = service.create_order(
        body, user_id=context.caller_id(), partner=context.current().partner, locale=context.locale()
    )
    return responses.created(order)


@app.get("/api/v1/orders", operation_id="listOrders", middlewares=[JWT], summary="The caller's orders, newest first")
def list_orders(limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0) -> Response[Envelope[CountedPage[OrderItem]]]:
    return responses.ok(
        service.list_orders(user_id=context.caller_id(), limit=limit, offset=offset, locale=context.locale())
    )


@app.post(
    "/api/v1/orders/apply-promo-code",
    operation_id="checkPromoCode",
    middlewares=[JWT],
    summary="Check a promo code before ordering",
    description="Says what the code gives; nothing is reserved until the order is placed.",
    responses={
        404: {"description": "No such promo code"},
        409: {"description": "The code has expired, is used up, or was already used by the caller"},
    },
)
def apply_promo_code(body: PromoCodeBody) -> Response[Envelope[PromoCode]]:
    return responses.ok(service.check_promo_code(body.code, user_id=context.caller_id()))


@app.get("/api/v1/orders/<id>", operation_id="getOrder", middlewares=[JWT], summary="One of the caller's orders")
def get_order(id: MongoId) -> Response[Envelope[Order]]:
    return responses.ok(service.get_order(id, user_id=context.caller_id(), locale=context.locale()))


@app.get(
    "/api/v1/order-logs/steps",
    operation_id="listOrderSteps",
    middlewares=[JWT],
    summary="The order's timeline, with the current step",
    responses={404: {"description": "No such order of the caller"}},
)
def order_steps(
    orderId: Annotated[MongoId, Query()], limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0
) -> Response[Envelope[Page[OrderStep]]]:
    steps = service.order_steps(
        orderId, user_id=context.caller_id(), locale=context.locale(), offset=offset, limit=limit
    )
    return responses.ok(steps)


# Placing an order is imported by the first order: before the snapshot instead.
snapstart.before_snapshot(service.warm_up)
lambda_handler = lambda_entry(app)
