"""The sandbox card processor: behaves like the Uzbek processors' own sandboxes, without a network.

Every code is `666666`, as in the processors' sandboxes. A few documented test cards simulate the
answers a real processor gives (docs/DEMO_DATA.md, "Sandbox cards"); any other valid UZCARD or HUMO card pays.
It takes both ways a card reaches a processor: its number and expiry (as ATMOS), or a card token the
partner's app got from the processor (as Payme): `sandbox-token-<test card number>` behaves as that
test card, any other token as the paying UZCARD test card.
The code is never stored: `create` and `resend_otp` return its keyed hash, salted with the payment id,
and `confirm` compares hashes.

Like a real processor, the sandbox remembers what it did with each payment (`store.sandbox_payments`):
`status` answers what really happened (a confirmation that started with a wrong code charged
nothing), whichever process asks (the reconciliation runs in its own function).
"""

from __future__ import annotations

import hmac
import uuid

from core import clock
from core.secrets import keyed_hash
from domain.payments import store
from domain.payments.cards import mask
from domain.payments.processor import (
    CARD_BLOCKED,
    CARD_DECLINED,
    INSUFFICIENT_FUNDS,
    CardDetails,
    CardEntry,
    CardToken,
    PaymentDeclined,
    PaymentState,
    PaymentStatus,
    ProcessorPayment,
    SentCode,
    WrongOtp,
)

SANDBOX_OTP = "666666"

# Test cards (all Luhn-valid) and what the sandbox does with them.
PAYS_UZCARD = "8600495473316478"
PAYS_HUMO = "9860350000000017"
INSUFFICIENT_FUNDS_CARD = "8600060000000027"  # declined at confirm, after a correct code
BLOCKED_CARD = "9860111111111113"  # declined at create

INSUFFICIENT_TOKEN_PREFIX = "sandbox-insufficient-"  # noqa: S105 (a sandbox marker, not a secret)
CARD_TOKEN_PREFIX = "sandbox-token-"  # noqa: S105 (a sandbox card token names its test card)

NOT_CHARGED, CHARGED = PaymentState.NOT_CHARGED.value, PaymentState.CHARGED.value


def _otp_hash(processor_id: str, otp: str) -> str:
    return keyed_hash("sandbox-otp", f"{processor_id}:{otp}")


def _test_card_of(token: CardToken) -> str:
    named = token.token.removeprefix(CARD_TOKEN_PREFIX)
    return named if token.token.startswith(CARD_TOKEN_PREFIX) and named.isdigit() else PAYS_UZCARD


class SandboxProcessor:
    name = "sandbox"
    card_entries: frozenset[CardEntry] = frozenset({"number", "token"})

    def create(self, card: CardDetails | CardToken, amount_tiyin: int, reference: str) -> ProcessorPayment:
        number = card.number if isinstance(card, CardDetails) else _test_card_of(card)
        if number == BLOCKED_CARD:
            raise PaymentDeclined(CARD_BLOCKED)
        # Like a real processor's card token, opaque to us; the sandbox keeps its scenario in it.
        prefix = INSUFFICIENT_TOKEN_PREFIX if number == INSUFFICIENT_FUNDS_CARD else "sandbox-"
        processor_id = f"sandbox-{reference}"
        store.record_sandbox_payment(processor_id, NOT_CHARGED, clock.now())
        return ProcessorPayment(
            processor_id=processor_id,
            token=f"{prefix}{uuid.uuid4().hex}",
            otp_hash=_otp_hash(processor_id, SANDBOX_OTP),
            card_mask=None if isinstance(card, CardDetails) else mask(number),
        )

    def resend_otp(self, payment: ProcessorPayment) -> SentCode:
        return SentCode(otp_hash=_otp_hash(payment.processor_id, SANDBOX_OTP))

    def confirm(self, payment: ProcessorPayment, otp: str) -> str | None:
        if payment.otp_hash is None or not hmac.compare_digest(_otp_hash(payment.processor_id, otp), payment.otp_hash):
            raise WrongOtp("wrong code")
        now = clock.now()
        if payment.token.startswith(INSUFFICIENT_TOKEN_PREFIX):
            store.move_sandbox_payment(
                payment.processor_id, (NOT_CHARGED,), PaymentState.DECLINED.value, now, reason=INSUFFICIENT_FUNDS
            )
            raise PaymentDeclined(INSUFFICIENT_FUNDS)
        # Charged once: confirming a charged payment again is a success that charges nothing more.
        after = store.move_sandbox_payment(payment.processor_id, (NOT_CHARGED, CHARGED), CHARGED, now)
        if after is None or after["state"] != CHARGED:
            raise PaymentDeclined((after["reason"] if after else None) or CARD_DECLINED)
        return None  # the sandbox cancels by the payment's own id

    def cancel(self, payment: ProcessorPayment) -> None:
        """A charged payment is refunded; one never charged has nothing to give back."""
        store.move_sandbox_payment(payment.processor_id, (CHARGED,), PaymentState.CANCELLED.value, clock.now())

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        """What the sandbox did with the payment; a payment it never registered was never charged."""
        recorded = store.find_sandbox_payment(payment.processor_id)
        if recorded is None:
            return PaymentStatus(PaymentState.NOT_CHARGED)
        return PaymentStatus(PaymentState(recorded["state"]), recorded["reason"])
