"""One delivery attempt of a partner webhook: the queued body, signed now, POSTed to the partner's
endpoint (standard library HTTP, no redirects followed). A 2xx answer is delivered; anything else (an
error status, a timeout, a refused connection) is a failure the caller retries later."""

import urllib.error
import urllib.request
from functools import cache
from typing import NamedTuple

from core import clock
from core.observability import logger
from domain.partners import store, webhooks
from domain.partners.settings import get_webhook_settings

USER_AGENT = "car-retail-webhooks/1"


class Attempt(NamedTuple):
    delivered: bool
    status: int | None = None  # the endpoint's HTTP status, None when it gave none
    reason: str = ""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not an instruction: the signed body goes to the registered URL only."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@cache
def _opener() -> urllib.request.OpenerDirector:
    """Built on the first delivery, as the MongoDB client is on the first query: its HTTPS handler loads
    the system's CA certificates, which that delivery pays instead of init."""
    return urllib.request.build_opener(_NoRedirects)


def deliver(partner: str, event_id: str, body: str) -> Attempt:
    """POST `body` to the partner's endpoint, signed with its current secret(s). A partner without an
    endpoint (removed since the event) needs nothing: that counts as delivered."""
    endpoint = store.find_webhook(partner)
    if endpoint is None:
        logger.info("webhook dropped: the partner has no endpoint", extra={"partner": partner, "event_id": event_id})
        return Attempt(delivered=True, reason="no endpoint")
    now = clock.now()
    raw = body.encode()
    request = urllib.request.Request(  # noqa: S310 (the URL is https, or loopback http locally: webhooks.check_url)
        endpoint["url"],
        data=raw,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            webhooks.EVENT_ID_HEADER: event_id,
            webhooks.SIGNATURE_HEADER: webhooks.signature_header(
                webhooks.signing_secrets(endpoint, now), int(now.timestamp()), raw
            ),
        },
    )
    try:
        with _opener().open(request, timeout=get_webhook_settings().webhook_timeout_seconds) as answer:
            status = int(answer.status)
    except urllib.error.HTTPError as refused:
        status = refused.code
        refused.close()
    except (OSError, ValueError) as failed:  # refused connection, timeout, TLS, DNS
        logger.warning(
            "webhook not delivered", extra={"partner": partner, "event_id": event_id, "reason": type(failed).__name__}
        )
        return Attempt(delivered=False, reason=type(failed).__name__)
    delivered = 200 <= status < 300
    if not delivered:
        logger.warning("webhook refused", extra={"partner": partner, "event_id": event_id, "status": status})
    return Attempt(delivered=delivered, status=status, reason="" if delivered else f"HTTP {status}")
