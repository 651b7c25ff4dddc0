"""The reference data set file (`python -m ops catalog export|import`, docs/catalog.schema.json): every
brand, car, modification, color, branch, stock row, bank, credit product, leasing program, installment
plan, special offer, document, the contacts and the promo codes, each with its id.

Field names are the stored ones (docs/DATA_MODEL.md) with `id` for `_id`. Ids are 24 hex digits, money
is whole sums, texts are localized in ru, uz and en, times are ISO 8601 with a zone. A list left out of
the file leaves that collection as it is; a list in the file is the whole collection.

Every text, list and section has an upper bound fit for what it is (a name, a description, a URL; the
modifications of a car, the brands of a catalog), so that no answer of the API built from the data set
can grow past Lambda's 6 MB response limit (tests/unit/ops/test_answer_bounds.py computes the worst
case from these bounds) and a file is checked within bounded memory and time (`SECTION_LIMITS`).
Every number and moment has both bounds too (`Sums`, `Moment`...): what the file's check accepts (one
check, a dry run's and an import's alike), MongoDB stores, so an import never fails on a value.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from bson import ObjectId
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from core.models import MAX_SUMS
from domain.catalog.payment_types import PaymentType

FORMAT_VERSION = 1
ID_PATTERN = "^[0-9a-f]{24}$"


def _object_id(value: Any) -> ObjectId:
    if isinstance(value, ObjectId):
        return value
    if isinstance(value, str) and ObjectId.is_valid(value) and len(value) == 24:
        return ObjectId(value)
    raise ValueError("not an id (24 hex digits)")


# An ObjectId in the database, 24 lowercase hex digits in the file.
Id = Annotated[
    ObjectId,
    PlainValidator(_object_id),
    PlainSerializer(str, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "pattern": ID_PATTERN}),
]
# Texts: one line without control characters (a name, a title, an address), or several lines (a
# description, a document's markdown: line breaks and tabs allowed). Each kind has its length bound.
ONE_LINE = r"^[^\x00-\x1f\x7f]+$"
LINES = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+$"
NAME_CHARS = 100  # a brand, car, modification, color, region or organization name
SPEC_CHARS = 40  # a spec's name or value ("Engine", "1.5 L")
TITLE_CHARS = 200  # a title (info block, document, special offer, spec section), an address, opening hours
DESCRIPTION_CHARS = 4_000  # a brand's, car's, info block's or offer's description
MARKDOWN_CHARS = 200_000  # a legal document's text in one language
ASSET_CHARS = 1_024  # a URL or asset key (printable ASCII, no spaces)


Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_CHARS, pattern=ONE_LINE)]
SpecText = Annotated[str, StringConstraints(min_length=1, max_length=SPEC_CHARS, pattern=ONE_LINE)]
Title = Annotated[str, StringConstraints(min_length=1, max_length=TITLE_CHARS, pattern=ONE_LINE)]
Description = Annotated[str, StringConstraints(min_length=1, max_length=DESCRIPTION_CHARS, pattern=LINES)]
Markdown = Annotated[str, StringConstraints(min_length=1, max_length=MARKDOWN_CHARS, pattern=LINES)]
Slug = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]

# Lists within a record: a car's modifications, a modification's spec sections and a section's items
# (their product bounds the answer of GET /cars/{id}/modifications).
MODIFICATIONS = 16
SPEC_SECTIONS = 10
SPEC_ITEMS = 20
OFFERS_PER_CAR = 50  # special offers of one car (GET /payments/special-offers lists them all)
# Numbers: every integer has both bounds, within what MongoDB stores (64 bits) and most far tighter, fit
# for what it counts; a 10**30 in a file is a problem named by its field, never an import failing on it.
MAX_INT64 = 2**63 - 1
MAX_INT32 = 2**31 - 1
Sums = Annotated[StrictInt, Field(ge=0, le=MAX_SUMS, description="whole sums (UZS)")]
# A sale's deposit (`depositAmount`), one rule for the data set and `ops sale set` (which checks its
# arguments with SaleEntry): at least 1 sum, since a deposit of 0 lets a 1-sum payment keep the car.
Deposit = Annotated[StrictInt, Field(ge=1, le=MAX_SUMS, description="whole sums (UZS), at least 1")]
MAX_UNITS = 1_000_000  # of one modification and color at one branch: far above any lot
Units = Annotated[StrictInt, Field(ge=0, le=MAX_UNITS)]
BasisPoints = Annotated[StrictInt, Field(ge=0, le=100_000, description="hundredths of a percent: 2400 is 24 %")]
Percent = Annotated[StrictInt, Field(ge=0, le=100)]
Months = Annotated[StrictInt, Field(ge=1, le=600)]
Order = Annotated[
    StrictInt, Field(ge=-MAX_INT32, le=MAX_INT32, description="position in lists, ascending (a 32-bit integer)")
]

# Moments (a record's creation, a sale's start, an offer's or a promo code's validity, an export's time)
# are of this service's life: in the years 2000 to 2100 as written, whatever the zone. A year 1 or 9999 is
# a typo, and one MongoDB cannot take: Python's datetime ends at those years, so moving such a moment to
# UTC (as BSON stores it) or to Asia/Tashkent overflows; inside these years a moment of any zone survives both.
FIRST_YEAR, LAST_YEAR = 2000, 2100


def _in_years(value: datetime) -> datetime:
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise PydanticCustomError(
            "moment_out_of_range",
            "Input should be a moment in the years {first} to {last}",
            {"first": FIRST_YEAR, "last": LAST_YEAR},
        )
    return value


Moment = Annotated[
    AwareDatetime,
    AfterValidator(_in_years),
    WithJsonSchema(
        {
            "type": "string",
            "format": "date-time",
            "pattern": "^(20[0-9]{2}|2100)-",
            "description": f"ISO 8601 with its zone, in the years {FIRST_YEAR} to {LAST_YEAR}",
        }
    ),
]
Asset = Annotated[
    str,
    StringConstraints(min_length=1, max_length=ASSET_CHARS, pattern=r"^[!-~]+$"),
    Field(description="a URL (https://…) or an asset key"),
]


class Record(BaseModel):
    """Every record of the file: unknown fields are refused (a misspelt field is an error, not lost data)."""

    model_config = ConfigDict(extra="forbid")


class LocalizedName(Record):
    """A name in each language."""

    ru: Name
    uz: Name
    en: Name


class LocalizedSpec(Record):
    """A spec's name or value in each language."""

    ru: SpecText
    uz: SpecText
    en: SpecText


