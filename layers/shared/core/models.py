"""The base of every model the API answers with, and the types they share: ids, moments, money, a page.

A handler declares what it returns as `-> Response[Envelope[Model]]` (`edge.envelope`); Powertools
builds the OpenAPI response from that annotation and validates the response against it, and
`tools.openapi` writes it to openapi.json. Services build these models, never dicts.
"""

import functools
from datetime import UTC, datetime
from typing import Annotated, Any

from bson import ObjectId, tz_util
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
)

OBJECT_ID_PATTERN = r"^[0-9a-f]{24}$"


def _id_text(value: Any) -> Any:
    return str(value) if isinstance(value, ObjectId) else value


# The zones a UTC moment comes in: MongoDB's (bson's, the client is tz-aware) and the clock's.
UTC_ZONES = (UTC, tz_util.utc)


def _utc_text(value: Any) -> Any:
    # MongoDB hands back naive UTC datetimes: say so, as the API always has (`...Z`).
    if isinstance(value, datetime):
        if value.tzinfo in UTC_ZONES:
            # The same text as the offset written and replaced: bson's zone is a Python class, whose
            # offset isoformat asked in Python for every moment answered.
            return value.replace(tzinfo=None).isoformat() + "Z"
        return value.isoformat().replace("+00:00", "Z") + ("Z" if value.tzinfo is None else "")
    return value


# A MongoDB id as the API sends it: 24 lowercase hex characters.
# (The pattern before the validator: pydantic then checks it in its own `str` validation; after, it would
# wrap the check in a Python function per value.)
Id = Annotated[
    str,
    Field(pattern=OBJECT_ID_PATTERN, examples=["665f1c2e9b1e8a3d4c5b6a79"]),
    BeforeValidator(_id_text),
]
# A moment as ISO 8601 text in UTC, e.g. 2026-11-23T19:02:14.123000Z.
Timestamp = Annotated[
    str, BeforeValidator(_utc_text), Field(examples=["2026-11-23T19:02:14Z"], json_schema_extra={"format": "date-time"})
]
# Money in whole sums (UZS).
Sums = Annotated[int, Field(ge=0, description="in sums (UZS)")]
# The most sums of any amount the service takes in (a request's money; a price, deposit or fee of the
# reference data set): far above any car, and keeps tiyin (sums x 100) inside 64 bits.
MAX_SUMS = 10**12


class ApiModel(BaseModel):
    """Base of every response model: fields are named as the API sends them (`_id` through its alias)."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True, extra="ignore", defer_build=True)


def type_name(param: Any) -> str:
    """How a parametrized model names its type argument: `Page[CarItem]` is `CarItemPage`."""
    if isinstance(param, type):
        return param.__name__
    origin = getattr(param, "__origin__", None)
    if origin is list:
        return f"{type_name(param.__args__[0])}List"
    return str(param).replace("typing.", "").replace("[", "").replace("]", "").replace(" ", "")


class Page[T](ApiModel):
    """A page of a list: `items` of this page, `total` matches over all pages."""

    items: list[T]
    total: int = Field(ge=0, description="how many match, over all pages")

    @classmethod
    def model_parametrized_name(cls, params: tuple[Any, ...]) -> str:
        return f"{type_name(params[0])}Page"


# Not derived from `Page[T]`: pydantic would build that intermediate class at every cold start. Page's fields,
# and named `<Item>Page` as Page's are (its item types have no Page of their own): the documented names stay.
class CountedPage[T](ApiModel):
    """A page of a list that can grow without bound (cars, orders, saved cars, payments): its matches are
    counted up to 1,000 past the page (`data.mongo.find_page`), so `total` may be a lower bound."""

    items: list[T]
    total: int = Field(ge=0, description="how many match, over all pages (at least this many when `exact` is false)")
    exact: bool = Field(
        description="false when there are so many matches that counting stopped 1,000 past this page: "
        "`total` is then a lower bound"
    )

    @classmethod
    def model_parametrized_name(cls, params: tuple[Any, ...]) -> str:
        return f"{type_name(params[0])}Page"


@functools.cache
def parametrized[M: BaseModel](generic: type[M], item: Any) -> type[M]:
    """`generic[item]` (`Page[CarItem]`), parametrized on first use and kept: a route's answer is validated
    as the very class its handler declares, without looking it up again on every call, and a cold start
    builds none (the route's first call does, or SnapStart's warm-up, which builds every route's)."""
    built: type[M] = generic[item]  # type: ignore[index]
    return built
