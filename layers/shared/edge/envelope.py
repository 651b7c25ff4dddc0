"""The envelope every JSON response carries (docs/INTERFACE.md): `{success, statusCode, message, data}`,
with `errors` on a 400 and `details` on a conflict."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from core.models import ApiModel, type_name


class FieldError(ApiModel):
    field: str = Field(
        description="where: `body.<field>`, `query.<name>`, `path.<name>` or `header.<name>`",
        examples=["body.phone"],
    )
    message: str = Field(description="what is wrong with it", examples=["is required"])


class Envelope[T](ApiModel):
    """Every JSON response: `data` is the payload (null on errors); `errors` lists invalid fields of a 400,
    `details` carries the facts of a conflict (e.g. the current price)."""

    success: bool = Field(description="true for 2xx")
    statusCode: int = Field(description="the HTTP status, repeated", ge=100, le=599)
    message: str = Field(description="a short human-readable outcome", examples=["Success"])
    data: T
    # `errors` and `details` only appear when there is something to say.
    errors: list[FieldError] | None = Field(
        default=None, exclude_if=lambda value: value is None, description="the invalid fields (400 only)"
    )
    details: dict[str, Any] | None = Field(
        default=None, exclude_if=lambda value: value is None, description="facts of a conflict (409)"
    )

    @classmethod
    def model_parametrized_name(cls, params: tuple[Any, ...]) -> str:
        return f"{type_name(params[0])}Response"
