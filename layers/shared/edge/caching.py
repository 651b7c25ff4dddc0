"""ETag and Cache-Control on the reads of the catalog and the dictionaries; 304 when the client's copy is
still current (`If-None-Match`).

The ETag is a hash of the serialized answer (weak: a gateway may compress it), computed once on the
body the resolver already made, so it costs a hash of a few kilobytes and no database work. The
answers vary by language and, for `saved` on cars, by device: private caches only (the app's own),
never a shared one, and `Vary` names what they depend on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

# A minute of reuse without asking; after that the app revalidates and most answers are a bodiless 304.
READS_CACHE_CONTROL = "private, max-age=60"
VARY = ("Accept-Language", "fingerprint")
VARY_TEXT = ", ".join(VARY)


def etag_of(body: bytes) -> str:
    return f'W/"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'


def _matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 weak comparison: any listed tag with the same opaque value, or `*`."""
    opaque = etag.removeprefix("W/")
    listed = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in listed or opaque in listed


def revalidate(
    headers: Mapping[str, str], result: dict[str, Any], body: bytes, cache_control: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """A 200 answer with the headers to put on it (ETag, Cache-Control, Vary): itself, or a 304 without
    a body when the request's If-None-Match (in `headers`, by lower-case name) names its ETag. `body` is
    the answer's body as UTF-8. The caller puts the headers on with its own in one pass
    (`edge.headers.combined`)."""
    if result.get("statusCode") != 200:
        return result, {}
    etag = etag_of(body)
    if (if_none_match := headers.get("if-none-match")) and _matches(if_none_match, etag):
        result = {**result, "statusCode": 304, "body": "", "isBase64Encoded": False}
        for mapping in ("headers", "multiValueHeaders"):
            if result.get(mapping):
                result[mapping] = {k: v for k, v in result[mapping].items() if k.lower() != "content-type"}
    return result, {"ETag": etag, "Cache-Control": cache_control, "Vary": VARY_TEXT}
