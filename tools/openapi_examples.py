"""Examples and links of the OpenAPI document, built from the seeded demo data (`make run` serves it).

Every id here is one the seed writes (`local.seed` ids are stable), so Swagger UI's "Try it out"
against `make run` finds what it asks for: the demo user (+998901234567), the first car of the catalog
that a branch has in stock, the demo orders, a credit chain of the first bank, the sandbox card and
its code (666666).
"""

from __future__ import annotations

from typing import Any

from domain.financing.store import offer_id
from local.seed import catalog, financing
from local.seed.core import DEMO_USER_PHONE
from local.seed.dealers_data import BRANCHES
from local.seed.orders import DEMO_NEW_ORDER_ID

SANDBOX_CARD = "8600 4954 7331 6478"  # domain.payments.sandbox.PAYS_UZCARD
SANDBOX_OTP = "666666"
SANDBOX_EXPIRY = "12/30"


def _demo_purchase() -> dict[str, Any]:
    """The car, modification, color and branch the seed's demo order is placed for: the first car by
    slug that a branch of its brand has in stock (as local.seed.orders picks it)."""
    cars = {car["_id"]: car for car in catalog.car_docs()}
    branches = {catalog.branch_id(branch.slug): catalog.branch_doc(branch) for branch in BRANCHES}
    for car in sorted(cars.values(), key=lambda doc: doc["slug"]):
        for stock in sorted(catalog.stock_docs(), key=lambda doc: doc["_id"]):
            branch = branches.get(stock["branchId"])
            if (
                stock["carId"] == car["_id"]
                and stock["quantity"] > 0
                and branch
                and car["brandId"] in branch["brandIds"]
            ):
                modification = next(m for m in car["modifications"] if m["_id"] == stock["modificationId"])
                return {"car": car, "modification": modification, "colorId": stock["colorId"], "branch": branch}
    raise LookupError("the seed stocks no car")


PURCHASE = _demo_purchase()
CAR = PURCHASE["car"]
BRAND = next(brand for brand in catalog.BRANDS if catalog.brand_id(brand.slug) == CAR["brandId"])
BRAND_SLUG = BRAND.slug
BANK = financing.BANKS[0]
INCOME = BANK.income_types[0]
PERCENT = BANK.initial_percents[0]
MONTHS = BANK.terms[0]
REFUND = BANK.refund_types[0]
LEASING = financing.LEASING_COMPANIES[0]


def _credit(*path: object) -> str:
    return str(financing.credit_node_id(BANK.slug, BRAND_SLUG, *path))


def _leasing(*path: object) -> str:
    return str(financing.leasing_program_id(LEASING.slug, BRAND_SLUG, *path))


# The `{id}` of each path.
PATH_ID_EXAMPLES: dict[str, str] = {
    "/api/v1/cars/{id}": str(CAR["_id"]),
    "/api/v1/cars/{id}/info": str(CAR["_id"]),
    "/api/v1/cars/{id}/modifications": str(CAR["_id"]),
    "/api/v1/saved-cars/{id}": str(CAR["_id"]),
    "/api/v1/brands/{id}": str(CAR["brandId"]),
    "/api/v1/orders/{id}": str(DEMO_NEW_ORDER_ID),
    "/api/v1/dictionaries/branch/{id}": str(PURCHASE["branch"]["_id"]),
}

# Query parameters, by name.
PARAMETER_EXAMPLES: dict[str, Any] = {
    "expires": 1767225600,
    "signature": "9b1f0c2e7d3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
    "brandId": str(CAR["brandId"]),
    "brands": str(CAR["brandId"]),
    "bodyTypes": str(CAR["bodyTypeId"]),
    "min": 100_000_000,
    "max": 500_000_000,
    "carId": str(CAR["_id"]),
    "modificationId": str(PURCHASE["modification"]["_id"]),
    "colorId": str(PURCHASE["colorId"]),
    "orderId": str(DEMO_NEW_ORDER_ID),
    # A bank's offer for the car's modification (what GET /api/v2/payments/banks lists; the seed stores it)
    "bankId": str(offer_id(financing.credit_product_id(BANK.slug, BRAND_SLUG), PURCHASE["modification"]["_id"])),
    "organizationId": str(financing.organization_id(LEASING.slug)),
    "incomeTypeId": _credit(INCOME),
    "initialPaymentId": _credit(INCOME, PERCENT),
    "loanTermId": _credit(INCOME, PERCENT, MONTHS),
    "refundTypeId": _credit(INCOME, PERCENT, MONTHS, REFUND),
    "offerId": str(financing.special_offer_id("BANK", CAR["slug"])),
    "slug": "CREDIT",
    "paymentTypeId": "INSTALLMENT",
    "cardNumber": SANDBOX_CARD,
    "limit": 10,
    "offset": 0,
}

