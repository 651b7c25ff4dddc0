"""Dictionaries logic: where a car can be bought, branch details, contacts and documents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from bson import ObjectId
from pydantic import TypeAdapter

from core.assets import url
from core.errors import NotFound
from core.locale import LOCALES, Locale, localize
from core.models import Page, parametrized
from data.reference_cache import preload, reference_data
from dictionaries.models import BranchAvailability, BranchDetail, Contacts, Document, Named, Region
from domain.catalog import brands, cars
from domain.content import documents
from domain.content.records import LegalDocument
from domain.dealers import network
from domain.dealers.records import BranchRecord, RegionRecord

# The reference data these routes read: a SnapStart restore reads it before the first request.
preload(*brands.BRAND_NAMES, *network.REFERENCE_DATA)

PRIVACY_POLICY = "privacy-policy"
# The regions of a brand a request finds not built yet (`RegionViews`), validated in one call.
REGIONS = TypeAdapter(list[Region])


def _branch(branch: BranchRecord, loc: Locale) -> dict[str, Any]:
    return {
        "_id": branch["_id"],
        "name": localize(branch["name"], loc),
        "address": localize(branch["address"], loc),
        "phone": branch.get("phone"),
        "hours": localize(branch.get("hours"), loc),
        "location": branch.get("location"),
    }


class BranchViews:
    """A branch rendered in one locale (`fields`), and as answered with the chosen car in stock (`available`)
    and without (`unavailable`) once a request has built that view: kept with the rendering, since a request
    shows most branches one way only."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.id: ObjectId = fields["_id"]
        self.fields = fields
        self.available: BranchAvailability | None = None
        self.unavailable: BranchAvailability | None = None

    def keep(self, branch: BranchAvailability) -> None:
        if branch.available:
            self.available = branch
        else:
            self.unavailable = branch


class RegionViews:
    """A region's branches of a brand, by name, and the region as answered with the chosen car in stock at
    all of them (`stocked`) and at none (`unstocked`), each kept once a request has built it; one where only
    some have it is assembled per request from its branches' views."""

    def __init__(self, region_id: ObjectId, name: str, branches: list[BranchViews]) -> None:
        self.id = region_id
        self.name = name
        self.branches = branches
        self.branch_ids = frozenset(views.id for views in branches)
        self.stocked: Region | None = None
        self.unstocked: Region | None = None

    def with_stock(self, stocked: set[ObjectId]) -> Region | None:
        """The region with the car in stock at these branches, from what is kept; None if not built yet."""
        if self.branch_ids.isdisjoint(stocked):
            return self.unstocked
        if self.branch_ids <= stocked:
            return self.stocked
        branches = [views.available if views.id in stocked else views.unavailable for views in self.branches]
        if any(branch is None for branch in branches):
            return None
        return Region(id=self.id, name=self.name, available=True, branches=branches)

    def fields(self, stocked: set[ObjectId]) -> dict[str, Any]:
        """The region with the car in stock at these branches, as the mapping `REGIONS` validates."""
        branches = [{**views.fields, "available": views.id in stocked} for views in self.branches]
        available = not self.branch_ids.isdisjoint(stocked)
        return {"_id": self.id, "name": self.name, "available": available, "branches": branches}

    def keep(self, region: Region) -> None:
        """Keep what `region` (built from `fields`) holds: its branches' views, and itself unless it is a mix."""
        for views, branch in zip(self.branches, region.branches, strict=True):
            views.keep(branch)
        if not region.available:
            self.unstocked = region
        elif all(branch.available for branch in region.branches):
            self.stocked = region


class BrandBranches(NamedTuple):
    """Where a brand is sold, rendered in one locale: its active branches' ids, and the regions holding
    them in their order."""

    branch_ids: list[ObjectId]
    regions: list[RegionViews]


@reference_data
def brand_branches(brand_id: ObjectId, locale: Locale) -> BrandBranches:
    """Rendered once per brand, locale and reference-data lifetime, from the cached branches and
    regions: only stock is read per request. Shared between requests: what a view builds on first use
    (`BranchViews`, `RegionViews`) is the same whoever builds it, and never changed once built."""
    return _render(network.branches_of_brand(brand_id), network.regions(), locale)


def _render(branches: Iterable[BranchRecord], regions: Iterable[RegionRecord], locale: Locale) -> BrandBranches:
    """These branches in `locale`, by name, under those of `regions` that hold them, in the regions' order."""
    by_region: dict[ObjectId, list[dict[str, Any]]] = {}
    for branch in branches:
        by_region.setdefault(branch["regionId"], []).append(_branch(branch, locale))
    views = []
    for region in regions:
        rendered = by_region.get(region["_id"])
        if rendered:
            rendered.sort(key=_by_name)
            branch_views = [BranchViews(fields) for fields in rendered]
            views.append(RegionViews(region["_id"], localize(region["name"], locale), branch_views))
    return BrandBranches([branch.id for region in views for branch in region.branches], views)