class LocalizedTitle(Record):
    """A title, address or opening hours in each language."""

    ru: Title
    uz: Title
    en: Title


class LocalizedDescription(Record):
    """A description in each language (several lines)."""

    ru: Description
    uz: Description
    en: Description


class LocalizedMarkdown(Record):
    """A document's text in each language."""

    ru: Markdown
    uz: Markdown
    en: Markdown


class LocalizedAsset(Record):
    """A file (URL or asset key) per language."""

    ru: Asset
    uz: Asset
    en: Asset


class Identified(Record):
    id: Id


# --- catalog --------------------------------------------------------------------------------------


class Brand(Identified):
    slug: Slug
    name: Name
    logo: Asset
    country: LocalizedName
    description: LocalizedDescription
    order: Order
    createdAt: Moment | None = None


class BodyType(Identified):
    slug: Slug
    name: LocalizedName
    image: Asset
    order: Order


class Powertrain(Identified):
    slug: Slug
    name: LocalizedName
    order: Order


class InfoBlockEntry(Identified):
    title: LocalizedTitle
    description: LocalizedDescription
    image: Asset


class Color(Identified):
    name: LocalizedName
    hex: Annotated[str, StringConstraints(pattern=r"^#[0-9A-Fa-f]{6}$")]
    image: Asset


class SpecItemEntry(Record):
    name: LocalizedSpec
    value: LocalizedSpec


class SpecSectionEntry(Record):
    title: LocalizedTitle
    items: list[SpecItemEntry] = Field(max_length=SPEC_ITEMS)


class PerPersonLimitEntry(Record):
    count: Annotated[
        StrictInt, Field(ge=1, le=1_000, description="orders of the car one person may place, not cancelled")
    ]
    days: Annotated[StrictInt, Field(ge=1, le=3660, description="within this many days")]


