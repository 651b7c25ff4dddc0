"""One delivery attempt of a partner webhook: the queued body, signed now (Standard Webhooks headers, and
`X-Signature` while it is still sent), POSTed to the partner's endpoint within WEBHOOK_TIMEOUT_SECONDS
for the whole attempt (`domain.partners.transport`: connect, TLS, request and the answer's headers; no
redirects followed). Outside the local stage the endpoint is checked again first, and the connection
goes only to an address that is public (`destinations.is_public_address`).

What an answer means:
- 2xx: delivered.
- 410 Gone: the partner retired the endpoint. It is disabled (`webhooks.disable`, shown by `ops webhooks
  list`) and the event counts as handled: nothing more is sent to it until the operator enables it and,
  if the partner wants them, replays the events since (`ops webhooks replay`).
- Anything else (another status, a timeout, a refused connection or address): a failure, retried
  later (`retry_delay_seconds`), no sooner than the answer's `Retry-After` asks.
A partner without an endpoint, or whose endpoint is disabled, needs nothing: that counts as delivered.
"""

import random
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import NamedTuple

from core import clock, ids
from core.errors import InvalidInput, NotFound
from core.observability import logger
from core.serialization import to_json
from core.settings import get_settings
from domain.partners import destinations, store, transport, webhooks
from domain.partners.settings import get_webhook_settings
from domain.partners.store import WebhookEndpoint

USER_AGENT = "car-retail-webhooks/2"
LONGEST_DELAY_SECONDS = 43200  # SQS's longest visibility timeout: the most one retry can wait


class Attempt(NamedTuple):
    delivered: bool  # True also when nothing is to be sent (no endpoint, a disabled one, a 410)
    status: int | None = None  # the endpoint's HTTP status, None when it gave none
    reason: str = ""
    retry_after_seconds: int | None = None  # what the endpoint asked (Retry-After), when it failed


def deliver(
    partner: str, event_id: str, body: str, *, resolve: transport.Resolver = transport.system_resolver
) -> Attempt:
    """POST `body` to the partner's endpoint, signed with its current secret(s)."""
    endpoint = store.find_webhook(partner)
    if endpoint is None:
        logger.info("webhook dropped: the partner has no endpoint", extra={"partner": partner, "event_id": event_id})
        return Attempt(delivered=True, reason="no endpoint")
    if endpoint.get("disabledAt") is not None:
        logger.info(
            "webhook dropped: the partner's endpoint is disabled", extra={"partner": partner, "event_id": event_id}
        )
        return Attempt(delivered=True, reason="endpoint disabled")
    return attempt(endpoint, event_id, body, resolve=resolve)


def send_test(partner: str, *, resolve: transport.Resolver = transport.system_resolver) -> tuple[str, Attempt]:
    """Send the partner's endpoint a `webhook.test` event now, even while it is disabled (to see it works
    before enabling it); its event id and the attempt."""
    endpoint = store.find_webhook(partner)
    if endpoint is None:
        raise NotFound("WEBHOOK_NOT_FOUND", partner=partner)
    now = clock.now()
    event_id = str(ids.new_id())
    body = to_json({"eventId": event_id, "type": webhooks.TEST_EVENT_TYPE, "partner": partner, "at": now})
    return event_id, attempt(endpoint, event_id, body, resolve=resolve)


def attempt(
    endpoint: WebhookEndpoint, event_id: str, body: str, *, resolve: transport.Resolver = transport.system_resolver
) -> Attempt:
    """One attempt: check the endpoint (outside the local stage), sign `body` now and POST it."""
    partner = endpoint["_id"]
    try:
        url = destinations.check_url(endpoint["url"])
    except InvalidInput as refused:
        return _failed(partner, event_id, refused.errors[0]["code"] if refused.errors else refused.code)
    now = clock.now()
    raw = body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        webhooks.EVENT_ID_HEADER: event_id,
        **webhooks.standard_headers(webhooks.signing_secrets(endpoint, now), event_id, int(now.timestamp()), raw),
    }
    try:
        answer = transport.post(
            url,
            raw,
            headers,
            deadline_seconds=get_webhook_settings().webhook_timeout_seconds,
            check_address=None if get_settings().is_local else destinations.is_public_address,
            resolve=resolve,
        )
    except (OSError, ValueError) as failed:  # deadline, refused address or connection, TLS, DNS, not HTTP
        return _failed(partner, event_id, f"{type(failed).__name__}: {failed}")
    status = answer.status
    if 200 <= status < 300:
        return Attempt(delivered=True, status=status)
    if status == 410:
        if webhooks.disable(partner, reason=f"HTTP 410 at {now.isoformat()}"):
            logger.warning("webhook endpoint disabled: it answered 410 Gone", extra={"partner": partner})
        return Attempt(delivered=True, status=status, reason="HTTP 410: endpoint disabled")
    retry_after = retry_after_seconds(answer.headers.get("retry-after"), now)
    logger.warning(
        "webhook refused",
        extra={"partner": partner, "event_id": event_id, "status": status, "retry_after_seconds": retry_after},
    )
    return Attempt(delivered=False, status=status, reason=f"HTTP {status}", retry_after_seconds=retry_after)


def _failed(partner: str, event_id: str, reason: str) -> Attempt:
    logger.warning("webhook not delivered", extra={"partner": partner, "event_id": event_id, "reason": reason})
    return Attempt(delivered=False, reason=reason)


def retry_after_seconds(value: str | None, now: datetime) -> int | None:
    """A `Retry-After` header in seconds from now (it is seconds or an HTTP date); None when absent or
    unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0, int((when - now).total_seconds() + 0.999))


def retry_delay_seconds(attempt: int, retry_after: int | None = None, *, spread: float | None = None) -> int:
    """How long the `attempt`-th failed delivery waits before the next: WEBHOOK_RETRY_BASE_SECONDS doubling
    up to WEBHOOK_RETRY_MAX_SECONDS, shortened by up to WEBHOOK_RETRY_JITTER of itself at random (`spread`,
    in [0, 1), drawn when not given) so the retries of many events that failed together (a partner's
    outage) do not come back together, and never less than the endpoint's `Retry-After` (at most
    LONGEST_DELAY_SECONDS)."""
    settings = get_webhook_settings()
    backoff = min(settings.webhook_retry_base_seconds * 2 ** max(0, attempt - 1), settings.webhook_retry_max_seconds)
    spread = random.random() if spread is None else spread  # noqa: S311 (spreading retries, not a secret)
    jittered = max(1, round(backoff * (1 - settings.webhook_retry_jitter * spread)))
    return min(max(jittered, retry_after or 0), LONGEST_DELAY_SECONDS)
