"""Responses of the dictionaries routes: where to buy, branch details, contacts and documents."""

from typing import Literal

from pydantic import Field

from core.models import ApiModel, Id


class Named(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(description="in the caller's language (`accept-language`)")


class Location(ApiModel):
    lat: float = Field(ge=-90, le=90, examples=[41.2756])
    lng: float = Field(ge=-180, le=180, examples=[69.2034])


class Branch(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(examples=["Chevrolet Chilanzar"])
    address: str | None = Field(examples=["12 Bunyodkor Street, Chilanzar District"])
    phone: str | None = Field(examples=["+998712001201"])
    hours: str | None = Field(description="opening hours", examples=["Daily 09:00–20:00"])
    location: Location | None


class BranchAvailability(Branch):
    available: bool = Field(description="has the chosen modification in the chosen color in stock")


class Region(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(examples=["Tashkent City"])
    available: bool = Field(description="one of its branches has the chosen car in stock")
    branches: list[BranchAvailability] = Field(description="the brand's branches in the region, by name")


class BranchDetail(Branch):
    region: Named | None
    brands: list[Named] = Field(description="the brands the branch sells")


class Contacts(ApiModel):
    phone: str | None = Field(description="the call centre", examples=["+998712023030"])
    tg: str | None = Field(description="Telegram link", examples=["https://t.me/car_retail_uz"])


class Document(ApiModel):
    id: Id = Field(alias="_id")
    slug: str = Field(examples=["offer"])
    title: str | None = Field(examples=["Public offer"])
    file: str | None = Field(description="download URL, in the caller's language")
    format: Literal["markdown", "pdf"]
