"""HTTP for the card-processor adapters: one POST within a timeout and the request's budget for partner
calls (core.deadline), as a whole; its transport failures and an exhausted budget are outages.

What is logged is the processor, the call and the HTTP status or the transport error's kind; never a
body or a header: they hold card numbers, codes, card tokens, access tokens and credentials.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core import deadline
from core.observability import logger
from domain.payments.processor import ProcessorUnavailable


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any  # the JSON answer, None when the answer is not JSON


def post(url: str, data: bytes, headers: Mapping[str, str], *, timeout: float, processor: str, call: str) -> Reply:
    """POST `data` to `url` and read the answer, whatever its HTTP status; raise ProcessorUnavailable when
    the processor cannot be reached or has not answered within `timeout` seconds or what is left of the
    request's budget, whichever ends first (the whole exchange, not each socket read)."""
    request = urllib.request.Request(url, data=data, headers=dict(headers), method="POST")  # noqa: S310 (configured URL)
    try:
        allowed = deadline.bounded(timeout)
        return deadline.call_within(lambda: _exchange(request, allowed), allowed)
    except deadline.DeadlineExceeded as exc:
        logger.warning("card processor call out of time", extra={"processor": processor, "call": call})
        raise ProcessorUnavailable(f"{processor} out of time") from exc
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        logger.warning(
            "card processor unreachable", extra={"processor": processor, "call": call, "error": type(exc).__name__}
        )
        raise ProcessorUnavailable(f"{processor} unreachable") from exc


def _exchange(request: urllib.request.Request, timeout: float) -> Reply:
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return Reply(response.status, _json(response.read()))
    except urllib.error.HTTPError as error:
        with error:
            return Reply(error.code, _json(error.read()))


def not_understood(processor: str, call: str, why: str, **facts: Any) -> ProcessorUnavailable:
    """An answer we cannot act on: the outcome of the call is unknown, so it is an outage, never a success."""
    logger.error(
        "card processor answer not understood", extra={"processor": processor, "call": call, "why": why, **facts}
    )
    return ProcessorUnavailable(why)


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None
