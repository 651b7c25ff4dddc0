"""The card processor this process pays with: the adapter PAYMENT_PROCESSOR names, built once.

The real processors' adapters are imported only when chosen, so the sandbox's functions never load them.
"""

from __future__ import annotations

from functools import lru_cache

from core.errors import Unavailable
from core.observability import logger
from core.settings import get_settings
from domain.payments.processor import CardProcessor
from domain.payments.settings import PaymentSettings, get_payment_settings


def get_processor() -> CardProcessor:
    return _build(get_payment_settings(), get_settings().stage)


@lru_cache(maxsize=1)
def _build(settings: PaymentSettings, stage: str) -> CardProcessor:
    kind = settings.effective_payment_processor(stage)
    timeout = settings.payment_processor_timeout_seconds
    if kind is None:
        logger.error("no card processor: set PAYMENT_PROCESSOR to atmos or payme")
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    if kind == "sandbox":
        if stage == "prod":
            logger.error("the sandbox card processor is refused in prod; set PAYMENT_PROCESSOR to atmos or payme")
            raise Unavailable("SERVICE_NOT_CONFIGURED")
        from domain.payments.sandbox import SandboxProcessor

        return SandboxProcessor()
    if kind == "atmos":
        from domain.payments.atmos import AtmosProcessor

        return AtmosProcessor(_required(settings.atmos_api_url, "ATMOS_API_URL"), timeout=timeout)
    from domain.payments.payme import PaymeProcessor

    return PaymeProcessor(_required(settings.payme_api_url, "PAYME_API_URL"), timeout=timeout)


def _required(url: str | None, name: str) -> str:
    if not url:
        logger.error("the card processor's API URL is not set", extra={"setting": name})
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return url


def reset_processor() -> None:
    """Forget the process's adapter (and its cached token); tests that change the settings call it."""
    _build.cache_clear()
