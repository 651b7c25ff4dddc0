"""The envelope every JSON response carries (docs/INTERFACE.md): `{success, statusCode, message, data}`;
an error adds its stable `code`, `errors` on invalid input and `details` on some refusals
(`edge.error_envelope` documents it)."""

from typing import Any

from pydantic import Field

from core.models import ApiModel, type_name


class Envelope[T](ApiModel):
    """Every successful JSON response: `data` is the payload."""

    success: bool = Field(description="true for 2xx")
    statusCode: int = Field(description="the HTTP status, repeated", ge=100, le=599)
    message: str = Field(description="a short human-readable outcome", examples=["Success"])
    data: T

    @classmethod
    def model_parametrized_name(cls, params: tuple[Any, ...]) -> str:
        return f"{type_name(params[0])}Response"
