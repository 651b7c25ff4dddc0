"""`python -m ops reconcile`: the scheduled payment reconciliation pass, run by hand against the
configured database and card processor (domain.payments.reconciliation)."""

from __future__ import annotations

import json

from core.errors import Unavailable
from core.settings import get_settings
from data import outbox, outbox_requests
from domain.payments.processor_factory import get_processor
from domain.payments.reconciliation import reconcile
from domain.payments.settings import get_payment_settings
from ops.output import CommandRefused

PROCESSORS_DOC = "docs/OPERATIONS.md, Card processors"


def check_processor() -> None:
    """Refuse before the pass unless the stage has a card processor to ask (the pass asks it of each
    stuck payment and refund)."""
    stage = get_settings().stage
    kind = get_payment_settings().effective_payment_processor(stage)
    if kind is None:
        raise CommandRefused(
            f"stage {stage} has no card processor: set PAYMENT_PROCESSOR (atmos or payme) and its settings "
            f"({PROCESSORS_DOC})",
            code="PROCESSOR_NOT_CONFIGURED",
        )
    try:
        get_processor()
    except Unavailable:
        raise CommandRefused(
            f"the {kind} card processor is not usable in stage {stage}: give its API URL and credentials "
            f"(or PAYMENT_PROCESSOR_SECRET_ID) as {PROCESSORS_DOC} says",
            code="PROCESSOR_NOT_CONFIGURED",
        ) from None


def run() -> int:
    """Print what the pass did; exit 1 when a payment or a refund has been unresolved for over an hour."""
    check_processor()
    outbox_requests.start_request()
    report = reconcile()
    outbox.flush()
    print(json.dumps(report.summary()))
    return 1 if report.unresolved_over_an_hour or report.refunds_pending_over_an_hour else 0
