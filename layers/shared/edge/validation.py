"""Reusable input types: ObjectId strings, phone numbers, PINFL, pagination."""

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from bson import ObjectId
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from core.errors import invalid_value
from core.models import MAX_SUMS

MAX_PAGE_SIZE = 100
# Deep paging past this is no use case, and it keeps `skip` within every server's integer range.
DEFAULT_PAGE_SIZE = 10


def _object_id(value: str) -> str:
    if not ObjectId.is_valid(value):
        raise invalid_value("INVALID_ID")
    return value.lower()


class DocumentedAs:
    """Adds keywords to a type's JSON schema without changing how it validates (the validator's own
    message stays the one a client sees)."""

    def __init__(self, **keywords: object) -> None:
        self.keywords = keywords

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        schema.update(self.keywords)
        return schema


MongoId = Annotated[
    str,
    StringConstraints(strip_whitespace=True),
    AfterValidator(_object_id),
    DocumentedAs(pattern="^[0-9a-fA-F]{24}$", description="a 24-character hexadecimal id"),
]
# A text that is not blank once trimmed (the server trims every string).
NOT_BLANK = DocumentedAs(pattern=r"\S")

# Money is whole sums, at most core.models.MAX_SUMS (why: there).
MAX_MONEY = MAX_SUMS


def _not_a_boolean(value: object) -> object:
    # JSON true is a number to lax coercion (1 sum); no client means a boolean as an amount of money.
    if isinstance(value, bool):
        raise invalid_value("NUMBER_NOT_BOOLEAN")
    return value


# The one coercion rule for money in request bodies: a number or a numeric string of whole sums
# (1000, 1000.0, "1000"), never a boolean nor a fraction. (The bounds sit inside the validator so the
# JSON schema keeps them as minimum/maximum.)
Money = Annotated[Annotated[int, Field(gt=0, le=MAX_MONEY)], BeforeValidator(_not_a_boolean)]

Limit = Annotated[int, Query(ge=0, le=MAX_PAGE_SIZE, description="page size, at most 100")]
# Any offset past the end is an empty page; clamping keeps a huge one within what the database's skip takes.
MAX_OFFSET = 2**31 - 1
Offset = Annotated[
    int,
    Query(ge=0, description="how many matches to skip"),
    AfterValidator(lambda value: min(value, MAX_OFFSET)),
]


class RequestModel(BaseModel):
    """Base of every request body: unknown properties are stripped, values are coerced (lax mode).

    Built on first use (`defer_build`), as response models are: a cold start builds the validators of the
    route it serves, not of every route of its function (SnapStart's warm-up builds them all).
    """

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True, str_strip_whitespace=True, defer_build=True)
