"""No answer built from the reference data set can grow past Lambda's 6 MB response limit: each route's
worst case is computed from the bounds of the published data set schema (`ops catalog schema`), with
every text at its most characters of the costliest kind, serialized as the function answers it and as
Lambda's runtime sends it (the proxy result's JSON, `\\uXXXX` escapes: a character outside the BMP costs
12 bytes, a quote in a URL 4)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from catalog.models import AllFilters
from core.serialization import to_json
from dictionaries.models import BranchAvailability, BranchDetail, Document, Location, Region
from domain.catalog.models import BrandItem, CarDetail, CarItem, InfoBlock, Modification, Option
from domain.dataset.models import OFFERS_PER_CAR, SECTION_LIMITS
from domain.financing.models import CreditFigures, InstallmentCell, LeasingFigures, Organization
from edge.validation import MAX_PAGE_SIZE
from ops.catalog import schema_text
from payments.models import BankOffer, BankOfferTerms, InitialPaymentRef, LeasingProgram, LoanTermRef

LAMBDA_RESPONSE_BYTES = 6 * 2**20  # a synchronous invocation's response payload
HEADERS = {  # more than the gateway's answers carry (CORS, ETag, Content-Language, request id, cache)
    f"X-Header-{n}": "x" * 200 for n in range(20)
}
ID = "0123456789abcdef01234567"
WIDE = "\U0001f697"  # 🚗: 4 bytes of UTF-8, 12 in the runtime's escaped JSON
QUOTE = '"'  # the costliest printable ASCII character of a URL: \\\" in the runtime's JSON


@cache
def definitions() -> dict[str, Any]:
    defs: dict[str, Any] = json.loads(schema_text())["$defs"]
    return defs


def prop(model: str, name: str) -> dict[str, Any]:
    node: dict[str, Any] = definitions()[model]["properties"][name]
    return next((option for option in node.get("anyOf", []) if option.get("type") != "null"), node)


def text(model: str, name: str) -> str:
    """The costliest text the schema allows in this field: its most characters, each the costliest."""
    node = prop(model, name)
    wide = node.get("pattern") != "^[!-~]+$"  # printable ASCII (URLs, asset keys) or any character
    return (WIDE if wide else QUOTE) * node["maxLength"]


def localized(model: str) -> str:
    return text(model, "en")  # an answer carries one language, the caller's


def most(model: str, name: str) -> int:
    count: int = prop(model, name)["maxItems"]
    return count


def payload_bytes(data: Any) -> int:
    """What Lambda sends for a 200 answer of `data`: the envelope as the edge serializes it, in the proxy
    result as the Python runtime serializes it (json.dumps, ASCII escapes)."""
    body = to_json({"success": True, "statusCode": 200, "message": "Success", "data": data})
    result = {"statusCode": 200, "headers": HEADERS, "body": body, "isBase64Encoded": False}
    return len(json.dumps(result).encode())


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True)


def option(with_image: bool) -> Option:
    image = text("BodyType", "image") if with_image else None
    return Option.model_validate({"_id": ID, "slug": "a" * 100, "name": localized("LocalizedName"), "image": image})


def car_item() -> dict[str, Any]:
    return {
        "_id": ID,
        "slug": "a" * 100,
        "name": localized("LocalizedName"),
        "priceFrom": 2**63 - 1,
        "image": text("Car", "image"),
        "year": 2100,
        "isNew": True,
        "saleStartsAt": "2026-12-01T10:00:00+05:00",
        "brand": {"_id": ID, "name": text("Brand", "name")},
        "bodyTypeId": ID,
        "powertrainId": ID,
        "saved": True,
    }


def brand_item() -> BrandItem:
    return BrandItem.model_validate(
        {
            "_id": ID,
            "slug": "a" * 100,
            "name": text("Brand", "name"),
            "logo": text("Brand", "logo"),
            "country": localized("LocalizedName"),
        }
    )


def cars_page() -> Any:
    items = [dump(CarItem.model_validate(car_item())) for _ in range(MAX_PAGE_SIZE)]
    return {"items": items, "total": 10**9, "exact": False}


def brands_page() -> Any:
    return {"items": [dump(brand_item())] * SECTION_LIMITS["brands"], "total": SECTION_LIMITS["brands"]}


def all_filters() -> Any:
    filters = AllFilters.model_validate(
        {
            "brands": {"items": [brand_item()] * SECTION_LIMITS["brands"], "total": SECTION_LIMITS["brands"]},
            "bodyTypes": {"items": [option(True)] * SECTION_LIMITS["bodyTypes"], "total": 1},
            "powertrains": {"items": [option(False)] * SECTION_LIMITS["powertrains"], "total": 1},
            "price": {"min": 0, "max": 2**63 - 1},
        }
    )
    return dump(filters)


def sale_terms() -> dict[str, Any]:
    """A sale's rules at their longest, with its opening's files on a long distribution name."""
    edge = f"https://{'d' * 63}.cloudfront.net/sales/{ID}"
    return {
        "startsAt": "2026-12-01T10:00:00Z",
        "depositAmount": 2**63 - 1,
        "holdMinutes": 2**63 - 1,
        "perPersonLimit": {"count": 2**63 - 1, "days": 2**63 - 1},
        "verifiedBuyersOnly": True,
        "queue": {
            "registrationOpensAt": "2026-11-24T10:00:00Z",
            "admissionPerSecond": 2**63 - 1,
            "admissionMinutes": 2**63 - 1,
            "statusUrl": f"{edge}/status.json",
            "drawUrl": f"{edge}/draw.json",
        },
    }


def car_detail() -> Any:
    detail = {
        **car_item(),
        "brand": {"_id": ID, "name": text("Brand", "name"), "logo": text("Brand", "logo")},
        "description": localized("LocalizedDescription"),
        "gallery": [text("Car", "image")] * most("Car", "gallery"),
        "paymentTypes": ["CASH", "CREDIT", "LEASING", "INSTALLMENT"],
        "bodyType": option(True),
        "powertrain": option(False),
        "sale": sale_terms(),
        "modifications": [
            {"_id": ID, "name": text("ModificationEntry", "name"), "price": 2**63 - 1, "sale": sale_terms()}
        ]
        * most("Car", "modifications"),
        "colors": [{"_id": ID, "name": localized("LocalizedName"), "hex": "#FFFFFF", "image": text("Color", "image")}]
        * most("Car", "colors"),
    }
    return dump(CarDetail.model_validate(detail))


def modifications_page() -> Any:
    spec = {"name": localized("LocalizedSpec"), "value": localized("LocalizedSpec")}
    section = {"title": localized("LocalizedTitle"), "items": [spec] * most("SpecSectionEntry", "items")}
    modification = {
        "_id": ID,
        "name": text("ModificationEntry", "name"),
        "price": 2**63 - 1,
        "specs": [section] * most("ModificationEntry", "specs"),
    }
    count = most("Car", "modifications")
    return {"items": [dump(Modification.model_validate(modification))] * count, "total": count}


def info_page() -> Any:
    block = {
        "_id": ID,
        "title": localized("LocalizedTitle"),
        "description": localized("LocalizedDescription"),
        "image": text("InfoBlockEntry", "image"),
    }
    count = most("Car", "info")
    return {"items": [dump(InfoBlock.model_validate(block))] * count, "total": count}


def markdown_document() -> Any:
    return localized("LocalizedMarkdown")  # GET /documents/term-conditions: one document's text


# --- the financing routes: their models' texts as above, every other field a number of 21 digits (more
# than any sum, percent or enum of them takes), ids and times as they are.


def filled(model: Any, **given: Any) -> dict[str, Any]:
    """A response of `model` as a dict: the fields `given`, an id for each id, a 21-digit number for the rest."""

    def worst(name: str) -> Any:
        if name == "id" or name.endswith("Id"):
            return ID
        return "2026-12-01T10:00:00+05:00" if name == "validUntil" else 10**20

    return {name: given[name] if name in given else worst(name) for name in model.model_fields}


def organization() -> dict[str, Any]:
    return filled(Organization, name=text("OrganizationEntry", "name"), logo=text("OrganizationEntry", "logo"))


def bank_offers() -> Any:
    """GET /payments/banks: an offer per credit product of the car's brand (all of them, at most)."""
    offer = filled(
        BankOffer,
        name=text("OrganizationEntry", "name"),
        logo=text("OrganizationEntry", "logo"),
        bank=organization(),
        product=localized("LocalizedName"),
    )
    return {"items": [offer] * SECTION_LIMITS["creditProducts"], "total": SECTION_LIMITS["creditProducts"]}


