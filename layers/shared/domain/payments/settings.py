"""Card payments' settings: the card processor (docs/OPERATIONS.md, "Card processors") and how many card
payments a caller may start. Read from the environment once per process by the code that pays by card
(Transactions, PaymentReconciliation); the other functions never define this model."""

# No `from __future__ import annotations`, as in every settings module (docs/DECISIONS.md, "Import-time work").
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core import secrets
from core.errors import Unavailable
from core.settings import cached_settings, from_env

SANDBOX_STAGES = ("local", "dev")


class PaymentSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # The card processor: its API URL, and its credentials in clear locally or as the keys of one JSON
    # secret per processor deployed (PAYMENT_PROCESSOR_SECRET_ID; docs/OPERATIONS.md).
    payment_processor: Literal["sandbox", "atmos", "payme"] | None = None
    payment_processor_secret_id: str | None = None
    payment_processor_timeout_seconds: float = Field(default=5.0, gt=0, le=8, description="per call")
    atmos_api_url: str | None = None
    atmos_store_id: str | None = None
    atmos_consumer_key: str | None = None
    atmos_consumer_secret: str | None = None
    payme_api_url: str | None = None
    payme_cashbox_id: str | None = None
    payme_key: str | None = None

    card_create_rate_limit: int = Field(default=5, ge=1, description="card payments started per caller and per card")
    card_create_rate_window_seconds: int = Field(default=600, ge=1)

    def effective_payment_processor(self, stage: str) -> Literal["sandbox", "atmos", "payme"] | None:
        """The sandbox on a laptop and in dev unless told otherwise; elsewhere only the one named (None:
        card payments are not configured)."""
        return self.payment_processor or ("sandbox" if stage in SANDBOX_STAGES else None)


@cached_settings
def get_payment_settings() -> PaymentSettings:
    return from_env(PaymentSettings)


def card_processor_credentials(*names: str) -> dict[str, str]:
    """The card processor's credentials by their setting names (`ATMOS_CONSUMER_KEY`, ...): the env vars
    locally, the same keys of the JSON secret PAYMENT_PROCESSOR_SECRET_ID names deployed."""
    settings = get_payment_settings()
    configured = {name: getattr(settings, name.lower()) for name in names}
    if all(configured.values()):
        return configured
    if settings.payment_processor_secret_id:
        try:
            secret = json.loads(secrets.from_secrets_manager(settings.payment_processor_secret_id))
            return {name: str(secret[name]) for name in names}
        except (ValueError, KeyError, TypeError) as exc:
            raise Unavailable("SERVICE_NOT_CONFIGURED") from exc
    raise Unavailable("SERVICE_NOT_CONFIGURED")
