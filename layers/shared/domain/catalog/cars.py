"""A car of the catalog, found or 404 (CAR_NOT_FOUND), and the rule of a chosen car: a car with a
modification and a color of it, checked to belong together."""

from typing import NamedTuple

from bson import ObjectId

from core.errors import NotFound
from domain.catalog import store
from domain.catalog.records import CarRecord, ColorRecord, ModificationRecord


class ChosenCar(NamedTuple):
    """A car with the modification and color a client chose of it."""

    car: CarRecord
    modification: ModificationRecord
    color: ColorRecord


def car(car_id: str) -> CarRecord:
    """The car on sale with its modifications and colors."""
    found = store.find_car(car_id)
    if found is None:
        raise NotFound("CAR_NOT_FOUND")
    return found


def car_fields(car_id: str, *fields: str) -> CarRecord:
    """These fields of the car (dotted paths into its modifications or colors too)."""
    found = store.find_car_fields(car_id, *fields)
    if found is None:
        raise NotFound("CAR_NOT_FOUND")
    return found


def check_on_sale(car_id: ObjectId) -> None:
    """404 unless the car is on sale: nothing of it is read."""
    if not store.car_exists(car_id):
        raise NotFound("CAR_NOT_FOUND")


def chosen(car_id: str, modification_id: str, color_id: str, *, brand_id: str | None = None) -> ChosenCar:
    """The choice, checked to belong together (the one rule orders and dictionaries share): 404 naming
    the first id that does not, the car, its brand, the modification or the color."""
    found = car(car_id)
    if brand_id is not None and found["brandId"] != ObjectId(brand_id):
        raise NotFound("CAR_NOT_OF_BRAND")
    wanted_modification, wanted_color = ObjectId(modification_id), ObjectId(color_id)
    modification = next((mod for mod in found.get("modifications", []) if mod["_id"] == wanted_modification), None)
    if modification is None:
        raise NotFound("MODIFICATION_NOT_FOUND")
    color = next((color for color in found.get("colors", []) if color["_id"] == wanted_color), None)
    if color is None:
        raise NotFound("COLOR_NOT_FOUND")
    return ChosenCar(car=found, modification=modification, color=color)


def check_chosen(car_id: str, modification_id: str, color_id: str, *, brand_id: str) -> None:
    """`chosen`'s rule where nothing of the car is answered: one read of the car's id alone; only a choice
    that does not belong together reads the car again, to say which id does not."""
    ids = ObjectId(car_id), ObjectId(modification_id), ObjectId(color_id), ObjectId(brand_id)
    if not store.car_has_choice(*ids):
        chosen(car_id, modification_id, color_id, brand_id=brand_id)