def special_offers() -> Any:
    """GET /payments/special-offers: every offer of the car, at most OFFERS_PER_CAR."""
    figures = {**filled(CreditFigures), **filled(LeasingFigures)}
    offer = {
        **figures,
        "id": ID,
        "kind": "LEASING",
        "title": localized("LocalizedTitle"),
        "description": localized("LocalizedDescription"),
        "organization": organization(),
        "validUntil": "2026-12-01T10:00:00+05:00",
        "modificationId": ID,
        "terms": {**filled(BankOfferTerms), **filled(LeasingFigures)},
    }
    return {"price": 10**20, "items": [offer] * OFFERS_PER_CAR, "total": OFFERS_PER_CAR}


def installment_matrix() -> Any:
    """GET /payments/installment: every plan of the brand, each its rows by its terms."""
    terms = most("InstallmentPlanEntry", "terms")
    row = {"initialPercent": 100, "initialPayment": 10**20, "cells": [filled(InstallmentCell)] * terms}
    plan = {
        "id": ID,
        "name": localized("LocalizedName"),
        "organization": organization(),
        "terms": [600] * terms,
        "rows": [row] * most("InstallmentPlanEntry", "rows"),
    }
    count = SECTION_LIMITS["installmentPlans"]
    return {"price": 10**20, "modificationId": ID, "items": [plan] * count, "total": count}


