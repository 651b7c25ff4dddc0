"""The envelope of every error answer as openapi.json documents it (docs/INTERFACE.md). The edge writes an
error's envelope as a dict (`edge.responses`) and never builds this model: only the document's generation
imports it, so no function defines it at its cold start (docs/DECISIONS.md, "Import-time work")."""

from typing import Any, Literal

from pydantic import Field

from core.models import ApiModel


def _absent_when_empty(schema: dict[str, Any]) -> None:
    # Left out of the body when there is nothing to say, never null: no default in the document, so a
    # generated client types the property as optional, not as always present.
    schema.pop("default", None)


class FieldError(ApiModel):
    field: str = Field(
        description="where: `body.<field>`, `query.<name>`, `path.<name>` or `header.<name>`",
        examples=["body.phone"],
    )
    code: str = Field(
        description="what is wrong with it, stable (docs/INTERFACE.md, Error codes)", examples=["INVALID_PHONE"]
    )
    message: str = Field(description="what is wrong with it, in the request's language", examples=["Must be ..."])


class ErrorEnvelope(ApiModel):
    """Every error: `code` is stable and says what went wrong (docs/INTERFACE.md, Error codes); `message`
    says it in the request's language (`Content-Language`)."""

    success: Literal[False] = Field(description="false for errors")
    statusCode: int = Field(description="the HTTP status, repeated", ge=400, le=599)
    code: str = Field(description="stable UPPER_SNAKE_CASE identifier of the error", examples=["PROMO_CODE_USED_UP"])
    message: str = Field(description="for a human, in the request's language", examples=["Promo code has been used up"])
    data: None = Field(description="always null on errors")
    errors: list[FieldError] = Field(
        default_factory=list, json_schema_extra=_absent_when_empty, description="the invalid fields (400 only)"
    )
    details: dict[str, Any] = Field(
        default_factory=dict,
        json_schema_extra=_absent_when_empty,
        description="facts a client can act on: `currentPrice`, `attemptsLeft`, `retryAfter`...",
    )