# Query parameters whose example depends on the route: a search finds something of what the route lists.
ROUTE_PARAMETER_EXAMPLES: dict[tuple[str, str], Any] = {
    ("/api/v1/cars", "search"): CAR["name"]["en"].lower(),
    ("/api/v1/brands", "search"): BRAND.name.lower(),
}

ORDER_BODY = {
    "carId": str(CAR["_id"]),
    "modificationId": str(PURCHASE["modification"]["_id"]),
    "colorId": str(PURCHASE["colorId"]),
    "regionId": str(PURCHASE["branch"]["regionId"]),
    "branchId": str(PURCHASE["branch"]["_id"]),
    "paymentTypeId": "CASH",
    "price": PURCHASE["modification"]["price"],
}

# A credit order of the same car: the offer /api/v2/payments/banks gives for it (by the first bank) and
# one path of that bank's chain.
CREDIT_ORDER_BODY = {
    **ORDER_BODY,
    "paymentTypeId": "CREDIT",
    "credit": {
        "bankId": str(offer_id(financing.credit_product_id(BANK.slug, BRAND_SLUG), PURCHASE["modification"]["_id"])),
        "incomeTypeId": _credit(INCOME),
        "initialPaymentId": _credit(INCOME, PERCENT),
        "loanTermId": _credit(INCOME, PERCENT, MONTHS),
        "refundTypeId": _credit(INCOME, PERCENT, MONTHS, REFUND),
    },
}
LEASING_ORDER_BODY = {
    **ORDER_BODY,
    "paymentTypeId": "LEASING",
    "leasing": {
        "leasingId": _leasing(),
        "loanTermId": _leasing("term", LEASING.terms[0]),
        "initialPaymentId": _leasing("initial", LEASING.initial_percents[0]),
    },
}
INSTALLMENT_ORDER_BODY = {
    **ORDER_BODY,
    "paymentTypeId": "INSTALLMENT",
    "installment": {
        "planId": str(financing.installment_plan_id(BRAND_SLUG)),
        "initialPercent": financing.INSTALLMENT_ROWS[0][0],
        "months": financing.INSTALLMENT_TERMS[-1],
    },
}

# Request bodies with several examples (summary, body), by operation.
NAMED_BODY_EXAMPLES: dict[tuple[str, str], dict[str, tuple[str, Any]]] = {
    ("POST", "/api/v1/orders"): {
        "cash": ("Paid in full by card", ORDER_BODY),
        "credit": ("On credit: the bank chain's choices", CREDIT_ORDER_BODY),
        "leasing": ("On leasing: a program's term and initial payment", LEASING_ORDER_BODY),
        "installment": ("By installments: a cell of the plan's matrix", INSTALLMENT_ORDER_BODY),
    },
}

# Request bodies, by operation.
BODY_EXAMPLES: dict[tuple[str, str], Any] = {
    ("POST", "/api/v1/auth/login"): {"phone": DEMO_USER_PHONE},
    ("POST", "/api/v1/auth/refresh-token"): {"token": "<refreshToken from POST /api/v1/auth/login>"},
    ("POST", "/api/v1/users/limit"): {"code": "sandbox-verified"},  # the sandbox provider's code
    ("POST", "/api/v1/orders"): ORDER_BODY,
    ("POST", "/api/v1/orders/apply-promo-code"): {"code": "WELCOME10"},
    ("POST", "/api/v1/payments/leasing/calculate"): {
        "leasingId": _leasing(),
        "carId": str(CAR["_id"]),
        "modificationId": str(PURCHASE["modification"]["_id"]),
        "loanTermId": _leasing("term", LEASING.terms[0]),
        "initialPaymentId": _leasing("initial", LEASING.initial_percents[0]),
        "price": PURCHASE["modification"]["price"],
    },
    ("POST", "/api/v1/transactions/create"): {
        "amount": PURCHASE["modification"]["price"],
        "cardNumber": SANDBOX_CARD,
        "expiry": SANDBOX_EXPIRY,
        "cardType": "UZCARD",
        "brandId": str(CAR["brandId"]),
        "orderId": str(DEMO_NEW_ORDER_ID),
    },
    ("POST", "/api/v1/transactions/apply"): {
        "transactionId": 1,
        "otp": SANDBOX_OTP,
        "amount": PURCHASE["modification"]["price"],
        "brandId": str(CAR["brandId"]),
        "orderId": str(DEMO_NEW_ORDER_ID),
    },
    ("POST", "/api/v1/transactions/resend-code"): {
        "amount": PURCHASE["modification"]["price"],
        "cardNumber": SANDBOX_CARD,
    },
}


def _link(target: tuple[str, str], description: str, **fields: Any) -> dict[str, Any]:
    return {"target": target, "description": description, **fields}


def _first(name: str) -> str:
    return f"$response.body#/data/items/0/{name}"


