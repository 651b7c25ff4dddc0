"""Partner webhooks: a partner registers one endpoint and receives `order.status_changed` for the orders
placed through its app, signed with a secret of its own (docs/INTERFACE.md, "Webhooks").

- Registration (`set_endpoint`): an https URL; plain http only for a loopback host on a laptop. Outside
  the local stage the URL is checked again before each delivery (`domain.partners.destinations`): https,
  no control character, and a host whose every address is public (no loopback, private,
  link-local, shared, reserved or multicast address, in any spelling, `0x7f000001` and `[::1]`
  included, nor a name resolving to one). Delivery connects to the very address it checked
  (`domain.partners.transport`).
- Secrets are never stored. Each partner's is derived (HMAC-SHA256) from the stage's webhook signing
  key (Secrets Manager, `domain.partners.settings.webhook_signing_key`) and a random salt stored with
  the endpoint, so the service can sign while a copy of the database alone reveals no secret. Rotating
  draws a new salt; the previous secret also signs for `ROTATION_GRACE` so the partner can switch
  without losing a delivery. A secret is `whsec_<base64 of the key bytes>`, as Standard Webhooks has
  it; one issued before that is `whsec_<64 hex digits>`, which is base64 too (of 48 bytes) and verifies
  the same way, so no partner had to change its secret.
- Signature: the Standard Webhooks headers (`standard_headers`: `webhook-id`, `webhook-timestamp`,
  `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one `v1,` per valid
  secret, space-separated), which partners verify with the `standardwebhooks` libraries. Until
  LEGACY_SIGNATURE_UNTIL the earlier `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
  "<t>.<body>">` (keyed with the secret's text) is sent too, then it stops.
- An endpoint that answers 410 Gone is disabled (`disable`): nothing more is sent to it until the
  operator enables it again (`enable`).
- The event (`order_status_changed`) is written to the outbox with the change it reports
  (`domain.orders.lifecycle.log_change`); `domain.partners.delivery` posts it.
"""

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from core import clock
from core.errors import NotFound
from data import outbox
from data.outbox import Webhook
from domain.partners import store
from domain.partners.store import WebhookEndpoint

if TYPE_CHECKING:
    from domain.partners.transport import Resolver

EVENT_TYPE = "order.status_changed"
TEST_EVENT_TYPE = "webhook.test"
SIGNATURE_HEADER = "X-Signature"
EVENT_ID_HEADER = "X-Event-Id"
ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
STANDARD_SIGNATURE_HEADER = "webhook-signature"
# The last day `X-Signature` is sent (docs/INTERFACE.md, "Webhooks"; CHANGELOG.md announces it).
LEGACY_SIGNATURE_UNTIL = datetime(2027, 5, 31, 23, 59, 59, tzinfo=UTC)
SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix that says what the value is, not a secret)
# A salt drawn since secrets are base64: its secret is the derived key in base64 (before: in hex).
BASE64_SALT_PREFIX = "b64."
REPLAY_WINDOW_SECONDS = 300
ROTATION_GRACE = timedelta(hours=24)


def signing_secret(partner: str, salt: str) -> str:
    """The secret the partner verifies with: derived, so the database holds only the salt."""
    # Imported here: the functions that change orders import this module for order_status_changed only.
    from domain.partners.settings import webhook_signing_key

    derived = hmac.new(webhook_signing_key().encode(), f"webhook/{partner}/{salt}".encode(), hashlib.sha256)
    if salt.startswith(BASE64_SALT_PREFIX):
        return SECRET_PREFIX + base64.b64encode(derived.digest()).decode()
    return SECRET_PREFIX + derived.hexdigest()


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets that sign a delivery now: the current one, and the previous one during its grace."""
    found = [signing_secret(endpoint["_id"], endpoint["salt"])]
    previous, until = endpoint.get("previousSalt"), endpoint.get("previousUntil")
    if previous and until is not None and now < until:
        found.append(signing_secret(endpoint["_id"], previous))
    return found


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The legacy `X-Signature` value: keyed with the secret's text, in hex."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(secrets_: list[str], timestamp: int, body: bytes) -> str:
    """`t=<timestamp>,v1=<signature>[,v1=<signature under the previous secret>]`."""
    return ",".join([f"t={timestamp}", *(f"v1={signature(secret, timestamp, body)}" for secret in secrets_)])


def secret_key(secret: str) -> bytes:
    """The key bytes a `whsec_` secret stands for (Standard Webhooks: the base64 after the prefix)."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)


