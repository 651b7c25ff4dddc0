"""Dictionaries function: regions and branches, contacts, documents."""

from __future__ import annotations

from common.access import JWT
from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.get("/api/v1/dictionaries/branch/regions", middlewares=[JWT])
def get_dictionaries_branch_regions():
    raise NotImplementedYet()


@app.get("/api/v1/dictionaries/branch/<id>", middlewares=[JWT])
def get_dictionaries_branch_by_id(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/dictionaries/contacts")
def get_dictionaries_contacts():
    raise NotImplementedYet()


@app.get("/api/v1/dictionaries/checkout-document", middlewares=[JWT])
def get_dictionaries_checkout_document():
    raise NotImplementedYet()


@app.get("/api/v1/documents")
def get_documents():
    raise NotImplementedYet()


@app.get("/api/v1/documents/offer")
def get_documents_offer():
    raise NotImplementedYet()


@app.get("/api/v1/documents/term-conditions")
def get_documents_term_conditions():
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
