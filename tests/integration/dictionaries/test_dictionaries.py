"""Dictionaries and documents through HTTP: regions with branch availability, branch details,
contacts, the checkout document and the public documents."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from core.clock import FrozenClock
from core.settings import reset_settings
from tests.data import CatalogCar, insert_branch, insert_car, insert_region, purchasable_car, text
from tests.factories import ApiClient

REGIONS = "/api/v1/dictionaries/branch/regions"
ASSETS = "http://127.0.0.1:3000/assets"


def query(car: CatalogCar, **overrides: Any) -> dict[str, str]:
    ids = {
        "brandId": car.brand_id,
        "carId": car.car_id,
        "modificationId": car.modification_id,
        "colorId": car.color_id,
        **overrides,
    }
    return {name: str(value) for name, value in ids.items()}


@pytest.fixture
def car(db: Database[dict[str, Any]]) -> CatalogCar:
    return purchasable_car(db)


@pytest.fixture
def signed_in(api: ApiClient) -> ApiClient:
    api.login()
    return api


# --- regions with availability ------------------------------------------------------------------


def test_regions_list_the_brand_branches_with_availability(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar
) -> None:
    # Given a second region whose branch sells the brand but has none of this car in stock,
    # and a branch of another brand
    samarkand = insert_region(db, "Samarkand")
    db.regions.update_one({"_id": samarkand}, {"$set": {"order": 2}})
    empty = insert_branch(db, samarkand, [car.brand_id], name="Registon")
    insert_branch(db, samarkand, [ObjectId()], name="Other brand")
    # When the signed-in client asks where the car can be bought
    response = signed_in.get(REGIONS, params=query(car), headers={"accept-language": "ru"})
    # Then each region lists the brand's branches, with stock marked per branch
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["total"] == 2
    tashkent, samarkand_view = data["items"]
    assert tashkent["_id"] == str(car.region_id)
    assert tashkent["name"] == "Tashkent (ru)"
    assert tashkent["available"] is True
    assert tashkent["branches"] == [
        {
            "_id": str(car.branch_id),
            "name": "Chilonzor dealer (ru)",
            "address": "Chilonzor street 1 (ru)",
            "phone": "+998712000000",
            "hours": "09:00-18:00 (ru)",
            "location": {"lat": 41.28, "lng": 69.2},
            "available": True,
        }
    ]
    assert samarkand_view["available"] is False
    assert [(b["_id"], b["available"]) for b in samarkand_view["branches"]] == [(str(empty), False)]


def test_a_region_lists_which_of_its_branches_have_the_car(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar
) -> None:
    # Given a second branch of the brand in the car's region, without the car, named to sort first
    second = insert_branch(db, car.region_id, [car.brand_id], name="Almazar")
    # When the client asks where the car can be bought
    response = signed_in.get(REGIONS, params=query(car), headers={"accept-language": "en"})
    # Then the region has the car, and its branches say which of them has it, by name
    (region,) = response.json()["data"]["items"]
    assert region["available"] is True
    assert [(b["name"], b["available"]) for b in region["branches"]] == [
        ("Almazar dealer", False),
        ("Chilonzor dealer", True),
    ]
    assert [b["_id"] for b in region["branches"]] == [str(second), str(car.branch_id)]


@pytest.fixture
def cached(monkeypatch: pytest.MonkeyPatch, frozen_clock: FrozenClock) -> FrozenClock:
    """Reference data cached for 60 s, as deployed; the clock that ends its lifetime."""
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    reset_settings()
    return frozen_clock


def _availability(answer: Any) -> list[tuple[str, bool]]:
    return [(b["name"], b["available"]) for region in answer.json()["data"]["items"] for b in region["branches"]]


def test_branches_rendered_once_still_show_live_stock(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar, cached: FrozenClock
) -> None:
    # Given an instance that has answered where the car can be bought, in stock at its branch
    assert _availability(signed_in.get(REGIONS, params=query(car))) == [("Chilonzor dealer", True)]
    # When the branch sells its last one, and then gets one back, within the reference data's lifetime
    db.stock.update_many({"branchId": car.branch_id}, {"$set": {"quantity": 0}})
    sold_out = signed_in.get(REGIONS, params=query(car))
    db.stock.update_many({"branchId": car.branch_id}, {"$set": {"quantity": 1}})
    back = signed_in.get(REGIONS, params=query(car))
    # Then each answer says what the branch has at that moment
    assert _availability(sold_out) == [("Chilonzor dealer", False)]
    assert sold_out.json()["data"]["items"][0]["available"] is False
    assert _availability(back) == [("Chilonzor dealer", True)]


def test_a_region_rendered_once_answers_every_mix_of_stock_as_rendered_afresh(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar, cached: FrozenClock
) -> None:
    # Given a second branch of the brand in the car's region, and the answer of an instance whose
    # rendering is fresh for each mix of stock (none, some, all of the region's branches)
    second = insert_branch(db, car.region_id, [car.brand_id], name="Almazar")
    db.stock.update_many({"branchId": car.branch_id}, {"$set": {"quantity": 0}})
    stock = list(db.stock.find({"branchId": car.branch_id}, {"_id": 0}))
    db.stock.insert_many([{**row, "branchId": second} for row in stock])

    def with_stock_at(*branches: ObjectId) -> Any:
        db.stock.update_many({}, {"$set": {"quantity": 0}})
        db.stock.update_many({"branchId": {"$in": list(branches)}}, {"$set": {"quantity": 1}})
        return signed_in.get(REGIONS, params=query(car)).json()

    mixes = [(), (car.branch_id,), (car.branch_id, second), (second,), ()]
    fresh = []
    for mix in mixes:
        cached.advance(61)  # past the lifetime: rendered again for this answer
        fresh.append(with_stock_at(*mix))
    # When one rendering answers each mix in turn, within its lifetime
    cached.advance(61)
    within = [with_stock_at(*mix) for mix in mixes]
    # Then each answer is the one rendered afresh for it
    assert within == fresh
    assert [region["available"] for answer in within for region in answer["data"]["items"]] == [
        False,
        True,
        True,
        True,
        False,
    ]


def test_a_renamed_branch_shows_once_the_reference_lifetime_is_over(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar, cached: FrozenClock
) -> None:
    # Given an instance that has answered where the car can be bought
    assert _availability(signed_in.get(REGIONS, params=query(car))) == [("Chilonzor dealer", True)]
    # When an operator renames the branch, and the instance is asked within the lifetime and after it
    db.branches.update_one({"_id": car.branch_id}, {"$set": {"name.en": "Chilonzor motors"}})
    cached.advance(59)
    within = signed_in.get(REGIONS, params=query(car), headers={"accept-language": "en"})
    cached.advance(2)
    after = signed_in.get(REGIONS, params=query(car), headers={"accept-language": "en"})
    # Then the old name is answered until the lifetime is over, the new one after it
    assert _availability(within) == [("Chilonzor dealer", True)]
    assert _availability(after) == [("Chilonzor motors", True)]


def test_a_branch_with_zero_quantity_is_not_available(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar
) -> None:
    db.stock.update_many({"branchId": car.branch_id, "colorId": car.color_id}, {"$set": {"quantity": 0}})
    response = signed_in.get(REGIONS, params=query(car))
    assert response.json()["data"]["items"][0]["branches"][0]["available"] is False
    other_color = signed_in.get(REGIONS, params=query(car, colorId=car.color_ids[1]))
    assert other_color.json()["data"]["items"][0]["branches"][0]["available"] is True


def test_an_inactive_branch_is_not_listed(signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar) -> None:
    db.branches.update_one({"_id": car.branch_id}, {"$set": {"active": False}})
    assert signed_in.get(REGIONS, params=query(car)).json()["data"] == {"items": [], "total": 0}


def test_ids_that_do_not_belong_together_are_404(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar
) -> None:
    # Given another car of the same brand
    other = insert_car(db, car.brand_id, name="Onix")
    cases = {
        "Car not found": query(car, carId=ObjectId()),
        "This car is not a model of this brand": query(car, brandId=ObjectId()),
        "Modification not found": query(car, modificationId=other["modifications"][0]["_id"]),
        "Color not found for this car": query(car, colorId=other["colors"][0]["_id"]),
    }
    for message, params in cases.items():
        response = signed_in.get(REGIONS, params=params)
        assert response.status_code == 404, message
        assert response.json()["message"] == message


@pytest.mark.parametrize("name", ["brandId", "carId", "modificationId", "colorId"])
def test_regions_need_every_id_well_formed(signed_in: ApiClient, car: CatalogCar, name: str) -> None:
    malformed = signed_in.get(REGIONS, params=query(car, **{name: "123"}))
    assert malformed.status_code == 400
    assert [error["field"] for error in malformed.json()["errors"]] == [f"query.{name}"]
    params = query(car)
    del params[name]
    missing = signed_in.get(REGIONS, params=params)
    assert missing.status_code == 400
    assert [error["field"] for error in missing.json()["errors"]] == [f"query.{name}"]


def test_regions_and_branch_need_a_token(api: ApiClient, car: CatalogCar) -> None:
    assert api.get(REGIONS, params=query(car)).status_code == 401
    assert api.get(f"/api/v1/dictionaries/branch/{car.branch_id}").status_code == 401
    assert api.get("/api/v1/dictionaries/checkout-document").status_code == 401


# --- branch -------------------------------------------------------------------------------------


def test_branch_detail(signed_in: ApiClient, car: CatalogCar) -> None:
    response = signed_in.get(f"/api/v1/dictionaries/branch/{car.branch_id}", headers={"accept-language": "en"})
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["_id"] == str(car.branch_id)
    assert data["name"] == "Chilonzor dealer"
    assert data["address"] == "Chilonzor street 1"
    assert data["hours"] == "09:00-18:00"
    assert data["region"] == {"_id": str(car.region_id), "name": "Tashkent"}
    assert data["brands"] == [{"_id": str(car.brand_id), "name": "Chevrolet"}]


def test_a_branch_shows_its_renamed_region_once_the_reference_lifetime_is_over(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar, cached: FrozenClock
) -> None:
    # Given an instance that has answered a branch's details
    path = f"/api/v1/dictionaries/branch/{car.branch_id}"
    english = {"accept-language": "en"}
    assert signed_in.get(path, headers=english).json()["data"]["region"]["name"] == "Tashkent"
    # When an operator renames its region, and the instance is asked within the lifetime and after it
    db.regions.update_one({"_id": car.region_id}, {"$set": {"name.en": "Tashkent City"}})
    cached.advance(59)
    within = signed_in.get(path, headers=english).json()["data"]
    cached.advance(2)
    after = signed_in.get(path, headers=english).json()["data"]
    # Then the old name is answered until the lifetime is over, the new one after it
    assert (within["region"]["name"], after["region"]["name"]) == ("Tashkent", "Tashkent City")
    assert after["brands"] == [{"_id": str(car.brand_id), "name": "Chevrolet"}]


def test_unknown_inactive_or_malformed_branch(
    signed_in: ApiClient, db: Database[dict[str, Any]], car: CatalogCar
) -> None:
    assert signed_in.get(f"/api/v1/dictionaries/branch/{ObjectId()}").status_code == 404
    assert signed_in.get("/api/v1/dictionaries/branch/nope").status_code == 400
    db.branches.update_one({"_id": car.branch_id}, {"$set": {"active": False}})
    assert signed_in.get(f"/api/v1/dictionaries/branch/{car.branch_id}").status_code == 404


# --- contacts and documents ---------------------------------------------------------------------


@pytest.fixture
def documents(db: Database[dict[str, Any]]) -> None:
    files = {locale: f"documents/{{}}-{locale}.pdf" for locale in ("ru", "uz", "en")}
    db.documents.insert_many(
        [
            {
                "_id": ObjectId(),
                "slug": "offer",
                "title": text("Public offer"),
                "file": {locale: path.format("offer") for locale, path in files.items()},
                "order": 1,
                "public": True,
            },
            {
                "_id": ObjectId(),
                "slug": "privacy-policy",
                "title": text("Privacy policy"),
                "file": None,
                "markdown": {"ru": "# Политика", "uz": "# Siyosat", "en": "# Policy\n\nWe keep little."},
                "order": 2,
                "public": True,
            },
            {
                "_id": ObjectId(),
                "slug": "checkout",
                "title": text("Sales contract"),
                "file": {"ru": "https://cdn.example.com/checkout-ru.pdf", "uz": "documents/checkout-uz.pdf"},
                "order": 3,
                "public": False,
            },
        ]
    )


def test_contacts(api: ApiClient, db: Database[dict[str, Any]]) -> None:
    assert api.get("/api/v1/dictionaries/contacts").status_code == 404
    db.settings.insert_one({"_id": "contacts", "phone": "+998712023030", "tg": "https://t.me/car_retail_uz"})
    response = api.get("/api/v1/dictionaries/contacts")
    assert response.status_code == 200
    assert response.json()["data"] == {"phone": "+998712023030", "tg": "https://t.me/car_retail_uz"}


@pytest.mark.parametrize(
    ("locale", "file"),
    [
        ("ru", "https://cdn.example.com/checkout-ru.pdf"),
        ("uz", f"{ASSETS}/documents/checkout-uz.pdf"),
        ("en", f"{ASSETS}/documents/checkout-uz.pdf"),  # no English file: the uz one
    ],
)
def test_checkout_document_is_chosen_by_locale(signed_in: ApiClient, documents: None, locale: str, file: str) -> None:
    response = signed_in.get("/api/v1/dictionaries/checkout-document", headers={"accept-language": locale})
    assert response.status_code == 200
    assert response.json()["data"]["file"] == file


def test_documents_list_only_public_documents(api: ApiClient, documents: None) -> None:
    response = api.get("/api/v1/documents", headers={"accept-language": "en"})
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["total"] == 2
    assert [(d["slug"], d["title"], d["format"]) for d in data["items"]] == [
        ("offer", "Public offer", "pdf"),
        ("privacy-policy", "Privacy policy", "markdown"),
    ]
    assert data["items"][0]["file"] == f"{ASSETS}/documents/offer-en.pdf"
    assert data["items"][1]["file"] is None


def test_offer_is_a_file_link(api: ApiClient, documents: None) -> None:
    response = api.get("/api/v1/documents/offer", headers={"accept-language": "ru"})
    assert response.status_code == 200
    assert response.json()["data"]["file"] == f"{ASSETS}/documents/offer-ru.pdf"


@pytest.mark.parametrize(("locale", "text_start"), [("en", "# Policy"), ("ru", "# Политика"), (None, "# Siyosat")])
def test_term_conditions_is_markdown_without_the_envelope(
    api: ApiClient, documents: None, locale: str | None, text_start: str
) -> None:
    response = api.get("/api/v1/documents/term-conditions", headers={"accept-language": locale})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content.decode("utf-8").startswith(text_start)


def test_missing_documents_are_404_in_the_envelope(api: ApiClient, signed_in: ApiClient) -> None:
    for path in (
        "/api/v1/documents/offer",
        "/api/v1/documents/term-conditions",
        "/api/v1/dictionaries/checkout-document",
    ):
        response = signed_in.get(path)
        assert response.status_code == 404
        assert response.json()["success"] is False
    assert api.get("/api/v1/documents").json()["data"] == {"items": [], "total": 0}