def standard_signature(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the secret's key bytes."""
    digest = hmac.new(secret_key(secret), f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def standard_headers(secrets_: list[str], event_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The Standard Webhooks headers of one delivery, and `X-Signature` while it is still sent."""
    headers = {
        ID_HEADER: event_id,
        TIMESTAMP_HEADER: str(timestamp),
        STANDARD_SIGNATURE_HEADER: " ".join(standard_signature(s, event_id, timestamp, body) for s in secrets_),
    }
    if timestamp <= LEGACY_SIGNATURE_UNTIL.timestamp():
        headers[SIGNATURE_HEADER] = signature_header(secrets_, timestamp, body)
    return headers


class Registration(NamedTuple):
    endpoint: WebhookEndpoint
    secret: str | None  # shown once: only when the endpoint is new (or its secret rotated)


def set_endpoint(partner: str, url: str, resolve: "Resolver | None" = None) -> Registration:
    """Register (or move) the partner's endpoint. A new endpoint gets a new secret, returned once; moving
    an endpoint keeps its secret."""
    # Imported here: the functions that change orders import this module for order_status_changed only.
    from domain.partners import destinations

    url = destinations.check_destination(url, resolve)
    if not store.partner_exists(partner):
        raise NotFound("PARTNER_NOT_FOUND", partner=partner)
    new_salt = _new_salt()
    endpoint = store.set_webhook_url(partner, url, new_salt=new_salt, now=clock.now())
    fresh = endpoint["salt"] == new_salt
    return Registration(endpoint, signing_secret(partner, new_salt) if fresh else None)


def rotate_secret(partner: str) -> str:
    """A new secret for the partner's endpoint, returned once; the previous one still signs for
    ROTATION_GRACE."""
    endpoint = store.find_webhook(partner)
    now = clock.now()
    new_salt = _new_salt()
    if endpoint is None or not store.replace_webhook_salt(
        partner, current_salt=endpoint["salt"], new_salt=new_salt, previous_until=now + ROTATION_GRACE, now=now
    ):
        raise NotFound("WEBHOOK_NOT_FOUND", partner=partner)
    return signing_secret(partner, new_salt)


def remove_endpoint(partner: str) -> None:
    if not store.remove_webhook(partner):
        raise NotFound("WEBHOOK_NOT_FOUND", partner=partner)


def disable(partner: str, reason: str) -> bool:
    """Stop deliveries to the partner's endpoint (it answered 410 Gone); False if it was disabled already."""
    return store.set_webhook_disabled(partner, reason=reason, at=clock.now())


def enable(partner: str) -> WebhookEndpoint:
    """Deliver to the partner's endpoint again (the operator's `webhooks enable`)."""
    endpoint = store.set_webhook_enabled(partner, at=clock.now())
    if endpoint is None:
        raise NotFound("WEBHOOK_NOT_FOUND", partner=partner)
    return endpoint


def replay(partner: str, since: datetime) -> list[str]:
    """Send the partner again every webhook of the events since `since` (as far back as the outbox keeps
    them: `data.outbox.SENT_RETENTION_SECONDS`), with their event ids, in order per order; the outbox
    aggregate of each (one per event), for the caller to publish them at once."""
    if store.find_webhook(partner) is None:
        raise NotFound("WEBHOOK_NOT_FOUND", partner=partner)
    return outbox.replay_webhooks(outbox.webhooks_since(partner, since))


def _new_salt() -> str:
    return BASE64_SALT_PREFIX + secrets.token_hex(16)


def order_status_changed(order: Mapping[str, Any], previous: str | None, *, at: datetime) -> Webhook | None:
    """The webhook of one status change of an order placed through a partner's app (None for an order
    placed before orders recorded their partner). The outbox adds `eventId` and `sequence`; one order's
    events share a group, so they are delivered in order."""
    partner = order.get("partner")
    if not partner:
        return None
    return Webhook(
        partner=str(partner),
        group=str(order["_id"]),
        payload={
            "type": EVENT_TYPE,
            "orderId": str(order["_id"]),
            "contractNumber": order.get("contractNumber"),
            "from": previous,
            "to": order["statusSlug"],
            "paidAmount": int(order.get("paidAmount", 0)),
            "amountDue": order.get("amountDue"),
            "at": at,
        },
    )