# Links between operations (the response of one feeds the next), by operation: what a client does
# next, and what schemathesis' stateful phase follows. `target` becomes the operationId.
LINKS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("POST", "/api/v1/auth/login"): {
        "Profile": _link(
            ("GET", "/api/v1/auth/me"),
            "The signed-in user's profile, with the access token",
            parameters={"header.Authorization": "Bearer {$response.body#/data/accessToken}"},
        ),
        "Refresh": _link(
            ("POST", "/api/v1/auth/refresh-token"),
            "A new token pair for the refresh token",
            requestBody={"token": "$response.body#/data/refreshToken"},
        ),
    },
    ("POST", "/api/v1/orders"): {
        "Order": _link(("GET", "/api/v1/orders/{id}"), "The order", parameters={"path.id": "$response.body#/data/_id"}),
        "Steps": _link(
            ("GET", "/api/v1/order-logs/steps"),
            "The order's timeline",
            parameters={"query.orderId": "$response.body#/data/_id"},
        ),
        "History": _link(
            ("GET", "/api/v1/transactions/history"),
            "The order's payments",
            parameters={"query.orderId": "$response.body#/data/_id"},
        ),
    },
    ("POST", "/api/v1/transactions/create"): {
        "Apply": _link(
            ("POST", "/api/v1/transactions/apply"),
            "Confirm the payment with the code sent to the card holder (sandbox: 666666)",
            requestBody={
                "transactionId": "$response.body#/data/transactionId",
                "otp": SANDBOX_OTP,
                "amount": "$request.body#/amount",
                "brandId": "$request.body#/brandId",
                "orderId": "$request.body#/orderId",
            },
        ),
        "Resend": _link(
            ("POST", "/api/v1/transactions/resend-code"),
            "Send the code again",
            requestBody={"amount": "$request.body#/amount", "cardNumber": "$request.body#/cardNumber"},
        ),
    },
    ("GET", "/api/v2/payments/banks"): {
        "IncomeTypes": _link(
            ("GET", "/api/v2/payments/banks/income-types"),
            "The income types the first bank accepts",
            parameters={"query.bankId": _first("_id")},
        ),
    },
    ("GET", "/api/v2/payments/banks/income-types"): {
        "InitialPayments": _link(
            ("GET", "/api/v2/payments/banks/initial-payment"),
            "The initial payments of the first income type",
            parameters={"query.incomeTypeId": _first("_id")},
        ),
    },
    ("GET", "/api/v2/payments/banks/initial-payment"): {
        "LoanTerms": _link(
            ("GET", "/api/v2/payments/banks/loan-terms"),
            "The loan terms of the first initial payment",
            parameters={"query.initialPaymentId": _first("_id")},
        ),
    },
    ("GET", "/api/v2/payments/banks/loan-terms"): {
        "RefundTypes": _link(
            ("GET", "/api/v2/payments/banks/refund-types"),
            "The refund types of the first loan term",
            parameters={"query.loanTermId": _first("_id")},
        ),
    },
    ("GET", "/api/v1/cars"): {
        "Car": _link(("GET", "/api/v1/cars/{id}"), "The first car", parameters={"path.id": _first("_id")}),
    },
    ("GET", "/api/v1/cars/{id}"): {
        "Banks": _link(
            ("GET", "/api/v2/payments/banks"),
            "Credit chain 1/6 for the car's first modification",
            parameters={
                "query.brandId": "$response.body#/data/brand/_id",
                "query.carId": "$response.body#/data/_id",
                "query.modificationId": "$response.body#/data/modifications/0/_id",
            },
        ),
        "PaymentTypes": _link(
            ("GET", "/api/v2/payments/types"),
            "How the car's first modification can be bought",
            parameters={
                "query.brandId": "$response.body#/data/brand/_id",
                "query.modificationId": "$response.body#/data/modifications/0/_id",
            },
        ),
        "Regions": _link(
            ("GET", "/api/v1/dictionaries/branch/regions"),
            "Where the first modification in the first color can be bought",
            parameters={
                "query.brandId": "$response.body#/data/brand/_id",
                "query.carId": "$response.body#/data/_id",
                "query.modificationId": "$response.body#/data/modifications/0/_id",
                "query.colorId": "$response.body#/data/colors/0/_id",
            },
        ),
        "Modifications": _link(
            ("GET", "/api/v1/cars/{id}/modifications"),
            "The car's modifications with their specifications",
            parameters={"path.id": "$response.body#/data/_id"},
        ),
    },
    ("GET", "/api/v1/orders"): {
        "Order": _link(("GET", "/api/v1/orders/{id}"), "The newest order", parameters={"path.id": _first("_id")}),
    },
    ("GET", "/api/v1/brands"): {
        "Brand": _link(("GET", "/api/v1/brands/{id}"), "The first brand", parameters={"path.id": _first("_id")}),
    },
}
