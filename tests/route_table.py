"""The routes of the interface (docs/INTERFACE.md) with their function and access level: the contract
that the template, the resolvers, the access policies and the docs are each checked against."""

from __future__ import annotations

from typing import NamedTuple


class Route(NamedTuple):
    method: str
    path: str
    function: str
    access: str  # "public" | "jwt" | "optional_jwt"


ROUTES = [
    Route("POST", "/api/v1/auth/refresh-token", "Auth", "public"),
    Route("POST", "/api/v1/auth/login", "Auth", "public"),
    Route("GET", "/api/v1/auth/me", "Auth", "jwt"),
    Route("POST", "/api/v1/users/limit", "Auth", "jwt"),
    Route("POST", "/api/v1/users/limit/myid-session", "Auth", "jwt"),
    Route("POST", "/api/v1/orders", "Orders", "jwt"),
    Route("GET", "/api/v1/orders", "Orders", "jwt"),
    Route("POST", "/api/v1/orders/apply-promo-code", "Orders", "jwt"),
    Route("GET", "/api/v1/orders/{id}", "Orders", "jwt"),
    Route("GET", "/api/v1/order-logs/steps", "Orders", "jwt"),
    Route("GET", "/api/v1/payments/organizations", "Payments", "jwt"),
    Route("GET", "/api/v1/payments/installment", "Payments", "jwt"),
    Route("GET", "/api/v1/payments/leasing", "Payments", "jwt"),
    Route("POST", "/api/v1/payments/leasing/calculate", "Payments", "jwt"),
    Route("GET", "/api/v1/payments/special-offers", "Payments", "jwt"),
    Route("GET", "/api/v1/payments/special-offers/leasing", "Payments", "jwt"),
    Route("GET", "/api/v1/payments/special-offers/graph", "Payments", "jwt"),
    Route("GET", "/api/v2/payments/types", "Payments", "jwt"),
    Route("GET", "/api/v2/payments/banks", "Payments", "public"),
    Route("GET", "/api/v2/payments/banks/income-types", "Payments", "public"),
    Route("GET", "/api/v2/payments/banks/initial-payment", "Payments", "public"),
    Route("GET", "/api/v2/payments/banks/loan-terms", "Payments", "public"),
    Route("GET", "/api/v2/payments/banks/refund-types", "Payments", "public"),
    Route("GET", "/api/v2/payments/banks/calculate", "Payments", "public"),
    Route("GET", "/api/v1/transactions/check-card", "Transactions", "jwt"),
    Route("POST", "/api/v1/transactions/create", "Transactions", "jwt"),
    Route("POST", "/api/v1/transactions/apply", "Transactions", "jwt"),
    Route("POST", "/api/v1/transactions/resend-code", "Transactions", "jwt"),
    Route("GET", "/api/v1/transactions/history", "Transactions", "jwt"),
    Route("GET", "/api/v1/cars", "Catalog", "optional_jwt"),
    Route("GET", "/api/v1/cars/{id}", "Catalog", "optional_jwt"),
    Route("GET", "/api/v1/cars/{id}/info", "Catalog", "public"),
    Route("GET", "/api/v1/cars/{id}/modifications", "Catalog", "public"),
    Route("GET", "/api/v1/brands", "Catalog", "public"),
    Route("GET", "/api/v1/brands/{id}", "Catalog", "public"),
    Route("GET", "/api/v1/filters/bodies", "Catalog", "public"),
    Route("GET", "/api/v1/filters/powertrains", "Catalog", "public"),
    Route("GET", "/api/v1/filters/all", "Catalog", "public"),
    Route("GET", "/api/v1/saved-cars", "SavedCars", "public"),
    Route("PATCH", "/api/v1/saved-cars/{id}", "SavedCars", "public"),
    Route("POST", "/api/v1/sales/{carId}/entries", "Sales", "jwt"),
    Route("GET", "/api/v1/sales/{carId}/entries/me", "Sales", "jwt"),
    Route("GET", "/api/v1/dictionaries/branch/regions", "Dictionaries", "jwt"),
    Route("GET", "/api/v1/dictionaries/branch/{id}", "Dictionaries", "jwt"),
    Route("GET", "/api/v1/dictionaries/contacts", "Dictionaries", "public"),
    Route("GET", "/api/v1/dictionaries/checkout-document", "Dictionaries", "jwt"),
    Route("GET", "/api/v1/documents", "Dictionaries", "public"),
    Route("GET", "/api/v1/documents/offer", "Dictionaries", "public"),
    Route("GET", "/api/v1/documents/term-conditions", "Dictionaries", "public"),
]

FUNCTIONS = {
    "Auth": "auth",
    "Catalog": "catalog",
    "SavedCars": "saved_cars",
    "Sales": "sales",
    "Orders": "orders",
    "Payments": "payments",
    "Transactions": "transactions",
    "Dictionaries": "dictionaries",
}
