"""An order's states and where its unit of stock is: the names the orders' modules share, apart from the
state machine that moves an order between them (`domain.orders.lifecycle`).

    NEW -> PARTIALLY_PAID -> PAID -> READY -> IMPLEMENTED
    NEW | PARTIALLY_PAID | PAID -> CANCELLED
"""

from enum import StrEnum


class OrderStatus(StrEnum):
    NEW = "NEW"
    PARTIALLY_PAID = "PARTIALLY_PAID"
    PAID = "PAID"
    READY = "READY"
    IMPLEMENTED = "IMPLEMENTED"
    CANCELLED = "CANCELLED"


class StockHold(StrEnum):
    """Where the unit of stock an order took is (`stockHold`; orders placed before holds have none)."""

    HELD = "HELD"  # taken from the branch's stock for this order
    RETURNED = "RETURNED"  # the order was cancelled: back in the branch's stock
    SOLD = "SOLD"  # the car was handed over (IMPLEMENTED)


HAPPY_PATH = (OrderStatus.NEW, OrderStatus.PARTIALLY_PAID, OrderStatus.PAID, OrderStatus.READY, OrderStatus.IMPLEMENTED)
# Orders that hold a car without having paid what is due now: they take payments, and expire when late
# (`domain.orders.holds`).
UNPAID = frozenset({OrderStatus.NEW, OrderStatus.PARTIALLY_PAID})
UNPAID_VALUES = sorted(status.value for status in UNPAID)
