"""Responses of the catalog routes: cars, brands and the catalog's filters, in the caller's language."""

from pydantic import Field

from core.models import ApiModel, Id, Page, Timestamp
from domain.catalog.payment_types import PaymentType

Url = str


class BrandRef(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(examples=["Chevrolet"])


class BrandLogoRef(BrandRef):
    logo: Url | None = Field(description="logo URL; null when the brand has none")


class CarItem(ApiModel):
    """A car in a list."""

    id: Id = Field(alias="_id")
    slug: str | None = Field(examples=["chevrolet-cobalt"])
    name: str = Field(examples=["Cobalt"])
    priceFrom: int = Field(ge=0, description="the cheapest modification, in sums", examples=[158000000])
    image: Url | None = Field(description="picture URL")
    year: int | None = Field(description="model year", examples=[2025])
    isNew: bool = Field(description="a new model in the catalog")
    saleStartsAt: Timestamp | None = Field(
        description="when the car's sale opens (its earliest modification's): orders placed before it are "
        "refused (SALE_NOT_STARTED); null for a car on sale without a start"
    )
    brand: BrandRef
    bodyTypeId: Id | None
    powertrainId: Id | None
    saved: bool = Field(description="saved on this device (`fingerprint`)")


class Option(ApiModel):
    """A body type or a powertrain."""

    id: Id = Field(alias="_id")
    slug: str = Field(examples=["sedan"])
    name: str = Field(examples=["Sedan"])
    image: Url | None = Field(
        default=None, exclude_if=lambda value: value is None, description="icon URL; body types only"
    )


class ModificationItem(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(examples=["LTZ AT"])
    price: int = Field(ge=0, description="in sums", examples=[158000000])


class ColorItem(ApiModel):
    id: Id = Field(alias="_id")
    name: str = Field(examples=["Summit White"])
    hex: str = Field(description="#RRGGBB", examples=["#F5F5F5"])
    image: Url | None = Field(description="the car in this color")


class CarDetail(CarItem):
    brand: BrandLogoRef
    description: str | None
    gallery: list[Url] = Field(description="picture URLs")
    paymentTypes: list[PaymentType] = Field(description="how this car can be bought")
    bodyType: Option | None
    powertrain: Option | None
    modifications: list[ModificationItem]
    colors: list[ColorItem]


class InfoBlock(ApiModel):
    id: Id = Field(alias="_id")
    title: str
    description: str
    image: Url | None


class SpecItem(ApiModel):
    name: str = Field(examples=["Engine"])
    value: str = Field(examples=["1.5 L"])


class SpecSection(ApiModel):
    title: str = Field(examples=["Engine"])
    items: list[SpecItem]


class Modification(ModificationItem):
    specs: list[SpecSection] = Field(description="technical sections")


class BrandItem(ApiModel):
    id: Id = Field(alias="_id")
    slug: str = Field(examples=["chevrolet"])
    name: str = Field(examples=["Chevrolet"])
    logo: Url | None
    country: str | None = Field(examples=["Uzbekistan"])


class BrandDetail(BrandItem):
    description: str | None
    carsCount: int = Field(ge=0, description="cars of the brand in the catalog")


class PriceRange(ApiModel):
    min: int = Field(ge=0, description="the lowest `priceFrom` in the catalog, in sums (0 when empty)")
    max: int = Field(ge=0, description="the highest `priceFrom` in the catalog, in sums (0 when empty)")


class AllFilters(ApiModel):
    brands: Page[BrandItem]
    bodyTypes: Page[Option]
    powertrains: Page[Option]
    price: PriceRange
