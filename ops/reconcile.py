"""`python -m ops reconcile`: the scheduled payment reconciliation pass, run by hand against the
configured database and card processor (domain.payments.reconciliation)."""

from __future__ import annotations

import json

from data import outbox
from domain.payments.reconciliation import reconcile


def run() -> int:
    """Print what the pass did; exit 1 when a payment or a refund has been unresolved for over an hour."""
    outbox.start_request()
    report = reconcile()
    outbox.flush()
    print(json.dumps(report.summary()))
    return 1 if report.unresolved_over_an_hour or report.refunds_pending_over_an_hour else 0