def _by_name(fields: dict[str, Any]) -> tuple[str, ObjectId]:
    return fields["name"], fields["_id"]  # the name as rendered


def regions_with_availability(
    *, brand_id: str, car_id: str, modification_id: str, color_id: str, locale: Locale
) -> Page[Region]:
    """The regions that have branches of the brand, each with its branches and whether the branch has
    this modification in this color in stock (`available`); regions by their order, branches by name."""
    cars.check_chosen(car_id, modification_id, color_id, brand_id=brand_id)
    rendered = brand_branches(ObjectId(brand_id), locale)
    stocked = network.branches_with_stock(rendered.branch_ids, ObjectId(modification_id), ObjectId(color_id))
    items = _with_stock(rendered, stocked)
    return parametrized(Page, Region)(items=items, total=len(items))


def _with_stock(rendered: BrandBranches, stocked: set[ObjectId]) -> list[Region]:
    """The brand's regions as answered when these branches have the car in stock: what is kept, and what is
    not yet validated together, in one pydantic-core call, and kept."""
    kept = [views.with_stock(stocked) for views in rendered.regions]
    missing = [views for views, region in zip(rendered.regions, kept, strict=True) if region is None]
    built: list[Region] = []
    if missing:
        built = REGIONS.validate_python([views.fields(stocked) for views in missing])
        for views, region in zip(missing, built, strict=True):
            views.keep(region)
    fresh = iter(built)
    return [region if region is not None else next(fresh) for region in kept]


# A made-up region of two branches, for `warm_up` alone.
_WARM_UP_REGION: RegionRecord = {"_id": ObjectId(b"warm-up-regn"), "name": {"en": "Example"}, "slug": "example"}
_WARM_UP_BRANCHES: list[BranchRecord] = [
    {
        "_id": ObjectId(f"warm-up-{n:04d}".encode()),
        "slug": f"warm-up-{n}",
        "regionId": _WARM_UP_REGION["_id"],
        "brandIds": [],
        "name": {"ru": "Пример", "uz": "Namuna", "en": "Example"},
        "address": {"ru": "Пример", "uz": "Namuna", "en": "Example"},
        "phone": "+998000000000",
        "hours": {"ru": "Пример", "uz": "Namuna", "en": "Example"},
        "location": {"lat": 41.0, "lng": 69.0},
        "active": True,
    }
    for n in range(2)
]


def warm_up() -> None:
    """Before a SnapStart snapshot: render a made-up region of two branches in each locale and answer it with
    the car in stock at none, one and both, through the code a brand's first request runs (pydantic-core
    completes its validators' state on their first use). No database, no cache."""
    ids = [branch["_id"] for branch in _WARM_UP_BRANCHES]
    for locale in LOCALES:
        rendered = _render(_WARM_UP_BRANCHES, [_WARM_UP_REGION], locale)
        for stocked in (set(), set(ids[:1]), set(ids), set(ids[:1])):
            _with_stock(rendered, stocked)


def branch_detail(branch_id: str, *, locale: Locale) -> BranchDetail:
    branch = network.branch(branch_id)
    region, brands_sold = _branch_places(branch["regionId"], tuple(branch.get("brandIds", [])), locale)
    return BranchDetail(**_branch(branch, locale), region=region, brands=brands_sold)


@reference_data
def _branch_places(
    region_id: ObjectId, brand_ids: tuple[ObjectId, ...], locale: Locale
) -> tuple[Named | None, list[Named]]:
    """A branch's region and brands as answered, rendered once per locale and reference-data lifetime
    (shared, as any `reference_data`)."""
    region = network.region(region_id)
    names = brands.brand_names(brand_ids)
    return (
        Named(id=region["_id"], name=localize(region["name"], locale)) if region else None,
        [Named(id=brand, name=names[brand]) for brand in brand_ids if brand in names],
    )


def contacts() -> Contacts:
    found = documents.contacts()
    return Contacts(phone=found.get("phone"), tg=found.get("tg"))


def _document(doc: LegalDocument, loc: Locale) -> Document:
    return Document(
        id=doc["_id"],
        slug=doc["slug"],
        title=localize(doc.get("title"), loc),
        file=url(localize(doc.get("file"), loc)),
        format="markdown" if doc.get("markdown") else "pdf",
    )


def document(slug: str, *, locale: Locale) -> Document:
    """One document in the caller's locale (`file` is the link for that locale)."""
    return _document(documents.document(slug), locale)


def public_documents(*, locale: Locale) -> Page[Document]:
    found = documents.public_documents()
    return Page[Document](items=[_document(doc, locale) for doc in found], total=len(found))


def privacy_policy(*, locale: Locale) -> str:
    """The privacy policy as Markdown, in the caller's locale."""
    text = localize(documents.document(PRIVACY_POLICY).get("markdown"), locale)
    if not text:
        raise NotFound("DOCUMENT_NOT_FOUND")
    return str(text)
