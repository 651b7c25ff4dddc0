"""Every image and file a response names is an absolute URL that the local server serves: walk the GET
routes over the demo data, collect each image and file URL, fetch it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from bson import ObjectId
from pymongo.database import Database
from werkzeug.serving import make_server

from core.settings import reset_settings
from local.seed.core import DEMO_USER_PHONE
from local.seed.financing import LEASING_COMPANIES, organization_id
from local.static import ASSETS_PREFIX, assets_app
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
ASSET_KEYS = {"logo", "image", "gallery", "file", "icon", "photo"}
LOOKS_LIKE_A_FILE = re.compile(r"\.(svg|png|jpe?g|webp|gif|pdf|csv)(\?|$)", re.IGNORECASE)
CONTENT_TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".pdf": "application/pdf",
}
GRAPH = "/api/v1/payments/special-offers/graph"


@pytest.fixture
def images_api(seeded: Db, monkeypatch: pytest.MonkeyPatch) -> Iterator[ApiClient]:
    """The local server as `make run` serves it: the API and local/assets under one address, with
    ASSETS_BASE_URL pointing at it."""
    from local.gateway import LocalApiGateway, LocalRequestHandler

    app = LocalApiGateway(extra={ASSETS_PREFIX: assets_app()})
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=LocalRequestHandler)
    base = f"http://127.0.0.1:{server.server_port}"
    monkeypatch.setenv("ASSETS_BASE_URL", f"{base}{ASSETS_PREFIX}")
    reset_settings()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with ApiClient(base) as client:
        yield client
    server.shutdown()
    reset_settings()


def file_urls(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """(field, value) of every image or file field, and of any string that names a file, at any depth."""
    if isinstance(value, dict):
        for child_key, child in value.items():
            yield from file_urls(child, child_key)
    elif isinstance(value, list):
        for child in value:
            yield from file_urls(child, key)
    elif (key in ASSET_KEYS and value is not None) or (isinstance(value, str) and LOOKS_LIKE_A_FILE.search(value)):
        yield key, value


class Walk:
    """GETs routes and keeps each answer's `data` by route path."""

    def __init__(self, api: ApiClient) -> None:
        self.api = api
        self.seen: dict[str, list[Any]] = {}

    def get(self, path: str, **params: Any) -> Any:
        response = self.api.get(path, params=params)
        assert response.status_code == 200, (path, params, response.text)
        data = response.json()["data"]
        self.seen.setdefault(path, []).append(data)
        return data

    def catalog(self) -> list[Any]:
        brands = self.get("/api/v1/brands")["items"]  # answered whole: brands take no limit
        for brand in brands:
            self.get(f"/api/v1/brands/{brand['_id']}")
        for path in ("/api/v1/filters/bodies", "/api/v1/filters/powertrains", "/api/v1/filters/all"):
            self.get(path)
        cars = self.get("/api/v1/cars", limit=100)["items"]
        assert len(cars) >= 25
        for car in cars:
            self.get(f"/api/v1/cars/{car['_id']}")
            self.get(f"/api/v1/cars/{car['_id']}/info")
            self.get(f"/api/v1/cars/{car['_id']}/modifications")
        self.get("/api/v1/saved-cars")
        return brands

    def orders_and_dictionaries(self) -> None:
        for order in self.get("/api/v1/orders")["items"]:
            self.get(f"/api/v1/orders/{order['_id']}")
            self.get("/api/v1/order-logs/steps", orderId=order["_id"])
            self.get("/api/v1/transactions/history", orderId=order["_id"])
        car = self.get(f"/api/v1/cars/{self.seen['/api/v1/cars'][0]['items'][0]['_id']}")
        regions = self.get(
            "/api/v1/dictionaries/branch/regions",
            brandId=car["brand"]["_id"],
            carId=car["_id"],
            modificationId=car["modifications"][0]["_id"],
            colorId=car["colors"][0]["_id"],
        )["items"]
        for branch in [branch for region in regions for branch in region["branches"]][:5]:
            self.get(f"/api/v1/dictionaries/branch/{branch['_id']}")
        for path in ("/api/v1/dictionaries/contacts", "/api/v1/dictionaries/checkout-document", "/api/v1/documents"):
            self.get(path)
        self.get("/api/v1/documents/offer")

    def financing(self, brand_id: str, car: dict[str, Any]) -> None:
        """Every financing route for a car (the seed stores its demo cars' bank offers: nothing is written)."""
        modification = str(car["modifications"][0]["_id"])
        self.get("/api/v2/payments/types", modificationId=modification, brandId=brand_id)
        for slug in ("CREDIT", "LEASING", "INSTALLMENT"):
            self.get("/api/v1/payments/organizations", brandId=brand_id, slug=slug)
        self.get(
            "/api/v1/payments/installment", brandId=brand_id, paymentTypeId="INSTALLMENT", modificationId=modification
        )
        for company in LEASING_COMPANIES:
            self.get("/api/v1/payments/leasing", brandId=brand_id, organizationId=str(organization_id(company.slug)))
        banks = self.get("/api/v2/payments/banks", brandId=brand_id, carId=str(car["_id"]), modificationId=modification)
        chain = {"bankId": banks["items"][0]["_id"]}
        steps = (
            ("income-types", "bankId", "incomeTypeId"),
            ("initial-payment", "incomeTypeId", "initialPaymentId"),
            ("loan-terms", "initialPaymentId", "loanTermId"),
            ("refund-types", "loanTermId", "refundTypeId"),
        )
        for step, parent, field in steps:
            chain[field] = self.get(f"/api/v2/payments/banks/{step}", **{parent: chain[parent]})["items"][0]["_id"]
        self.get("/api/v2/payments/banks/calculate", **chain)
        offer_query = {"carId": str(car["_id"]), "modificationId": modification}
        for path in ("/api/v1/payments/special-offers", "/api/v1/payments/special-offers/leasing"):
            for offer in self.get(path, **offer_query)["items"]:
                self.get(GRAPH, **offer_query, offerId=offer["_id"])


