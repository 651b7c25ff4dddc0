"""Responses of the catalog routes that this function alone builds: the catalog's filters. The cars,
brands and options the domain renders (`domain.catalog.views`, `items`) are in `domain.catalog.models`."""

from pydantic import Field

from core.models import ApiModel, Page
from domain.catalog.models import BrandItem, Option


class PriceRange(ApiModel):
    min: int = Field(ge=0, description="the lowest `priceFrom` in the catalog, in sums (0 when empty)")
    max: int = Field(ge=0, description="the highest `priceFrom` in the catalog, in sums (0 when empty)")


class AllFilters(ApiModel):
    brands: Page[BrandItem]
    bodyTypes: Page[Option]
    powertrains: Page[Option]
    price: PriceRange
