"""Swagger UI for the committed openapi.json at /api/docs (development only, works offline).

The page is our own; the Swagger UI script and stylesheet are the files Powertools ships as package data
(read as resources, no code of it imported), so no CDN is needed. The page loads the document from
/api/docs/openapi.json, read on every request: `make openapi` shows without a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any

from werkzeug.wrappers import Request, Response

from core.serialization import to_json
from local.gateway import GATEWAY_LANGUAGE, gateway_envelope
from local.template import ROOT

DOCS_PREFIX = "/api/docs"
# Where Powertools keeps the Swagger UI files it serves itself (`enable_swagger`).
SWAGGER_ASSETS_PACKAGE = "aws_lambda_powertools.event_handler.openapi.swagger_ui"
SWAGGER_ASSETS = {
    "swagger-ui-bundle.min.js": "application/javascript",
    "swagger-ui.min.css": "text/css",
}

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Car Retail API</title>
  <meta http-equiv="Cache-Control" content="no-cache, no-store, must-revalidate">
  <link rel="stylesheet" href="{prefix}/swagger-ui.min.css">
</head>
<body>
  <div id="swagger-ui">Loading...</div>
  <script src="{prefix}/swagger-ui-bundle.min.js"></script>
  <script>
    SwaggerUIBundle({{
      url: "{prefix}/openapi.json",
      dom_id: "#swagger-ui",
      deepLinking: true,
      filter: true,
      docExpansion: "list",
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis],
    }});
  </script>
</body>
</html>
"""


class ApiDocs:
    """WSGI app: `/api/docs` (Swagger UI), `/api/docs/openapi.json` (also `?format=json`) and the assets."""

    def __init__(self, document: Path = ROOT / "openapi.json", prefix: str = DOCS_PREFIX) -> None:
        self.document = document
        self.prefix = prefix.rstrip("/")
        self.assets = files(SWAGGER_ASSETS_PACKAGE)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return self.respond(Request(environ))(environ, start_response)

    def respond(self, request: Request) -> Response:
        name = request.path.removeprefix(self.prefix).strip("/")
        if name == "openapi.json" or (not name and request.args.get("format") == "json"):
            return Response(self.document.read_bytes(), content_type="application/json")
        if not name:
            return Response(PAGE.format(prefix=self.prefix), content_type="text/html; charset=utf-8")
        if name in SWAGGER_ASSETS:
            return Response(self.assets.joinpath(name).read_bytes(), content_type=SWAGGER_ASSETS[name])
        return Response(
            to_json(gateway_envelope(404, "ROUTE_NOT_FOUND")),
            status=404,
            content_type="application/json",
            headers={"Content-Language": GATEWAY_LANGUAGE},
        )
