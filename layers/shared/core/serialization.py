"""JSON text of what the API and its events carry: ObjectIds, UTC datetimes, Decimals, pydantic models.

Kept apart from `edge.responses` so that a function that only publishes events (the outbox
publisher) does not import the API's response models and Powertools' validation to write JSON.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from bson import ObjectId


def json_default(value: Any) -> Any:
    """What a JSON writer calls for a value it does not know."""
    if isinstance(value, ObjectId):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    # A pydantic model (`model_dump` is its public API): named by behaviour, not by class, so that this
    # module does not import pydantic.
    model_dump = getattr(type(value), "model_dump", None)
    if callable(model_dump):
        return model_dump(value, mode="json", by_alias=True)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def to_json(payload: Any) -> str:
    return json.dumps(payload, default=json_default, ensure_ascii=False, separators=(",", ":"))


def json_object(raw: bytes | str) -> dict[str, Any] | None:
    """A partner's answer as a JSON object, or None when it is not one (not JSON, a list, a string): the
    HTTP adapters (identity providers, SMS gateway) refuse anything else."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
