"""What the OpenAPI document cannot learn from a route's code: the success status, the shape of `data`
and the route's own error statuses, from docs/INTERFACE.md.

A route that declares these itself (`responses={201: {...}}`, `status_code=201` or a return annotation
on its decorator) wins over this table; `ops.openapi` reads the route first. A key that is not a route
of the template fails the generator, so this table cannot outlive a renamed route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

JSON = "application/json"


class Data(BaseModel):
    """A `data` shape: the fields the contract shows; more fields are welcome, so none are forbidden."""

    model_config = ConfigDict(populate_by_name=True)


class Named(Data):
    id: str = Field(alias="_id")
    name: str


class TokenPair(Data):
    accessToken: str = Field(examples=["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…"])
    refreshToken: str = Field(examples=["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…"])


class Profile(Data):
    id: str = Field(alias="_id", examples=["665f1c2e9b1e8a3d4c5b6a79"])
    firstName: str = Field(examples=["Aziz"])
    lastName: str = Field(examples=["Karimov"])
    phone: str | None = Field(examples=["+998901234567"])
    balance: float = Field(examples=[0])


class OrderCreated(Data):
    id: str = Field(alias="_id")
    price: float
    brandId: str


class OrderSummary(Data):
    contractNumber: str
    statusSlug: str


class OrderStep(Data):
    slug: str
    isCurrent: bool


class PromoDetails(Data):
    code: str
    discount: float


class LeasingCalculation(Data):
    monthlyPayment: float
    totalCarPrice: float


class LoanTerm(Data):
    id: str = Field(alias="_id")
    months: int


class InitialPayment(Data):
    id: str = Field(alias="_id")
    percent: float


class LeasingProgram(Named):
    loanTerms: list[LoanTerm]
    initialPayments: list[InitialPayment]


class PaymentType(Data):
    slug: Literal["CASH", "CREDIT", "LEASING", "INSTALLMENT"]
    name: str


class ScheduleRow(Data):
    month: int
    payment: float
    principal: float
    interest: float
    balance: float


class CreditCalculation(Data):
    monthlyPayment: float
    loanAmount: float
    initialPayment: float
    totalInterest: float
    totalPayment: float
    rate: float = Field(description="annual percent, e.g. 24.0")
    termMonths: int
    refundType: str
    schedule: list[ScheduleRow]


class CardCheck(Data):
    type: Literal["UZCARD", "HUMO", "VISA", "MASTERCARD", "UNIONPAY", "MIR"]


class TransactionRef(Data):
    transactionId: int


class TransactionHistoryItem(Data):
    transactionId: int
    amount: float
    status: str
    cardMask: str = Field(examples=["860049******6478"])
    cardType: str
    createdAt: str


class CarListItem(Data):
    id: str = Field(alias="_id")
    name: str
    priceFrom: float


class Modification(Named):
    price: float


class Color(Named):
    hex: str


class CarDetail(Named):
    brand: Named
    priceFrom: float
    modifications: list[Modification]
    colors: list[Color]


class SavedCarToggle(Data):
    status: Literal["saved", "removed"]


class Branch(Named):
    address: str
    available: bool


class Region(Named):
    branches: list[Branch]


class Contacts(Data):
    phone: str
    tg: str


class OfferDocument(Data):
    file: str


class Page(NamedTuple):
    """`{items: [item], total}`; `total_required` False where the contract shows only `items`."""

    item: type[Data]
    total_required: bool = True


class RouteResponse(NamedTuple):
    status: int = 200
    data: type[Data] | Page | None = None  # None: any `data`
    errors: tuple[int, ...] = ()  # beyond the statuses ops.openapi derives for every route
    media_type: str = JSON  # anything but JSON is sent as it is, without the envelope
    message: str = "Success"


def data_schema(data: type[Data] | Page | None, ref: Callable[[type[Data]], dict[str, Any]]) -> dict[str, Any]:
    """The JSON schema of `data`; `ref(model)` registers a model and returns its `$ref`."""
    if data is None:
        return {}
    if isinstance(data, Page):
        required = ["items", "total"] if data.total_required else ["items"]
        return {
            "type": "object",
            "required": required,
            "properties": {"items": {"type": "array", "items": ref(data.item)}, "total": {"type": "integer"}},
        }
    return ref(data)


def data_example(data: type[Data] | Page | None) -> dict[str, Any] | None:
    """An example `data` from the models' field examples, when every field has one."""
    if not isinstance(data, type):
        return None
    fields = data.model_fields
    if not all(field.examples for field in fields.values()):
        return None
    return {field.alias or name: field.examples[0] for name, field in fields.items() if field.examples}


