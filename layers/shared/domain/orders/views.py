"""What a buyer sees of their orders: a page of them, one of them (404 unless it is theirs: another user's
order answers exactly like an unknown one), and its timeline in the caller's language, the steps of the
state machine (`domain.orders.lifecycle`) it has reached and those ahead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import NotFound
from core.locale import Locale
from data.mongo import FoundPage
from domain.orders import store
from domain.orders.records import OrderRecord
from domain.orders.states import HAPPY_PATH, OrderStatus

STEP_NAMES: dict[OrderStatus, dict[str, str]] = {
    OrderStatus.NEW: {"ru": "Заказ оформлен", "uz": "Buyurtma rasmiylashtirildi", "en": "Order placed"},
    OrderStatus.PARTIALLY_PAID: {"ru": "Частично оплачен", "uz": "Qisman to'langan", "en": "Partially paid"},
    OrderStatus.PAID: {"ru": "Оплачен", "uz": "To'langan", "en": "Paid"},
    OrderStatus.READY: {"ru": "Готов к выдаче", "uz": "Topshirishga tayyor", "en": "Ready for handover"},
    OrderStatus.IMPLEMENTED: {"ru": "Автомобиль выдан", "uz": "Avtomobil topshirildi", "en": "Car handed over"},
    OrderStatus.CANCELLED: {"ru": "Отменён", "uz": "Bekor qilingan", "en": "Cancelled"},
}


def owned(order_id: str, user_id: str) -> OrderRecord:
    order = store.find_order_of_user(order_id, user_id)
    if order is None:
        raise NotFound("ORDER_NOT_FOUND")
    return order


def orders_of_user(user_id: str, *, offset: int, limit: int) -> FoundPage[OrderRecord]:
    """A page of the user's orders, newest first (what a line of the list shows of each), and how many."""
    return store.orders_of_user(user_id, offset=offset, limit=limit)


def steps(order: Mapping[str, Any], locale: Locale) -> list[dict[str, Any]]:
    """The order's path with the current step marked: the happy path, or the path up to a cancellation.

    Each step says when it was reached (`at`, null for steps ahead). PARTIALLY_PAID is left out once an
    order has gone past it without stopping there (paid in full at once)."""
    reached: dict[str, Any] = {}
    for entry in store.order_log(order["_id"]):
        reached.setdefault(entry["to"], entry["at"])
    current = OrderStatus(order["statusSlug"])
    if current is OrderStatus.CANCELLED:
        path = [status for status in HAPPY_PATH if status.value in reached] + [OrderStatus.CANCELLED]
    else:
        path = list(HAPPY_PATH)
        skipped_partial = OrderStatus.PARTIALLY_PAID.value not in reached and HAPPY_PATH.index(current) > 1
        if skipped_partial:
            path.remove(OrderStatus.PARTIALLY_PAID)
    return [
        {
            "slug": status.value,
            "name": STEP_NAMES[status][locale],
            "isCurrent": status is current,
            "done": status.value in reached and status is not current,
            "at": reached.get(status.value),
        }
        for status in path
    ]
