"""Partner webhooks: a partner registers one endpoint and receives `order.status_changed` for the orders
placed through its app, signed with a secret of its own (docs/INTERFACE.md, "Webhooks").

- Registration (`set_endpoint`): an https URL; plain http only for a loopback host on a laptop.
- Secrets are never stored. Each partner's is derived (HMAC-SHA256) from the stage's webhook signing
  key (Secrets Manager, `domain.partners.settings.webhook_signing_key`) and a random salt stored with
  the endpoint, so the service can sign while a copy of the database alone reveals no secret. Rotating
  draws a new salt; the previous secret also signs for `ROTATION_GRACE` so the partner can switch
  without losing a delivery.
- Signature (`signature_header`): `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
  one `v1` per valid secret. The receiver recomputes it over the raw body and refuses a `t` outside its
  replay window (REPLAY_WINDOW_SECONDS is what the documentation recommends).
- The event (`order_status_changed`) is written to the outbox with the change it reports
  (`domain.orders.lifecycle.log_change`); `domain.partners.delivery` posts it.
"""

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from core import clock
from core.errors import InvalidInput, NotFound
from core.settings import get_settings
from data.outbox import Webhook
from domain.partners import store
from domain.partners.store import WebhookEndpoint

EVENT_TYPE = "order.status_changed"
SIGNATURE_HEADER = "X-Signature"
EVENT_ID_HEADER = "X-Event-Id"
SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix that says what the value is, not a secret)
REPLAY_WINDOW_SECONDS = 300
ROTATION_GRACE = timedelta(hours=24)
MAX_URL_LENGTH = 2048
LOOPBACK_HOSTS = frozenset({"localhost"})


def check_url(url: str) -> str:
    """The endpoint URL as it will be called; InvalidInput unless it is an absolute https URL without
    credentials or fragment (http only to a loopback host, and only on a laptop: STAGE=local)."""
    url = url.strip()
    parts = urlsplit(url)
    if len(url) > MAX_URL_LENGTH or not parts.hostname or parts.scheme not in ("https", "http"):
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_ABSOLUTE")
    if parts.username or parts.password or parts.fragment:
        raise InvalidInput.field("url", "WEBHOOK_URL_CREDENTIALS_OR_FRAGMENT")
    if parts.scheme == "http" and not (get_settings().is_local and _is_loopback(parts.hostname)):
        raise InvalidInput.field("url", "WEBHOOK_URL_NOT_HTTPS")
    return url


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def signing_secret(partner: str, salt: str) -> str:
    """The secret the partner verifies with: derived, so the database holds only the salt."""
    # Imported here: the functions that change orders import this module for order_status_changed only.
    from domain.partners.settings import webhook_signing_key

    derived = hmac.new(webhook_signing_key().encode(), f"webhook/{partner}/{salt}".encode(), hashlib.sha256)
    return SECRET_PREFIX + derived.hexdigest()


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets that sign a delivery now: the current one, and the previous one during its grace."""
    found = [signing_secret(endpoint["_id"], endpoint["salt"])]
    previous, until = endpoint.get("previousSalt"), endpoint.get("previousUntil")
    if previous and until is not None and now < until:
        found.append(signing_secret(endpoint["_id"], previous))
    return found


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(secrets_: list[str], timestamp: int, body: bytes) -> str:
    """`t=<timestamp>,v1=<signature>[,v1=<signature under the previous secret>]`."""
    return ",".join([f"t={timestamp}", *(f"v1={signature(secret, timestamp, body)}" for secret in secrets_)])


class Registration(NamedTuple):
    endpoint: WebhookEndpoint
    secret: str | None  # shown once: only when the endpoint is new (or its secret rotated)


def set_endpoint(partner: str, url: str) -> Registration:
    """Register (or move) the partner's endpoint. A new endpoint gets a new secret, returned once; moving
    an endpoint keeps its secret."""
    url = check_url(url)
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


def _new_salt() -> str:
    return secrets.token_hex(16)


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
