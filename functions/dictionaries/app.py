"""Dictionaries function: regions and branches, contacts, documents."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from common import responses
from common.access import JWT
from common.app import create_app, lambda_entry
from common.validation import MongoId
from dictionaries import service

app = create_app()

RequiredId = Annotated[MongoId, Query()]
MARKDOWN = "text/markdown; charset=utf-8"


@app.get("/api/v1/dictionaries/branch/regions", middlewares=[JWT])
def get_dictionaries_branch_regions(
    brandId: RequiredId, carId: RequiredId, modificationId: RequiredId, colorId: RequiredId
):
    data = service.regions_with_availability(
        brand_id=brandId, car_id=carId, modification_id=modificationId, color_id=colorId
    )
    return responses.ok(data)


@app.get("/api/v1/dictionaries/branch/<id>", middlewares=[JWT])
def get_dictionaries_branch_by_id(id: MongoId):
    return responses.ok(service.branch_detail(id))


@app.get("/api/v1/dictionaries/contacts")
def get_dictionaries_contacts():
    return responses.ok(service.contacts())


@app.get("/api/v1/dictionaries/checkout-document", middlewares=[JWT])
def get_dictionaries_checkout_document():
    return responses.ok(service.document("checkout"))


@app.get("/api/v1/documents")
def get_documents():
    return responses.ok(service.public_documents())


@app.get("/api/v1/documents/offer")
def get_documents_offer():
    return responses.ok(service.document("offer"))


@app.get("/api/v1/documents/term-conditions")
def get_documents_term_conditions():
    # The one response without the envelope (docs/INTERFACE.md): the policy as a Markdown body.
    return Response(status_code=200, content_type=MARKDOWN, body=service.privacy_policy())


lambda_handler = lambda_entry(app)
