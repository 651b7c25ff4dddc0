"""The sandbox card processor: behaves like the Uzbek processors' own sandboxes, without a network.

Every code is `666666`, as in the processors' sandboxes. A few documented test cards simulate the
answers a real processor gives (README, "Sandbox test cards"); any other valid UZCARD or HUMO card pays.
The code is never stored: `send_otp` returns its keyed hash, salted with the payment id, and `confirm`
compares hashes.
"""

from __future__ import annotations

import hmac
import uuid

from core.secrets import keyed_hash
from domain.payments.processor import (
    CARD_BLOCKED,
    INSUFFICIENT_FUNDS,
    CardDetails,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorPayment,
    WrongOtp,
)

SANDBOX_OTP = "666666"

# Test cards (all Luhn-valid) and what the sandbox does with them.
PAYS_UZCARD = "8600495473316478"
PAYS_HUMO = "9860350000000017"
INSUFFICIENT_FUNDS_CARD = "8600060000000027"  # declined at confirm, after a correct code
BLOCKED_CARD = "9860111111111113"  # declined at create

INSUFFICIENT_TOKEN_PREFIX = "sandbox-insufficient-"  # noqa: S105 (a sandbox marker, not a secret)


def _otp_hash(processor_id: str, otp: str) -> str:
    return keyed_hash("sandbox-otp", f"{processor_id}:{otp}")


class SandboxProcessor:
    name = "sandbox"

    def create(self, card: CardDetails, amount_tiyin: int, reference: str) -> ProcessorPayment:
        if card.number == BLOCKED_CARD:
            raise PaymentDeclined(CARD_BLOCKED)
        # Like a real processor's card token, opaque to us; the sandbox keeps its scenario in it.
        prefix = INSUFFICIENT_TOKEN_PREFIX if card.number == INSUFFICIENT_FUNDS_CARD else "sandbox-"
        return ProcessorPayment(processor_id=f"sandbox-{reference}", token=f"{prefix}{uuid.uuid4().hex}")

    def send_otp(self, payment: ProcessorPayment) -> str | None:
        return _otp_hash(payment.processor_id, SANDBOX_OTP)

    def confirm(self, payment: ProcessorPayment, otp: str) -> None:
        if payment.otp_hash is None or not hmac.compare_digest(_otp_hash(payment.processor_id, otp), payment.otp_hash):
            raise WrongOtp("wrong code")
        if payment.token.startswith(INSUFFICIENT_TOKEN_PREFIX):
            raise PaymentDeclined(INSUFFICIENT_FUNDS)

    def cancel(self, payment: ProcessorPayment) -> None:
        """Nothing to give back in the sandbox: no money ever moved."""

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        """The sandbox keeps no state between calls: it answers what its confirm does with a right code,
        declined for the insufficient-funds test card, charged for any other."""
        if payment.token.startswith(INSUFFICIENT_TOKEN_PREFIX):
            return PaymentStatus(PaymentState.DECLINED, INSUFFICIENT_FUNDS)
        return PaymentStatus(PaymentState.CHARGED)