def leasing_programs() -> Any:
    """GET /payments/leasing: every program of the brand and company."""
    program = filled(
        LeasingProgram,
        name=localized("LocalizedName"),
        organization=organization(),
        loanTerms=[filled(LoanTermRef)] * most("LeasingProgramEntry", "loanTerms"),
        initialPayments=[filled(InitialPaymentRef)] * most("LeasingProgramEntry", "initialPayments"),
    )
    return {"items": [program] * SECTION_LIMITS["leasingPrograms"], "total": SECTION_LIMITS["leasingPrograms"]}


# --- where to buy and the documents


def branch(model: Any) -> dict[str, Any]:
    return filled(
        model,
        name=localized("LocalizedName"),
        address=localized("LocalizedTitle"),
        phone="+998712001201",
        hours=localized("LocalizedTitle"),
        location=filled(Location),
        available=True,
    )


def regions() -> Any:
    """GET /dictionaries/branch/regions: every region, with every branch of the brand (all, at most)."""
    branches = [branch(BranchAvailability)] * SECTION_LIMITS["branches"]
    region = filled(Region, name=localized("LocalizedName"), available=True, branches=[])
    listed = [region] * (SECTION_LIMITS["regions"] - 1) + [{**region, "branches": branches}]
    return {"items": listed, "total": SECTION_LIMITS["regions"]}


def branch_detail() -> Any:
    brands = [{"_id": ID, "name": text("Brand", "name")}] * most("BranchEntry", "brandIds")
    return {**branch(BranchDetail), "region": {"_id": ID, "name": localized("LocalizedName")}, "brands": brands}


def documents() -> Any:
    document = filled(
        Document, slug="a" * 100, title=localized("LocalizedTitle"), file=text("LocalizedAsset", "en"), format="pdf"
    )
    return {"items": [document] * SECTION_LIMITS["documents"], "total": SECTION_LIMITS["documents"]}


WORST_ANSWERS = {
    "GET /cars?limit=100": cars_page,
    "GET /brands": brands_page,
    "GET /filters/all": all_filters,
    "GET /cars/{id}": car_detail,
    "GET /cars/{id}/modifications": modifications_page,
    "GET /cars/{id}/info": info_page,
    "GET /documents/term-conditions": markdown_document,
    "GET /payments/banks": bank_offers,
    "GET /payments/special-offers": special_offers,
    "GET /payments/installment": installment_matrix,
    "GET /payments/leasing": leasing_programs,
    "GET /dictionaries/branch/regions": regions,
    "GET /dictionaries/branch/{id}": branch_detail,
    "GET /documents": documents,
}


@pytest.mark.parametrize("route", WORST_ANSWERS)
def test_the_worst_answer_the_bounds_allow_fits_in_a_lambda_response(route: str) -> None:
    # Given the costliest data the published bounds allow / When the route answers it
    size = payload_bytes(WORST_ANSWERS[route]())
    # Then the answer Lambda sends is under its 6 MB limit
    assert size < LAMBDA_RESPONSE_BYTES, f"{route}: {size:,} bytes"


def test_a_wide_character_costs_what_the_worst_case_counts() -> None:
    # Given one character outside the BMP and one quote / Then the runtime's JSON takes 12 and 4 bytes
    empty = payload_bytes("")
    assert payload_bytes(WIDE) - empty == 12
    assert payload_bytes(QUOTE) - empty == 4