class QueueEntry(Record):
    """A fair opening's queue (domain.orders.openings): people register from `registrationOpensAt`, a draw
    at the sale's `startsAt` orders them, and they are admitted to order at a pace."""

    registrationOpensAt: Moment = Field(description="from it, people may register for the opening")
    admissionPerSecond: Annotated[StrictInt, Field(ge=1, le=10_000)] = Field(
        description="at most this many people admitted to order a second"
    )
    admissionMinutes: Annotated[StrictInt, Field(ge=1, le=1_440)] = Field(
        description="how long an admitted person may place their order"
    )


class SaleEntry(Record):
    """A car's sale rules (domain.catalog.sale), every member optional; on a modification, the members it
    overrides (a null member is the car's). A `queue` is the car's alone, and needs the car's `startsAt`
    (its draw) after its `registrationOpensAt`."""

    startsAt: Moment | None = Field(default=None, description="before it, the car is listed and not sold")
    holdMinutes: Annotated[StrictInt, Field(ge=1, le=43_200)] | None = Field(
        default=None, description="minutes an order has to pay its deposit; null: ORDER_DEPOSIT_MINUTES"
    )
    depositAmount: Deposit | None = Field(
        default=None, description="the deposit, due by then to keep the car (an amount, not a share)"
    )
    perPersonLimit: PerPersonLimitEntry | None = None
    verifiedBuyersOnly: StrictBool | None = Field(
        default=None, description="only buyers whose identity was verified may order it"
    )
    queue: QueueEntry | None = Field(
        default=None, description="a fair opening: registration, a draw at `startsAt`, paced admission"
    )

    @model_validator(mode="after")
    def _a_queue_draws_at_the_start(self) -> SaleEntry:
        if self.queue is None:
            return self
        if self.startsAt is None:
            raise ValueError("a queue needs startsAt, the moment of its draw")
        if self.queue.registrationOpensAt >= self.startsAt:
            raise ValueError("a queue's registrationOpensAt must come before startsAt")
        return self


class ModificationEntry(Identified):
    name: Name
    price: Sums
    specs: list[SpecSectionEntry] = Field(default=[], max_length=SPEC_SECTIONS)
    sale: SaleEntry | None = Field(default=None, description="the car's sale rules this modification overrides")

    @model_validator(mode="after")
    def _no_queue_of_its_own(self) -> ModificationEntry:
        if self.sale is not None and self.sale.queue is not None:
            raise ValueError("a queue is the car's sale rule, not a modification's")
        return self


class Car(Identified):
    slug: Slug
    brandId: Id
    bodyTypeId: Id
    powertrainId: Id
    name: LocalizedName
    description: LocalizedDescription
    year: Annotated[StrictInt, Field(ge=1900, le=2100)]
    image: Asset
    gallery: list[Asset] = Field(default=[], max_length=30)
    paymentTypes: list[PaymentType] = Field(min_length=1, max_length=len(PaymentType))
    isNew: StrictBool = False
    createdAt: Moment | None = None
    active: StrictBool = True
    info: list[InfoBlockEntry] = Field(default=[], max_length=20)
    colors: list[Color] = Field(min_length=1, max_length=30)
    modifications: list[ModificationEntry] = Field(min_length=1, max_length=MODIFICATIONS)
    sale: SaleEntry | None = Field(default=None, description="the car's sale rules; null: sold as usual")


# --- dealers --------------------------------------------------------------------------------------


class RegionEntry(Identified):
    slug: Slug
    name: LocalizedName
    order: Order


class LocationEntry(Record):
    lat: Annotated[float, Field(ge=-90, le=90, allow_inf_nan=False)]
    lng: Annotated[float, Field(ge=-180, le=180, allow_inf_nan=False)]


class BranchEntry(Identified):
    slug: Slug | None = None
    regionId: Id
    brandIds: list[Id] = Field(max_length=100)
    name: LocalizedName
    address: LocalizedTitle
    phone: Annotated[str, StringConstraints(pattern=r"^\+998\d{9}$")]
    hours: LocalizedTitle
    location: LocationEntry
    active: StrictBool = True


class Stock(Identified):
    branchId: Id
    carId: Id
    modificationId: Id
    colorId: Id
    quantity: Annotated[Units, Field(description="units the branch can still sell")]


# --- financing ------------------------------------------------------------------------------------


