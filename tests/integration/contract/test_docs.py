"""Swagger UI at /api/docs in the local server, offline, serving the committed document."""

from __future__ import annotations

import json

import pytest
from werkzeug.test import Client

from local.docs import DOCS_PREFIX, ApiDocs
from local.gateway import LocalApiGateway
from ops.openapi import DOCUMENT


@pytest.fixture(scope="module")
def client() -> Client:
    return Client(LocalApiGateway(extra={DOCS_PREFIX: ApiDocs()}))


def test_docs_page_is_swagger_ui_with_local_assets(client: Client) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.content_type.startswith("text/html")
    page = response.get_data(as_text=True)
    assert "SwaggerUIBundle" in page
    # Assets come from this server, never a CDN
    assert "/api/docs/swagger-ui-bundle.min.js" in page
    assert "/api/docs/swagger-ui.min.css" in page
    assert "https://" not in page.split("spec:")[0]
    for asset, kind in (("swagger-ui-bundle.min.js", "javascript"), ("swagger-ui.min.css", "css")):
        served = client.get(f"/api/docs/{asset}")
        assert served.status_code == 200
        assert kind in served.content_type
        assert len(served.get_data()) > 10_000


@pytest.mark.parametrize("path", ["/api/docs/openapi.json", "/api/docs?format=json"])
def test_docs_serve_the_committed_document(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.content_type == "application/json"
    assert response.get_json() == json.loads(DOCUMENT.read_text(encoding="utf-8"))


def test_unknown_docs_paths_are_404_in_the_envelope_and_the_api_is_still_served(client: Client) -> None:
    response = client.get("/api/docs/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["message"] == "Route not found"
    # The API itself is untouched by the mount: its gate answers
    assert client.get("/api/v1/auth/me").status_code == 400
