"""The files of the demo data (local/assets), served under /assets by the local server, which points
ASSETS_BASE_URL at itself: every image and file URL the local API answers can be fetched from it."""

from __future__ import annotations

from pathlib import Path

from werkzeug.exceptions import NotFound
from werkzeug.middleware.shared_data import SharedDataMiddleware

ASSETS_DIR = Path(__file__).parent / "assets"
ASSETS_PREFIX = "/assets"


def assets_app() -> SharedDataMiddleware:
    """WSGI app serving local/assets under ASSETS_PREFIX (404 for anything else)."""
    return SharedDataMiddleware(NotFound(), {ASSETS_PREFIX: str(ASSETS_DIR)})


EDGE_FILES_PREFIX = "/sales"  # data.edge_files.SALES, at the local server's root as at the distribution's


def edge_files_app() -> SharedDataMiddleware:
    """WSGI app serving a fair opening's public files (status.json, draw.json) under /sales, as CloudFront
    serves them from the bucket deployed (data.edge_files writes them locally to this folder)."""
    from data import edge_files

    folder = edge_files.local_dir() / edge_files.SALES
    folder.mkdir(parents=True, exist_ok=True)
    return SharedDataMiddleware(NotFound(), {EDGE_FILES_PREFIX: str(folder)}, cache_timeout=1)


def assets_base_url(host: str, port: int) -> str:
    return f"http://{host}:{port}{ASSETS_PREFIX}"


def edge_files_url(host: str, port: int) -> str:
    """Where the local server serves the edge files (EDGE_FILES_URL): its own root."""
    return f"http://{host}:{port}"