class OrganizationEntry(Identified):
    slug: Slug
    kind: Literal["BANK", "LEASING_COMPANY", "INSTALLMENT_PROVIDER"]
    name: Name
    logo: Asset
    order: Order
    active: StrictBool = True


class RefundTypeNodeEntry(Identified):
    slug: Literal["ANNUITY", "DIFFERENTIAL"]


class LoanTermNodeEntry(Identified):
    months: Months
    rateBp: BasisPoints
    refundTypes: list[RefundTypeNodeEntry] = Field(min_length=1, max_length=2)


class InitialPaymentNodeEntry(Identified):
    percent: Percent
    loanTerms: list[LoanTermNodeEntry] = Field(min_length=1, max_length=20)


class IncomeTypeNodeEntry(Identified):
    slug: Slug
    name: LocalizedName
    initialPayments: list[InitialPaymentNodeEntry] = Field(min_length=1, max_length=20)


class CreditProduct(Identified):
    organizationId: Id
    brandId: Id
    name: LocalizedName
    active: StrictBool = True
    incomeTypes: list[IncomeTypeNodeEntry] = Field(min_length=1, max_length=10)


class TermNodeEntry(Identified):
    months: Months


class PercentNodeEntry(Identified):
    percent: Percent


class LeasingProgramEntry(Identified):
    organizationId: Id
    brandId: Id
    name: LocalizedName
    rateBp: BasisPoints
    markupBp: BasisPoints
    contractFeeBp: BasisPoints
    monthlyFee: Sums
    buyoutBp: BasisPoints
    loanTerms: list[TermNodeEntry] = Field(min_length=1, max_length=20)
    initialPayments: list[PercentNodeEntry] = Field(min_length=1, max_length=20)
    active: StrictBool = True
    order: Order


class InstallmentRowEntry(Record):
    initialPercent: Percent
    markupBp: list[BasisPoints] = Field(max_length=20, description="one per term; 0 is an interest-free cell")


class InstallmentPlanEntry(Identified):
    organizationId: Id
    brandId: Id
    name: LocalizedName
    terms: list[Months] = Field(min_length=1, max_length=20)
    rows: list[InstallmentRowEntry] = Field(min_length=1, max_length=20)
    active: StrictBool = True
    order: Order

    @model_validator(mode="after")
    def _a_cell_per_term(self) -> InstallmentPlanEntry:
        if any(len(row.markupBp) != len(self.terms) for row in self.rows):
            raise ValueError("every row needs one markupBp per term")
        return self


class BankTerms(Record):
    initialPercent: Percent
    months: Months
    rateBp: BasisPoints
    refundType: Literal["ANNUITY", "DIFFERENTIAL"]


class LeasingTermsEntry(Record):
    initialPercent: Percent
    months: Months
    rateBp: BasisPoints
    markupBp: BasisPoints = 0
    contractFeeBp: BasisPoints = 0
    monthlyFee: Sums = 0
    buyoutBp: BasisPoints = 0


class SpecialOffer(Identified):
    kind: Literal["BANK", "LEASING"]
    organizationId: Id
    carId: Id
    modificationIds: list[Id] = Field(
        default=[], max_length=MODIFICATIONS, description="empty: every modification of the car"
    )
    title: LocalizedTitle
    description: LocalizedDescription
    validUntil: Moment | None = None
    active: StrictBool = True
    order: Order
    terms: BankTerms | LeasingTermsEntry

    @model_validator(mode="after")
    def _terms_of_its_kind(self) -> SpecialOffer:  # at most OFFERS_PER_CAR per car: checked by the import
        if isinstance(self.terms, BankTerms) != (self.kind == "BANK"):
            raise ValueError(f"a {self.kind} offer needs {self.kind.lower()} terms")
        return self


# --- content and promo codes ----------------------------------------------------------------------


class DocumentEntry(Identified):
    slug: Slug
    title: LocalizedTitle
    file: LocalizedAsset | None = Field(default=None, description="a PDF per language (URL or asset key)")
    markdown: LocalizedMarkdown | None = Field(default=None, description="the text, for a text document")
    order: Order
    public: StrictBool = True

    @model_validator(mode="after")
    def _file_or_text(self) -> DocumentEntry:
        if (self.file is None) == (self.markdown is None):
            raise ValueError("a document has either a file or markdown")
        return self


