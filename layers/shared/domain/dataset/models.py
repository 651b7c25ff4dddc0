"""The reference data set file (`python -m ops catalog export|import`, docs/catalog.schema.json): every
brand, car, modification, color, branch, stock row, bank, credit product, leasing program, installment
plan, special offer, document, the contacts and the promo codes, each with its id.

Field names are the stored ones (docs/DATA_MODEL.md) with `id` for `_id`. Ids are 24 hex digits, money
is whole sums, texts are localized in ru, uz and en, times are ISO 8601 with a zone. A list left out of
the file leaves that collection as it is; a list in the file is the whole collection.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from bson import ObjectId
from pydantic import (
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
Text = Annotated[str, StringConstraints(min_length=1)]
Slug = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]
Sums = Annotated[StrictInt, Field(ge=0, description="whole sums (UZS)")]
Count = Annotated[StrictInt, Field(ge=0)]
BasisPoints = Annotated[StrictInt, Field(ge=0, le=100_000, description="hundredths of a percent: 2400 is 24 %")]
Percent = Annotated[StrictInt, Field(ge=0, le=100)]
Months = Annotated[StrictInt, Field(ge=1, le=600)]
Order = Annotated[StrictInt, Field(description="position in lists, ascending")]
Asset = Annotated[str, StringConstraints(min_length=1), Field(description="a URL (https://…) or an asset key")]


class Record(BaseModel):
    """Every record of the file: unknown fields are refused (a misspelt field is an error, not lost data)."""

    model_config = ConfigDict(extra="forbid")


class Localized(Record):
    """One text per language."""

    ru: Text
    uz: Text
    en: Text


class Identified(Record):
    id: Id


# --- catalog --------------------------------------------------------------------------------------


class Brand(Identified):
    slug: Slug
    name: Text
    logo: Asset
    country: Localized
    description: Localized
    order: Order
    createdAt: AwareDatetime | None = None


class BodyType(Identified):
    slug: Slug
    name: Localized
    image: Asset
    order: Order


class Powertrain(Identified):
    slug: Slug
    name: Localized
    order: Order


class InfoBlockEntry(Identified):
    title: Localized
    description: Localized
    image: Asset


class Color(Identified):
    name: Localized
    hex: Annotated[str, StringConstraints(pattern=r"^#[0-9A-Fa-f]{6}$")]
    image: Asset


class SpecItemEntry(Record):
    name: Localized
    value: Localized


class SpecSectionEntry(Record):
    title: Localized
    items: list[SpecItemEntry]


class PerPersonLimitEntry(Record):
    count: Annotated[StrictInt, Field(ge=1, description="orders of the car one person may place, not cancelled")]
    days: Annotated[StrictInt, Field(ge=1, le=3660, description="within this many days")]


class SaleEntry(Record):
    """A car's sale rules (domain.catalog.sale), every member optional; on a modification, the members it
    overrides (a null member is the car's)."""

    startsAt: AwareDatetime | None = Field(default=None, description="before it, the car is listed and not sold")
    holdMinutes: Annotated[StrictInt, Field(ge=1, le=43_200)] | None = Field(
        default=None, description="how long an unpaid order holds its unit; null: ORDER_HOLD_HOURS"
    )
    depositAmount: Sums | None = Field(
        default=None, description="sums to pay by the end of the hold to keep the car (an amount, not a share)"
    )
    perPersonLimit: PerPersonLimitEntry | None = None
    verifiedBuyersOnly: StrictBool | None = Field(
        default=None, description="only buyers whose identity was verified may order it"
    )


class ModificationEntry(Identified):
    name: Text
    price: Sums
    specs: list[SpecSectionEntry] = []
    sale: SaleEntry | None = Field(default=None, description="the car's sale rules this modification overrides")


class Car(Identified):
    slug: Slug
    brandId: Id
    bodyTypeId: Id
    powertrainId: Id
    name: Localized
    description: Localized
    year: Annotated[StrictInt, Field(ge=1900, le=2100)]
    image: Asset
    gallery: list[Asset] = []
    paymentTypes: list[PaymentType] = Field(min_length=1)
    isNew: StrictBool = False
    createdAt: AwareDatetime | None = None
    active: StrictBool = True
    info: list[InfoBlockEntry] = []
    colors: list[Color] = Field(min_length=1)
    modifications: list[ModificationEntry] = Field(min_length=1)
    sale: SaleEntry | None = Field(default=None, description="the car's sale rules; null: sold as usual")


# --- dealers --------------------------------------------------------------------------------------


class RegionEntry(Identified):
    slug: Slug
    name: Localized
    order: Order


class LocationEntry(Record):
    lat: Annotated[float, Field(ge=-90, le=90)]
    lng: Annotated[float, Field(ge=-180, le=180)]


class BranchEntry(Identified):
    slug: Slug | None = None
    regionId: Id
    brandIds: list[Id]
    name: Localized
    address: Localized
    phone: Annotated[str, StringConstraints(pattern=r"^\+998\d{9}$")]
    hours: Localized
    location: LocationEntry
    active: StrictBool = True


class Stock(Identified):
    branchId: Id
    carId: Id
    modificationId: Id
    colorId: Id
    quantity: Annotated[Count, Field(description="units the branch can still sell")]


# --- financing ------------------------------------------------------------------------------------


class OrganizationEntry(Identified):
    slug: Slug
    kind: Literal["BANK", "LEASING_COMPANY", "INSTALLMENT_PROVIDER"]
    name: Text
    logo: Asset
    order: Order
    active: StrictBool = True


class RefundTypeNodeEntry(Identified):
    slug: Literal["ANNUITY", "DIFFERENTIAL"]


class LoanTermNodeEntry(Identified):
    months: Months
    rateBp: BasisPoints
    refundTypes: list[RefundTypeNodeEntry] = Field(min_length=1)


class InitialPaymentNodeEntry(Identified):
    percent: Percent
    loanTerms: list[LoanTermNodeEntry] = Field(min_length=1)


class IncomeTypeNodeEntry(Identified):
    slug: Slug
    name: Localized
    initialPayments: list[InitialPaymentNodeEntry] = Field(min_length=1)


class CreditProduct(Identified):
    organizationId: Id
    brandId: Id
    name: Localized
    active: StrictBool = True
    incomeTypes: list[IncomeTypeNodeEntry] = Field(min_length=1)


class TermNodeEntry(Identified):
    months: Months


class PercentNodeEntry(Identified):
    percent: Percent


class LeasingProgramEntry(Identified):
    organizationId: Id
    brandId: Id
    name: Localized
    rateBp: BasisPoints
    markupBp: BasisPoints
    contractFeeBp: BasisPoints
    monthlyFee: Sums
    buyoutBp: BasisPoints
    loanTerms: list[TermNodeEntry] = Field(min_length=1)
    initialPayments: list[PercentNodeEntry] = Field(min_length=1)
    active: StrictBool = True
    order: Order


class InstallmentRowEntry(Record):
    initialPercent: Percent
    markupBp: list[BasisPoints] = Field(description="one per term; 0 is an interest-free cell")


class InstallmentPlanEntry(Identified):
    organizationId: Id
    brandId: Id
    name: Localized
    terms: list[Months] = Field(min_length=1)
    rows: list[InstallmentRowEntry] = Field(min_length=1)
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
    modificationIds: list[Id] = Field(default=[], description="empty: every modification of the car")
    title: Localized
    description: Localized
    validUntil: AwareDatetime | None = None
    active: StrictBool = True
    order: Order
    terms: BankTerms | LeasingTermsEntry

    @model_validator(mode="after")
    def _terms_of_its_kind(self) -> SpecialOffer:
        if isinstance(self.terms, BankTerms) != (self.kind == "BANK"):
            raise ValueError(f"a {self.kind} offer needs {self.kind.lower()} terms")
        return self


# --- content and promo codes ----------------------------------------------------------------------


class DocumentEntry(Identified):
    slug: Slug
    title: Localized
    file: Localized | None = Field(default=None, description="a PDF per language (URL or asset key)")
    markdown: Localized | None = Field(default=None, description="the text, for a text document")
    order: Order
    public: StrictBool = True

    @model_validator(mode="after")
    def _file_or_text(self) -> DocumentEntry:
        if (self.file is None) == (self.markdown is None):
            raise ValueError("a document has either a file or markdown")
        return self


class ContactsEntry(Record):
    phone: Annotated[str, StringConstraints(pattern=r"^\+998\d{9}$")] | None = None
    tg: Annotated[str, StringConstraints(pattern=r"^https://t\.me/")] | None = None


class PromoCodeEntry(Record):
    """How much a code takes off and when; how often it was used is kept by the database, never imported."""

    code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9_-]{2,40}$")]
    discountType: Literal["FIXED", "PERCENT"]
    value: Annotated[StrictInt, Field(ge=1, description="sums for FIXED, percent (1-100) for PERCENT")]
    maxDiscount: Sums | None = Field(default=None, description="the cap of a PERCENT discount")
    validFrom: AwareDatetime | None = None
    validTo: AwareDatetime | None = Field(default=None, description="exclusive")
    usageLimit: Annotated[StrictInt, Field(ge=1)] | None = Field(default=None, description="uses in all; null: any")

    @model_validator(mode="after")
    def _consistent(self) -> PromoCodeEntry:
        if self.discountType == "PERCENT" and self.value > 100:
            raise ValueError("a PERCENT value is at most 100")
        if self.validFrom and self.validTo and self.validTo <= self.validFrom:
            raise ValueError("validTo must be after validFrom")
        return self


class DataSet(Record):
    """The whole file. A list left out leaves its collection untouched; a list given replaces it."""

    model_config = ConfigDict(extra="forbid", title="Car retail reference data set")

    format: Literal[1] = Field(description="the file format's version")
    brands: list[Brand] | None = None
    bodyTypes: list[BodyType] | None = None
    powertrains: list[Powertrain] | None = None
    cars: list[Car] | None = None
    regions: list[RegionEntry] | None = None
    branches: list[BranchEntry] | None = None
    stock: list[Stock] | None = None
    organizations: list[OrganizationEntry] | None = None
    creditProducts: list[CreditProduct] | None = None
    leasingPrograms: list[LeasingProgramEntry] | None = None
    installmentPlans: list[InstallmentPlanEntry] | None = None
    specialOffers: list[SpecialOffer] | None = None
    documents: list[DocumentEntry] | None = None
    contacts: ContactsEntry | None = None
    promoCodes: list[PromoCodeEntry] | None = None
