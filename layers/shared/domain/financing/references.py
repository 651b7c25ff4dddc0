"""The ids a financing route is given, looked up and checked to belong together: 404 naming the one
that does not."""

from __future__ import annotations

from bson import ObjectId

from core.errors import NotFound
from domain.catalog import store as catalog
from domain.catalog.records import BrandRecord, CarRecord, ModificationRecord
from domain.financing import store
from domain.financing.records import OrganizationRecord


def brand(brand_id: str) -> BrandRecord:
    found = catalog.find_brand(brand_id)
    if found is None:
        raise NotFound("BRAND_NOT_FOUND")
    return found


def car_and_modification(
    modification_id: str, *, car_id: str | None = None, brand_id: str | None = None
) -> tuple[CarRecord, ModificationRecord]:
    """The car holding the modification, checked against the car and brand the client chose with it."""
    wanted = ObjectId(modification_id)  # once: the generator below would parse it again for each modification
    car = catalog.find_car_of_modification(wanted)
    if car is None:
        raise NotFound("MODIFICATION_NOT_FOUND")
    if car_id is not None and car["_id"] != ObjectId(car_id):
        raise NotFound("IDS_DO_NOT_MATCH", field="modificationId", parent="carId")
    if brand_id is not None and car["brandId"] != ObjectId(brand_id):
        raise NotFound("IDS_DO_NOT_MATCH", field="modificationId", parent="brandId")
    modification = next(m for m in car["modifications"] if m["_id"] == wanted)
    return car, modification


def organization(organization_id: str) -> OrganizationRecord:
    """The organization if it is active."""
    found = store.active_organizations([ObjectId(organization_id)])
    if not found:
        raise NotFound("ORGANIZATION_NOT_FOUND")
    return next(iter(found.values()))
