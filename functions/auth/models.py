"""Request bodies and responses of the auth routes."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, model_validator

from core.errors import invalid_value
from core.models import ApiModel, Id, Timestamp
from core.pinfl import pinfl_is_valid
from edge.validation import NOT_BLANK, DocumentedAs, RequestModel

E164 = re.compile(r"^\+[1-9]\d{7,14}$")


def _phone(value: str) -> str:
    compact = re.sub(r"[\s()-]", "", value)
    if not E164.match(compact):
        raise invalid_value("INVALID_PHONE")
    return compact


def _pinfl(value: str) -> str:
    if not pinfl_is_valid(value):
        raise invalid_value("INVALID_PINFL")
    return value


# Spaces, dashes and brackets are ignored: "+998 (90) 123-45-67" is +998901234567. The length is checked
# first, by pydantic itself: a phone of megabytes is refused before anything reads its characters.
MAX_PHONE_CHARS = 40
Phone = Annotated[
    str,
    StringConstraints(max_length=MAX_PHONE_CHARS),
    AfterValidator(_phone),
    DocumentedAs(
        pattern=r"^[ ()-]*\+[ ()-]*[1-9](?:[ ()-]*[0-9]){7,14}[ ()-]*$",
        description="international format: `+` and 8-15 digits (spaces, dashes and brackets ignored)",
        examples=["+998901234567"],
    ),
]
# `format: pinfl` names the check digit no pattern can state (tests/schemathesis_formats.py generates it).
Pinfl = Annotated[
    str,
    StringConstraints(strip_whitespace=True),
    AfterValidator(_pinfl),
    DocumentedAs(
        pattern="^[0-9]{14}$",
        format="pinfl",
        description="PINFL: 14 digits, the last the check digit of the first 13 (weights 7, 3, 1 repeated, sum mod 10)",
        examples=["30101990000014"],
    ),
]
PersonName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), NOT_BLANK]


def _login_code(value: str) -> str:
    if len(value) != LOGIN_CODE_DIGITS or not value.isascii() or not value.isdigit():
        raise invalid_value("OTP_FORMAT")
    return value


LOGIN_CODE_DIGITS = 6
LoginCode = Annotated[
    str,
    StringConstraints(min_length=1, max_length=LOGIN_CODE_DIGITS),
    AfterValidator(_login_code),
    DocumentedAs(pattern="^[0-9]{6}$", description="the 6-digit code sent by SMS", examples=["666666"]),
]
Assertion = Annotated[
    str,
    StringConstraints(min_length=1, max_length=8192),
    DocumentedAs(
        pattern=r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$",
        description='a JWT the partner\'s backend signed for this person (docs/INTERFACE.md, "Who the caller is")',
        examples=["eyJhbGciOiJFZERTQSJ9.eyJhdWQiOiJjYXItcmV0YWlsOmxvY2FsIn0.c2ln"],
    ),
]


class LoginBody(RequestModel):
    """`phone` or `pin`, or both (then they must be the same person's); `assertion` for a partner whose
    logins need one, `otp` for a partner that signs people in by SMS code."""

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": ["phone"], "properties": {"phone": {"type": "string"}}},
                {"required": ["pin"], "properties": {"pin": {"type": "string"}}},
            ]
        }
    )

    phone: Phone | None = Field(default=None, description="E.164, e.g. +998901234567")
    pin: Pinfl | None = Field(default=None, description="PINFL: 14 digits with a valid check digit")
    firstName: PersonName | None = None
    lastName: PersonName | None = None
    assertion: Assertion | None = Field(
        default=None, description="for an `assertion` partner: the JWT its backend signed for this person", repr=False
    )
    otp: LoginCode | None = Field(
        default=None,
        description="for an `otp` partner: the code the SMS brought; without it the code is sent (202)",
        repr=False,
    )

    @model_validator(mode="after")
    def phone_or_pin(self) -> LoginBody:
        if self.phone is None and self.pin is None:
            raise invalid_value("PHONE_OR_PIN_REQUIRED")
        return self


class RefreshBody(RequestModel):
    token: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4096), NOT_BLANK]


class LimitBody(RequestModel):
    code: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2048), NOT_BLANK] = Field(
        description="one-time code from the identity provider: MyID SDK `code` or OneID authorization `code`"
    )
    redirectUri: Annotated[str, StringConstraints(min_length=1, max_length=2048, pattern=r"^https?://\S+$")] | None = (
        Field(
            default=None,
            description="OneID only: the redirect URI the code was issued for, when the partner app has its own "
            "registered with OneID (one the stage allows, else 400 `REDIRECT_URI_NOT_ALLOWED`); without it, the "
            "stage's own. Other providers ignore it",
            examples=["https://partner.example/oneid/callback"],
        )
    )


# Responses


class Tokens(ApiModel):
    accessToken: str = Field(
        description="JWT for `Authorization: Bearer <accessToken>`; short-lived",
        examples=["eyJhbGciOiJIUzI1NiJ9.e30.x"],
    )
    refreshToken: str = Field(
        description="JWT for POST /api/v1/auth/refresh-token; each one works once",
        examples=["eyJhbGciOiJIUzI1NiJ9.e30.y"],
    )


class LoginCodeSent(ApiModel):
    codeSent: bool = Field(description="always true: a code was sent by SMS to the phone", examples=[True])
    expiresAt: Timestamp = Field(description="when the code stops being accepted")
    resendAt: Timestamp = Field(description="when another code may be asked for (429 before)")


class Profile(ApiModel):
    id: Id = Field(alias="_id", description="the user's id")
    firstName: str = Field(description="empty until given", examples=["Aziz"])
    lastName: str = Field(description="empty until given", examples=["Karimov"])
    phone: str | None = Field(description="E.164; null for a user who signed in by PINFL", examples=["+998901234567"])
    balance: int = Field(description="in sums (UZS)", examples=[0])
    verified: bool = Field(description="identity verified through MyID or OneID (POST /api/v1/users/limit)")


class IdentitySession(ApiModel):
    """What the partner app starts MyID's SDK with (`MyIdConfig`), under the retailer's MyID registration."""

    sessionId: str = Field(description="MyID's SDK session (`sessionId`)", examples=["0c9b8f3e-5e0b-4d7e-9c1a-2f6d"])
    clientHash: str = Field(description="the registration's client hash (`clientHash`)", examples=["sandbox"])
    clientHashId: str = Field(description="the registration's client hash id (`clientHashId`)", examples=["sandbox"])
    expiresIn: int | None = Field(description="seconds the session is valid, when MyID says", examples=[3600])


class VerifiedProfile(Profile):
    middleName: str | None = Field(description="as the identity provider knows it")
    pin: str = Field(description="the PINFL, masked but for its last 4 digits", examples=["**********1234"])
    birthDate: str | None = Field(description="YYYY-MM-DD", examples=["1990-05-17"])
    verifiedAt: Timestamp | None = Field(description="when the identity was verified")
    limit: int = Field(ge=0, description="purchase limit the verification unlocks, in sums", examples=[500000000])
