"""Swagger UI for the committed openapi.json at /api/docs (development only, works offline).

The Swagger UI script and stylesheet are the ones Powertools ships inside its package, so no CDN is
needed. The document is read on every request: `make openapi` shows without a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi import swagger_ui
from aws_lambda_powertools.event_handler.openapi.swagger_ui.html import generate_swagger_html
from werkzeug.wrappers import Request, Response

from local.template import ROOT

DOCS_PREFIX = "/api/docs"
SWAGGER_ASSETS = {
    "swagger-ui-bundle.min.js": "application/javascript",
    "swagger-ui.min.css": "text/css",
}


class ApiDocs:
    """WSGI app: `/api/docs` (Swagger UI), `/api/docs/openapi.json` (also `?format=json`) and the assets."""

    def __init__(self, document: Path = ROOT / "openapi.json", prefix: str = DOCS_PREFIX) -> None:
        self.document = document
        self.prefix = prefix.rstrip("/")
        self.assets = Path(swagger_ui.__file__).parent

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return self.respond(Request(environ))(environ, start_response)

    def respond(self, request: Request) -> Response:
        name = request.path.removeprefix(self.prefix).strip("/")
        if name == "openapi.json" or (not name and request.args.get("format") == "json"):
            return Response(self.document.read_bytes(), content_type="application/json")
        if not name:
            html = generate_swagger_html(
                spec=self.document.read_text(encoding="utf-8"),
                swagger_js=f"{self.prefix}/swagger-ui-bundle.min.js",
                swagger_css=f"{self.prefix}/swagger-ui.min.css",
                swagger_base_url=self.prefix,
                oauth2_config=None,
                persist_authorization=True,
            )
            return Response(html, content_type="text/html; charset=utf-8")
        if name in SWAGGER_ASSETS:
            return Response((self.assets / name).read_bytes(), content_type=SWAGGER_ASSETS[name])
        return Response(
            '{"success":false,"statusCode":404,"message":"Route not found","data":null}',
            status=404,
            content_type="application/json",
        )
