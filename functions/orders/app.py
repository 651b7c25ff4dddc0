"""Orders function: orders, promo codes, the order timeline."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query

from common import context, responses
from common.access import JWT
from common.app import create_app, lambda_entry
from common.idempotency import IDEMPOTENT
from common.validation import DEFAULT_PAGE_SIZE, Limit, MongoId, Offset
from orders import service
from orders.models import CreateOrderBody, PromoCodeBody

app = create_app()


@app.post("/api/v1/orders", middlewares=[JWT, IDEMPOTENT])
def create_order(body: CreateOrderBody):
    order = service.create_order(body, user_id=context.caller_id(), locale=context.locale())
    return responses.created(order)


@app.get("/api/v1/orders", middlewares=[JWT])
def list_orders(limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0):
    return responses.ok(
        service.list_orders(user_id=context.caller_id(), limit=limit, offset=offset, locale=context.locale())
    )


@app.post("/api/v1/orders/apply-promo-code", middlewares=[JWT])
def apply_promo_code(body: PromoCodeBody):
    return responses.ok(service.check_promo_code(body.code, user_id=context.caller_id()))


@app.get("/api/v1/orders/<id>", middlewares=[JWT])
def get_order(id: MongoId):
    return responses.ok(service.get_order(id, user_id=context.caller_id(), locale=context.locale()))


@app.get("/api/v1/order-logs/steps", middlewares=[JWT])
def order_steps(orderId: Annotated[MongoId, Query()]):
    return responses.ok(service.order_steps(orderId, user_id=context.caller_id(), locale=context.locale()))


lambda_handler = lambda_entry(app)
