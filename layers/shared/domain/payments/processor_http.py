"""HTTP for the card-processor adapters, through the outbound port (`core.outbound`): one POST within a
timeout and the request's budget for partner calls, as a whole; its transport failures and an exhausted
budget are outages.

What is logged is the processor, the call and the HTTP status or the transport error's kind; never a
body or a header: they hold card numbers, codes, card tokens, access tokens and credentials.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core import outbound
from core.observability import logger
from core.outbound import Reply
from domain.payments.processor import ProcessorUnavailable

__all__ = ["Reply", "not_understood", "post"]


def post(url: str, data: bytes, headers: Mapping[str, str], *, timeout: float, processor: str, call: str) -> Reply:
    """POST `data` to `url` and read the answer, whatever its HTTP status; raise ProcessorUnavailable when
    the processor cannot be reached or has not answered within `timeout` seconds or what is left of the
    request's budget, whichever ends first (the whole exchange, not each socket read)."""
    try:
        return outbound.exchange(outbound.Request("POST", url, data, headers), timeout=timeout)
    except outbound.DeadlineExceeded as exc:
        logger.warning("card processor call out of time", extra={"processor": processor, "call": call})
        raise ProcessorUnavailable(f"{processor} out of time") from exc
    except outbound.Unreachable as exc:
        logger.warning("card processor unreachable", extra={"processor": processor, "call": call, "error": str(exc)})
        raise ProcessorUnavailable(f"{processor} unreachable") from exc


def not_understood(processor: str, call: str, why: str, **facts: Any) -> ProcessorUnavailable:
    """An answer we cannot act on: the outcome of the call is unknown, so it is an outage, never a success."""
    logger.error(
        "card processor answer not understood", extra={"processor": processor, "call": call, "why": why, **facts}
    )
    return ProcessorUnavailable(why)
