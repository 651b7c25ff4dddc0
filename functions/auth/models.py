"""Request bodies of the auth routes."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from common.validation import Phone, Pinfl, RequestModel

PersonName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


class LoginBody(RequestModel):
    phone: Phone | None = Field(default=None, description="E.164, e.g. +998901234567")
    pin: Pinfl | None = Field(default=None, description="PINFL: 14 digits with a valid check digit")
    firstName: PersonName | None = None
    lastName: PersonName | None = None

    @model_validator(mode="after")
    def phone_or_pin(self) -> LoginBody:
        if self.phone is None and self.pin is None:
            raise ValueError("phone or pin is required")
        return self


class RefreshBody(RequestModel):
    token: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4096)]


class LimitBody(RequestModel):
    code: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2048)] = Field(
        description="authorization code from the identity provider (OneID)"
    )