ROUTE_RESPONSES: dict[tuple[str, str], RouteResponse] = {
    ("POST", "/api/v1/auth/refresh-token"): RouteResponse(201, TokenPair, (401,), message="auth.token.refresh"),
    ("POST", "/api/v1/auth/login"): RouteResponse(201, TokenPair, (409,)),
    ("GET", "/api/v1/auth/me"): RouteResponse(data=Profile),
    ("POST", "/api/v1/orders"): RouteResponse(201, OrderCreated, (404, 409)),
    ("GET", "/api/v1/orders"): RouteResponse(data=Page(OrderSummary)),
    ("POST", "/api/v1/orders/apply-promo-code"): RouteResponse(data=PromoDetails, errors=(404, 409)),
    ("GET", "/api/v1/order-logs/steps"): RouteResponse(data=Page(OrderStep), errors=(404,)),
    ("GET", "/api/v1/payments/organizations"): RouteResponse(data=Page(Named)),
    ("GET", "/api/v1/payments/leasing"): RouteResponse(data=Page(LeasingProgram, total_required=False)),
    ("POST", "/api/v1/payments/leasing/calculate"): RouteResponse(data=LeasingCalculation, errors=(404, 409)),
    ("GET", "/api/v2/payments/types"): RouteResponse(data=Page(PaymentType, total_required=False)),
    ("GET", "/api/v2/payments/banks"): RouteResponse(data=Page(Named, total_required=False), errors=(404,)),
    ("GET", "/api/v2/payments/banks/income-types"): RouteResponse(
        data=Page(Named, total_required=False), errors=(404,)
    ),
    ("GET", "/api/v2/payments/banks/initial-payment"): RouteResponse(
        data=Page(Named, total_required=False), errors=(404,)
    ),
    ("GET", "/api/v2/payments/banks/loan-terms"): RouteResponse(data=Page(Named, total_required=False), errors=(404,)),
    ("GET", "/api/v2/payments/banks/refund-types"): RouteResponse(
        data=Page(Named, total_required=False), errors=(404,)
    ),
    ("GET", "/api/v2/payments/banks/calculate"): RouteResponse(data=CreditCalculation, errors=(404,)),
    ("GET", "/api/v1/transactions/check-card"): RouteResponse(data=CardCheck),
    ("POST", "/api/v1/transactions/create"): RouteResponse(data=TransactionRef, errors=(404, 409)),
    ("POST", "/api/v1/transactions/apply"): RouteResponse(errors=(404, 409)),
    ("POST", "/api/v1/transactions/resend-code"): RouteResponse(data=TransactionRef, errors=(404, 409)),
    ("GET", "/api/v1/transactions/history"): RouteResponse(
        data=Page(TransactionHistoryItem, total_required=False), errors=(404,)
    ),
    ("GET", "/api/v1/cars"): RouteResponse(data=Page(CarListItem)),
    ("GET", "/api/v1/cars/{id}"): RouteResponse(data=CarDetail),
    ("PATCH", "/api/v1/saved-cars/{id}"): RouteResponse(201, SavedCarToggle),
    ("GET", "/api/v1/dictionaries/branch/regions"): RouteResponse(
        data=Page(Region, total_required=False), errors=(404,)
    ),
    ("GET", "/api/v1/dictionaries/contacts"): RouteResponse(data=Contacts),
    ("GET", "/api/v1/documents/offer"): RouteResponse(data=OfferDocument),
    ("GET", "/api/v1/documents/term-conditions"): RouteResponse(media_type="text/markdown"),
}
