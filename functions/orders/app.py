"""Orders function: orders, promo codes, the order timeline."""

from __future__ import annotations

from common.access import JWT
from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.post("/api/v1/orders", middlewares=[JWT])
def post_orders():
    raise NotImplementedYet()


@app.get("/api/v1/orders", middlewares=[JWT])
def get_orders():
    raise NotImplementedYet()


@app.post("/api/v1/orders/apply-promo-code", middlewares=[JWT])
def post_orders_apply_promo_code():
    raise NotImplementedYet()


@app.get("/api/v1/orders/<id>", middlewares=[JWT])
def get_orders_by_id(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/order-logs/steps", middlewares=[JWT])
def get_order_logs_steps():
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
