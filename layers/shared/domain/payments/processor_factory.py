"""The card processor this process pays with: the adapter PAYMENT_PROCESSOR names, built once.

The HTTP adapter is imported only when chosen, so the sandbox's functions never load it.
"""

from __future__ import annotations

from functools import lru_cache

from core.errors import Unavailable
from core.observability import logger
from core.settings import Settings, get_settings
from domain.payments.processor import CardProcessor


def get_processor() -> CardProcessor:
    return _build(get_settings())


@lru_cache(maxsize=1)
def _build(settings: Settings) -> CardProcessor:
    kind = settings.effective_payment_processor
    if kind == "sandbox":
        if settings.stage == "prod":
            logger.error("the sandbox card processor is refused in prod; set PAYMENT_PROCESSOR=http")
            raise Unavailable("SERVICE_NOT_CONFIGURED")
        from domain.payments.sandbox import SandboxProcessor

        return SandboxProcessor()
    from domain.payments.http_processor import HttpCardProcessor

    if not settings.payment_processor_url:
        logger.error("PAYMENT_PROCESSOR_URL is not set")
        raise Unavailable("SERVICE_NOT_CONFIGURED")
    return HttpCardProcessor(settings.payment_processor_url, timeout=settings.payment_processor_timeout_seconds)


def reset_processor() -> None:
    """Forget the process's adapter (and its cached token); tests that change the settings call it."""
    _build.cache_clear()