def test_every_image_and_file_a_response_names_is_an_absolute_url_the_server_serves(
    images_api: ApiClient, seeded: Db
) -> None:
    api = images_api
    # Given the demo data and the demo user signed in
    api.login(DEMO_USER_PHONE)
    # When a client walks every GET route over it (financing for two brands' demo cars: every
    # organization serves every demo brand)
    walk = Walk(api)
    brands = walk.catalog()
    walk.orders_and_dictionaries()
    for brand in brands[:2]:
        car = seeded.cars.find_one({"brandId": ObjectId(brand["_id"])}, sort=[("slug", 1)])
        assert car is not None
        walk.financing(brand["_id"], car)
    seen = walk.seen
    found = {
        (path, field, url)
        for path, answers in seen.items()
        for data in answers
        for field, value in file_urls(data)
        for url in (value if isinstance(value, list) else [value])
    }
    # Then the bank, leasing and organization logos are among the images, and the schedule files too
    fields_by_path = {(path, field) for path, field, _ in found}
    assert ("/api/v2/payments/banks", "logo") in fields_by_path
    assert ("/api/v1/payments/organizations", "logo") in fields_by_path
    assert ("/api/v1/payments/leasing", "logo") in fields_by_path
    assert (GRAPH, "file") in fields_by_path
    # And every one is an absolute URL on the server, which serves it with its content type
    for path, field, url in sorted(found, key=str):
        assert isinstance(url, str), (path, field, url)
        assert url.startswith(f"{api.base_url}/"), (path, field, url)
    for url in sorted({url for _, _, url in found}):
        response = api.get(url.removeprefix(api.base_url))
        assert response.status_code == 200, url
        suffix = "." + urlsplit(url).path.rsplit(".", 1)[-1].lower()
        expected = "text/csv" if urlsplit(url).path == GRAPH else CONTENT_TYPES[suffix]
        assert response.headers["Content-Type"].startswith(expected), (url, response.headers["Content-Type"])
        assert response.content, url
