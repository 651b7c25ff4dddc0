"""Reusable input types: ObjectId strings, phone numbers, PINFL, pagination."""

from __future__ import annotations

import re
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from bson import ObjectId
from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

E164 = re.compile(r"^\+[1-9]\d{7,14}$")
PINFL_WEIGHTS = (7, 3, 1)
MAX_PAGE_SIZE = 100
# Deep paging past this is no use case, and it keeps `skip` within every server's integer range.
MAX_OFFSET = 1_000_000
DEFAULT_PAGE_SIZE = 10


def _object_id(value: str) -> str:
    if not ObjectId.is_valid(value):
        raise ValueError("must be a 24-character hexadecimal id")
    return value.lower()


def _phone(value: str) -> str:
    compact = re.sub(r"[\s()-]", "", value)
    if not E164.match(compact):
        raise ValueError("must be an international number with country prefix, e.g. +998901234567")
    return compact


def pinfl_is_valid(value: str) -> bool:
    """PINFL (JShShIR): 14 digits; the last is the weighted sum (7, 3, 1, ...) of the first 13, mod 10."""
    if len(value) != 14 or not value.isdigit():
        return False
    total = sum(int(digit) * PINFL_WEIGHTS[i % 3] for i, digit in enumerate(value[:13]))
    return total % 10 == int(value[13])


def _pinfl(value: str) -> str:
    if not pinfl_is_valid(value):
        raise ValueError("must be a 14-digit PINFL with a valid check digit")
    return value


MongoId = Annotated[str, StringConstraints(strip_whitespace=True), AfterValidator(_object_id)]
Phone = Annotated[str, AfterValidator(_phone)]
Pinfl = Annotated[str, StringConstraints(strip_whitespace=True), AfterValidator(_pinfl)]
NonEmptyStr = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]

Limit = Annotated[int, Query(ge=0, le=MAX_PAGE_SIZE, description="page size, at most 100")]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="how many matches to skip, at most 1,000,000")]


class RequestModel(BaseModel):
    """Base of every request body: unknown properties are stripped, values are coerced (lax mode)."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True, str_strip_whitespace=True)
