"""The card-processor port: what a payment needs from a processor, whichever one it is.

Flow (the Uzbek processors' card-payment flow): `create` registers the payment for a card and an
amount in tiyin and sends the SMS code to the card holder's phone, `resend_otp` sends a code again,
`confirm` debits the card with the code (a payment already charged is not charged again), `cancel`
voids or refunds a payment that the order can no longer take, `status` says what became of a payment
(for the reconciliation of one whose confirm answer was lost). Nothing is debited before `confirm`.

Adapters, each importing this port: `sandbox` (the default on a laptop and in dev, behaving like the
processors' sandboxes), `atmos` (ATMOS, UZCARD/HUMO acquiring) and `payme` (the Payme Subscribe
API); `processor_factory` chooses one by PAYMENT_PROCESSOR.
"""

from enum import StrEnum
from typing import NamedTuple, Protocol

TIYIN_PER_SUM = 100

# Why a processor declined a payment (`PaymentDeclined.reason`).
INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS"
CARD_BLOCKED = "CARD_BLOCKED"
CARD_DECLINED = "CARD_DECLINED"


def to_tiyin(amount: int) -> int:
    """Sums to tiyin, the unit processors count in. Amounts are whole sums, so this is exact."""
    return amount * TIYIN_PER_SUM


class CardDetails(NamedTuple):
    number: str  # 16 digits; lives only for the length of one request
    expiry_year: int
    expiry_month: int


class ProcessorPayment(NamedTuple):
    """What we keep of a payment at the processor: its id, its card token (empty when the processor
    keeps none), and (sandbox only) the keyed hash of the code it sent."""

    processor_id: str
    token: str
    otp_hash: str | None = None


class ProcessorError(Exception):
    """A processor's answer that is not success. Messages never contain card data or codes."""


class WrongOtp(ProcessorError):
    pass


class OtpExpired(ProcessorError):
    pass


class PaymentDeclined(ProcessorError):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ProcessorUnavailable(ProcessorError):
    """Outage, timeout or an answer we cannot read: the outcome of the call is unknown."""


class PaymentState(StrEnum):
    """What the processor says happened to a payment (`CardProcessor.status`)."""

    CHARGED = "CHARGED"  # the card was debited
    NOT_CHARGED = "NOT_CHARGED"  # registered (maybe a code sent), never debited
    DECLINED = "DECLINED"  # the charge was refused (`PaymentStatus.reason`)
    CANCELLED = "CANCELLED"  # voided or refunded


class PaymentStatus(NamedTuple):
    state: PaymentState
    reason: str | None = None  # why it was declined: INSUFFICIENT_FUNDS, CARD_BLOCKED, CARD_DECLINED


class CardProcessor(Protocol):
    name: str

    def create(self, card: CardDetails, amount_tiyin: int, reference: str) -> ProcessorPayment:
        """Register the payment and send the SMS code; `otp_hash` is set if this adapter checks codes itself."""
        ...

    def resend_otp(self, payment: ProcessorPayment) -> str | None:
        """Send a new SMS code; the keyed hash of the code if this adapter checks codes itself."""
        ...

    def confirm(self, payment: ProcessorPayment, otp: str) -> None:
        """Debit the card with the code; returns only once the processor says charged."""
        ...

    def cancel(self, payment: ProcessorPayment) -> None: ...

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        """Ask what became of a payment whose confirm answer was lost (payment reconciliation)."""
        ...
