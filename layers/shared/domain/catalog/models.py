"""What the catalog answers of cars and brands, in the caller's language: built by the domain
(`domain.catalog.views`, `items`) and answered by two functions (the catalog; saved cars, whose list is
of `CarItem`). The filters, which the catalog function alone builds, are in its `models.py`."""

from pydantic import Field

from core.models import ApiModel, Id, Timestamp
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


class PerPersonLimitTerms(ApiModel):
    """How many orders of the car one person may place."""

    count: int = Field(ge=1, description="orders of the car one person may place within `days`", examples=[1])
    days: int = Field(
        ge=1,
        description="the window: orders placed within it count, unless cancelled (a hold cancelled for not being "
        "paid in time counts too)",
        examples=[365],
    )


class SaleQueueTerms(ApiModel):
    """A fair opening (docs: Sale queues): people register ahead, a draw at the sale's `startsAt` orders them,
    and they are admitted to order a few at a time."""

    registrationOpensAt: Timestamp = Field(description="registration (`POST /api/v1/sales/{carId}/entries`) opens")
    admissionPerSecond: int = Field(
        ge=1, description="at most this many people are admitted a second (fewer while orders are slow)", examples=[50]
    )
    admissionMinutes: int = Field(ge=1, description="an admitted person may place their order this long", examples=[15])
    statusUrl: Url = Field(
        description="the opening's status.json, served from the edge with a 1 s cache: poll it, not the API, for "
        "`servingUpTo` (a person whose position is at most it is admitted), `unitsLeft`, `soldOut`",
        examples=["https://d111111abcdef8.cloudfront.net/sales/6650f0c2a1b2c3d4e5f60708/status.json"],
    )
    drawUrl: Url = Field(
        description="the draw's draw.json once it ran (404 before): the seed and every drawn entry in position "
        "order, to check against the status's `seedCommitment`",
        examples=["https://d111111abcdef8.cloudfront.net/sales/6650f0c2a1b2c3d4e5f60708/draw.json"],
    )


class SaleTerms(ApiModel):
    """The sale rules an order follows, as a buyer should know them before ordering (docs: Sale rules and
    limits). A member that is null is not a rule of this sale: the service's own applies."""

    startsAt: Timestamp | None = Field(
        description="orders placed before it are refused (SALE_NOT_STARTED); null: on sale now"
    )
    depositAmount: int | None = Field(
        ge=0,
        description="sums the first card payment must reach by the deposit's deadline to keep the car (never more "
        "than what is due by card); null: the service's share of what is due by card",
        examples=[5000000],
    )
    holdMinutes: int | None = Field(
        ge=1,
        description="minutes after the order is placed to pay the deposit; null: the service's (30 by default)",
        examples=[60],
    )
    perPersonLimit: PerPersonLimitTerms | None = Field(
        description="orders of the car one person may place (PURCHASE_LIMIT_REACHED); null: no limit of the car's "
        "own (one person holds at most a few cars not paid in full, whatever the car)"
    )
    verifiedBuyersOnly: bool = Field(
        description="only a buyer whose identity was verified may order it (IDENTITY_VERIFICATION_REQUIRED)"
    )
    queue: SaleQueueTerms | None = Field(
        description="the car's fair opening: order only once admitted (NOT_YOUR_TURN); null: whoever orders first"
    )


class CarModification(ModificationItem):
    sale: SaleTerms | None = Field(
        description="the sale rules an order of this modification follows: the car's, with this modification's "
        "own over them; null when it has none"
    )


class CarDetail(CarItem):
    brand: BrandLogoRef
    description: str | None
    gallery: list[Url] = Field(description="picture URLs")
    paymentTypes: list[PaymentType] = Field(description="how this car can be bought")
    bodyType: Option | None
    powertrain: Option | None
    sale: SaleTerms | None = Field(
        description="the car's sale rules (a modification may have its own: `modifications[].sale`); null when it "
        "has none"
    )
    modifications: list[CarModification]
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
