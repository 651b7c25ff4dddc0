"""Partner webhooks' settings: the key every partner's signing secret is derived from, and delivery's
timeout and retry schedule. Read from the environment once per process by the code that signs and
delivers webhooks (WebhookDelivery, the operators' commands, the local runtime); the functions that
only write them to the outbox never define this model. The queue they go to is the outbox's
(`core.settings`, WEBHOOK_QUEUE_URL)."""

# No `from __future__ import annotations`, as in every settings module (docs/DECISIONS.md, "Import-time work").
from pydantic import BaseModel, ConfigDict, Field

from core import secrets
from core.settings import cached_settings, from_env

LOCAL_WEBHOOK_SIGNING_KEY = "local-development-only-webhook-key-0123456789"


class WebhookSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    webhook_signing_key: str | None = None
    webhook_signing_key_arn: str | None = None
    webhook_timeout_seconds: float = Field(
        default=15.0, gt=0, le=20, description="deadline of a whole delivery attempt (connect, TLS, answer)"
    )
    webhook_retry_base_seconds: int = Field(default=30, ge=1, description="first retry delay, doubled each time")
    webhook_retry_max_seconds: int = Field(default=21600, ge=1, le=43200, description="longest retry delay")
    webhook_retry_jitter: float = Field(
        default=0.1, ge=0, le=0.5, description="a retry's delay is shortened by up to this fraction, at random"
    )


@cached_settings
def get_webhook_settings() -> WebhookSettings:
    return from_env(WebhookSettings)


def webhook_signing_key() -> str:
    """The key every partner's webhook signing secret is derived from (`domain.partners.webhooks`).
    Deployed it is a secret of its own (the template generates it): rotating it changes every partner's
    secret, so it is rotated only after a compromise, with every partner told its new secret."""
    settings = get_webhook_settings()
    return secrets.or_local_default(
        secrets.configured(settings.webhook_signing_key, settings.webhook_signing_key_arn),
        LOCAL_WEBHOOK_SIGNING_KEY,
        "WEBHOOK_SIGNING_KEY or WEBHOOK_SIGNING_KEY_ARN must be set outside the local stage",
    )
