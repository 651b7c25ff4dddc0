"""Swagger UI at /api/docs in the local server, offline, serving the committed document, whose first
"Try it out" answers with data."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from pymongo.database import Database
from werkzeug.test import Client

from local.docs import DOCS_PREFIX, ApiDocs
from local.gateway import LambdaInstance, LocalApiGateway
from local.workers import WorkerServer
from tools.openapi import DOCUMENT


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


@pytest.fixture
def served(seeded: Database[dict[str, Any]]) -> Iterator[str]:
    """`make run`'s API and Swagger UI over HTTP on a free port, on the demo data."""
    instance = LambdaInstance()
    app = LocalApiGateway(extra={DOCS_PREFIX: ApiDocs()}, instance=instance)
    server = WorkerServer("127.0.0.1", 0, app, instance)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=30)


def _resolved(document: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in item:
        return item
    section, name = item["$ref"].split("/")[-2:]
    found: dict[str, Any] = document["components"][section][name]
    return found


def try_it_out(document: dict[str, Any], path: str, authorized: dict[str, str]) -> dict[str, Any]:
    """The GET request Swagger UI sends for "Try it out" of `path`, untouched: each parameter filled with
    its example (a default where it has none), and the headers of the first security requirement that
    what was given under Authorize satisfies."""
    operation = document["paths"][path]["get"]
    query: dict[str, Any] = {}
    headers: dict[str, str] = {}
    for listed in operation["parameters"]:
        parameter = _resolved(document, listed)
        value = parameter.get("example", parameter.get("schema", {}).get("default"))
        if value is not None:
            (query if parameter["in"] == "query" else headers)[parameter["name"]] = value
    schemes = document["components"]["securitySchemes"]
    requirement = next(option for option in operation["security"] if set(option) <= set(authorized))
    for name in requirement:
        headers[schemes[name]["name"]] = authorized[name]
    return {"params": query, "headers": headers}


@pytest.mark.parametrize("path", ["/api/v1/brands", "/api/v1/cars"])
def test_swaggers_first_try_it_out_after_authorize_answers_items_in_english(served: str, path: str) -> None:
    # Given the document the docs page loads, as it names it
    page = requests.get(f"{served}{DOCS_PREFIX}", timeout=30).text
    document_url = re.search(r'url: "([^"]+)"', page)
    assert document_url is not None, page
    document = requests.get(f"{served}{document_url.group(1)}", timeout=30).json()
    # And what its description tells a reader to fill under Authorize: every common header, the demo key
    text = document["info"]["description"]
    assert "**Authorize**" in text
    schemes = document["components"]["securitySchemes"]
    for name in ("userAgent", "fingerprint", "partnerKey"):
        assert f"`{schemes[name]['name']}`" in text, name
    partner_key = re.search(r"`client` \(the partner key: `([^`]+)` on `make run`\)", text)
    assert partner_key is not None, text
    authorized = {"userAgent": "Swagger UI", "fingerprint": "swagger", "partnerKey": partner_key.group(1)}
    # When the first "Try it out" is executed with what the form holds
    answer = requests.get(f"{served}{path}", timeout=60, **try_it_out(document, path, authorized))
    # Then it answers 200, in English, with items
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Language"] == "en"
    assert answer.json()["message"] == "Success"
    assert answer.json()["data"]["items"]
