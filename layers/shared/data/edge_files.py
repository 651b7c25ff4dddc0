"""Small public JSON files served from the edge (a fair opening's `status.json` and `draw.json`): written
to the private bucket `EDGE_FILES_BUCKET` that CloudFront serves with a 1 s cache (template.yaml,
`EdgeFilesBucket`), so a buyer's poll reaches neither a function nor the database. Without a bucket (a
laptop, `make run`, the tests) they are written under `EDGE_FILES_DIR`, which the local gateway serves at
the same paths (local/static.py)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from core.serialization import to_json
from core.settings import get_settings
from data import aws

# CloudFront's cache policy keeps a file a second (template.yaml); a browser no longer.
CACHE_CONTROL = "public, max-age=1"
SALES = "sales"  # the folder of the fair openings' files, and the path CloudFront serves them at


def sale_status_key(car_id: object) -> str:
    """A queued car's status.json: its queue's state, what every buyer polls."""
    return f"{SALES}/{car_id}/status.json"


def sale_draw_key(car_id: object) -> str:
    """A queued car's draw.json, once its draw ran."""
    return f"{SALES}/{car_id}/draw.json"


def public_url(key: str) -> str:
    """Where a buyer fetches the file at `key` (EDGE_FILES_URL: the distribution, or `make run`)."""
    return f"{get_settings().edge_files_base}/{key}"


def local_dir() -> Path:
    """Where the files go without a bucket (EDGE_FILES_DIR, else a folder of the system's temp dir)."""
    configured = get_settings().edge_files_dir
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "car-retail-edge-files"


def publish(key: str, document: Any) -> None:
    """Write `document` as JSON at `key` (`sales/<carId>/status.json`), replacing what was there."""
    body = to_json(document)
    bucket = get_settings().edge_files_bucket
    if bucket:
        aws.client("s3").put_object(
            Bucket=bucket, Key=key, Body=body.encode(), ContentType="application/json", CacheControl=CACHE_CONTROL
        )
        return
    path = local_dir() / key
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside it and renamed: a reader never meets half a file.
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as file:
        file.write(body)
    os.replace(file.name, path)


def read(key: str) -> Any | None:
    """The document at `key`, or None (what a buyer would fetch; for tests and operators)."""
    bucket = get_settings().edge_files_bucket
    if bucket:
        s3 = aws.client("s3")
        try:
            found = s3.get_object(Bucket=bucket, Key=key)
        except s3.exceptions.NoSuchKey:
            return None
        return json.loads(found["Body"].read())
    path = local_dir() / key
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
