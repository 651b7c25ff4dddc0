"""The card-processor port: what a payment needs from a processor, whichever one it is.

Flow (the Uzbek processors' card-payment flow): `create` registers the payment for a card (its number
and expiry, or a card token the partner's app got from the processor: `card_entries` says which the
processor takes) and an amount in tiyin and sends the SMS code to the card holder's phone,
`resend_otp` sends a code again, `confirm` debits the card with the code (a payment already charged is
not charged again) and answers the processor's id of the charge, `cancel` voids or refunds a payment
that the order can no longer take (by that charge id where the processor needs it), `status` says what
became of a payment (for the reconciliation of one whose confirm answer was lost). Nothing is debited
before `confirm`.

Adapters, each importing this port: `sandbox` (the default on a laptop and in dev, behaving like the
processors' sandboxes), `atmos` (ATMOS, UZCARD/HUMO acquiring) and `payme` (the Payme Subscribe
API); `processor_factory` chooses one by PAYMENT_PROCESSOR.
"""

from enum import StrEnum
from typing import Literal, NamedTuple, Protocol

TIYIN_PER_SUM = 100

# Why a processor declined a payment (`PaymentDeclined.reason`): each a final answer about the buyer's
# card or amount; nothing was debited.
INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS"
CARD_BLOCKED = "CARD_BLOCKED"
CARD_EXPIRED = "CARD_EXPIRED"
CARD_DATA_WRONG = "CARD_DATA_WRONG"  # no such card, or not this expiry
LIMIT_EXCEEDED = "LIMIT_EXCEEDED"  # the card's own limit on payments
AMOUNT_OUT_OF_RANGE = "AMOUNT_OUT_OF_RANGE"  # below or above what the processor takes in one payment
CARD_DECLINED = "CARD_DECLINED"  # any other refusal of the card

# How a buyer's card reaches a processor (`CardProcessor.card_entries`).
CardEntry = Literal["number", "token"]


def to_tiyin(amount: int) -> int:
    """Sums to tiyin, the unit processors count in. Amounts are whole sums, so this is exact."""
    return amount * TIYIN_PER_SUM


class CardDetails(NamedTuple):
    number: str  # 16 digits; lives only for the length of one request
    expiry_year: int
    expiry_month: int


class CardToken(NamedTuple):
    """A card the partner's app tokenized at the processor (Payme's `cards.create` from the app): the
    card number never reaches us."""

    token: str


class SentCode(NamedTuple):
    """What sending a code produced: (sandbox only) its keyed hash, and how long the processor says it is
    valid (None: the processor does not say, our own rule applies)."""

    otp_hash: str | None = None
    lifetime_seconds: int | None = None


class ProcessorPayment(NamedTuple):
    """What we keep of a payment at the processor: its id, its card token (empty when the processor
    keeps none), (sandbox only) the keyed hash of the code it sent, the processor's id of the charge once
    charged (ATMOS's `success_trans_id`, which a reverse needs), the card as the processor shows it
    (masked, for a tokenized card) and the code's lifetime it answered."""

    processor_id: str
    token: str
    otp_hash: str | None = None
    charge_id: str | None = None
    card_mask: str | None = None
    code_lifetime_seconds: int | None = None


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
    reason: str | None = None  # why it was declined: INSUFFICIENT_FUNDS, CARD_BLOCKED, ...
    charge_id: str | None = None  # the processor's id of the charge, when it says one


class CardProcessor(Protocol):
    name: str
    card_entries: frozenset[CardEntry]  # what the processor takes: a card number and expiry, a card token

    def create(self, card: CardDetails | CardToken, amount_tiyin: int, reference: str) -> ProcessorPayment:
        """Register the payment and send the SMS code; `otp_hash` is set if this adapter checks codes itself."""
        ...

    def resend_otp(self, payment: ProcessorPayment) -> SentCode:
        """Send a new SMS code."""
        ...

    def confirm(self, payment: ProcessorPayment, otp: str) -> str | None:
        """Debit the card with the code; returns only once the processor says charged, with its id of the
        charge when it gives one."""
        ...

    def cancel(self, payment: ProcessorPayment) -> None: ...

    def status(self, payment: ProcessorPayment) -> PaymentStatus:
        """Ask what became of a payment whose confirm answer was lost (payment reconciliation)."""
        ...