class ContactsEntry(Record):
    phone: Annotated[str, StringConstraints(pattern=r"^\+998\d{9}$")] | None = None
    tg: Annotated[str, StringConstraints(max_length=200, pattern=r"^https://t\.me/[!-~]+$")] | None = None


class PromoCodeEntry(Record):
    """How much a code takes off and when; how often it was used is kept by the database, never imported."""

    code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9_-]{2,40}$")]
    discountType: Literal["FIXED", "PERCENT"]
    value: Annotated[StrictInt, Field(ge=1, le=MAX_SUMS, description="sums for FIXED, percent (1-100) for PERCENT")]
    maxDiscount: Sums | None = Field(default=None, description="the cap of a PERCENT discount")
    validFrom: Moment | None = None
    validTo: Moment | None = Field(default=None, description="exclusive")
    usageLimit: Annotated[StrictInt, Field(ge=1, le=MAX_INT32)] | None = Field(
        default=None, description="uses in all; null: any"
    )

    @model_validator(mode="after")
    def _consistent(self) -> PromoCodeEntry:
        if self.discountType == "PERCENT" and self.value > 100:
            raise ValueError("a PERCENT value is at most 100")
        if self.validFrom and self.validTo and self.validTo <= self.validFrom:
            raise ValueError("validTo must be after validFrom")
        return self


class ExportedFrom(Record):
    """Where and when the file was exported: the database's id and its change version then (docs/DECISIONS.md,
    "Catalog imports never undo live changes"). An import uses it to tell the live changes made since
    (prices, stock, sale rules, promo codes) from what the file means to change; a file without it, or
    from another database, is older than every live change."""

    database: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")] = Field(description="the database's id")
    changeVersion: Annotated[StrictInt, Field(ge=0, le=MAX_INT64)] = Field(description="the database's change version")
    orderEvents: Annotated[StrictInt, Field(ge=0, le=MAX_INT64)] = Field(
        description="order log entries then (orders placed, paid, cancelled, expired: what moves stock)"
    )
    at: Moment


# The most records of each list of the file: far above any real catalog, low enough that every answer
# built from them stays under Lambda's 6 MB (tests/unit/ops/test_answer_bounds.py) and that a file is
# checked quickly (a file over a limit is refused before its records are read).
SECTION_LIMITS: dict[str, int] = {
    "brands": 200,
    "bodyTypes": 50,
    "powertrains": 50,
    "cars": 2_000,
    "regions": 50,
    "branches": 500,
    "stock": 100_000,
    "organizations": 200,
    "creditProducts": 200,
    "leasingPrograms": 200,
    "installmentPlans": 50,
    "specialOffers": 1_000,
    "documents": 100,
    "promoCodes": 10_000,
}


def _most(section: str) -> Any:
    return Field(default=None, max_length=SECTION_LIMITS[section])


class DataSet(Record):
    """The whole file. A list left out leaves its collection untouched; a list given replaces it."""

    model_config = ConfigDict(extra="forbid", title="Car retail reference data set")

    format: Literal[1] = Field(description="the file format's version")
    exportedFrom: ExportedFrom | None = Field(default=None, description="written by the export; never edit it")
    brands: list[Brand] | None = _most("brands")
    bodyTypes: list[BodyType] | None = _most("bodyTypes")
    powertrains: list[Powertrain] | None = _most("powertrains")
    cars: list[Car] | None = _most("cars")
    regions: list[RegionEntry] | None = _most("regions")
    branches: list[BranchEntry] | None = _most("branches")
    stock: list[Stock] | None = _most("stock")
    organizations: list[OrganizationEntry] | None = _most("organizations")
    creditProducts: list[CreditProduct] | None = _most("creditProducts")
    leasingPrograms: list[LeasingProgramEntry] | None = _most("leasingPrograms")
    installmentPlans: list[InstallmentPlanEntry] | None = _most("installmentPlans")
    specialOffers: list[SpecialOffer] | None = _most("specialOffers")
    documents: list[DocumentEntry] | None = _most("documents")
    contacts: ContactsEntry | None = None
    promoCodes: list[PromoCodeEntry] | None = _most("promoCodes")
