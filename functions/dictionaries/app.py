"""Dictionaries function: regions and branches, contacts, documents."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from core.models import Page
from dictionaries import service
from dictionaries.models import BranchDetail, Contacts, Document, Region
from domain.identity import callers
from edge import context, responses, snapstart
from edge.access import JWT, PUBLIC
from edge.app import create_app, lambda_entry
from edge.caching import READS_CACHE_CONTROL
from edge.envelope import Envelope
from edge.validation import MongoId

app = create_app(callers=callers, reads_cache_control=READS_CACHE_CONTROL)

RequiredId = Annotated[MongoId, Query()]
MARKDOWN = "text/markdown; charset=utf-8"


@app.get(
    "/api/v1/dictionaries/branch/regions",
    operation_id="listBranchRegions",
    middlewares=[JWT],
    summary="Regions and branches where a car can be bought, with stock",
    responses={404: {"description": "The brand, car, modification or color does not exist, or do not match"}},
)
def get_dictionaries_branch_regions(
    brandId: RequiredId, carId: RequiredId, modificationId: RequiredId, colorId: RequiredId
) -> Response[Envelope[Page[Region]]]:
    data = service.regions_with_availability(
        brand_id=brandId, car_id=carId, modification_id=modificationId, color_id=colorId, locale=context.locale()
    )
    return responses.ok(data)


@app.get("/api/v1/dictionaries/branch/<id>", operation_id="getBranch", middlewares=[JWT], summary="A branch")
def get_dictionaries_branch_by_id(id: MongoId) -> Response[Envelope[BranchDetail]]:
    return responses.ok(service.branch_detail(id, locale=context.locale()))


@app.get(
    "/api/v1/dictionaries/contacts",
    operation_id="getContacts",
    middlewares=[PUBLIC],
    summary="How to reach the call centre",
)
def get_dictionaries_contacts() -> Response[Envelope[Contacts]]:
    return responses.ok(service.contacts())


@app.get(
    "/api/v1/dictionaries/checkout-document",
    operation_id="getCheckoutDocument",
    middlewares=[JWT],
    summary="The contract a buyer accepts at checkout",
)
def get_dictionaries_checkout_document() -> Response[Envelope[Document]]:
    return responses.ok(service.document("checkout", locale=context.locale()))


@app.get("/api/v1/documents", operation_id="listDocuments", middlewares=[PUBLIC], summary="The public legal documents")
def get_documents() -> Response[Envelope[Page[Document]]]:
    return responses.ok(service.public_documents(locale=context.locale()))


@app.get("/api/v1/documents/offer", operation_id="getPublicOffer", middlewares=[PUBLIC], summary="The public offer")
def get_documents_offer() -> Response[Envelope[Document]]:
    return responses.ok(service.document("offer", locale=context.locale()))


@app.get(
    "/api/v1/documents/term-conditions",
    operation_id="getTermsAndConditions",
    middlewares=[PUBLIC],
    summary="The privacy policy, as Markdown",
    responses={
        200: {
            "description": "The policy in the caller's language, sent as it is, without the envelope",
            "content": {"text/markdown": {"schema": {"type": "string"}}},
        },
        404: {"description": "The policy is not published"},
    },
)
def get_documents_term_conditions() -> Response[str]:
    # The one response without the envelope (docs/INTERFACE.md): the policy as a Markdown body.
    return Response(status_code=200, content_type=MARKDOWN, body=service.privacy_policy(locale=context.locale()))


# A brand's first request renders its branches and validates its regions: exercised before the snapshot.
snapstart.before_snapshot(service.warm_up)
lambda_handler = lambda_entry(app)
