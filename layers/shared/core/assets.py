"""Images and files are stored either as full URLs or as storage keys (`cars/cobalt.svg`); the API
always answers with absolute URLs. A key is resolved against `ASSETS_BASE_URL`: CloudFront in front
of the assets bucket when deployed, the local server's /assets folder in development."""

from __future__ import annotations

from core.settings import get_settings

ABSOLUTE_PREFIXES = ("https://", "http://", "//", "data:")


def url(value: str | None) -> str | None:
    """The URL of a stored image or file: full URLs pass unchanged, keys get the assets base."""
    if not value:
        return None
    if value.startswith(ABSOLUTE_PREFIXES):
        return value
    return f"{get_settings().assets_base}/{value.lstrip('/')}"
