"""The financing an order carries (docs/DECISIONS.md, "Financed orders"): the choices the client made on
the financing routes, re-checked against the ordered car and modification at the current price with
the same functions those routes answer with (`domain.financing.deals`), and the figures they give.

What the buyer pays the dealer by card now (`amountDueNow`) is the deal's initial payment; the rest is
the bank's loan, the lessor's financing or the installments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from core.errors import InvalidInput, NotFound
from domain.catalog.payment_types import PaymentType
from domain.financing import deals
from orders.models import CreateOrderBody, CreditChoice
from orders.references import Purchase

Doc = dict[str, Any]


@dataclass(frozen=True)
class Deal:
    payment_type: PaymentType
    organization_id: str
    offer_id: str  # the bank offer, leasing program or installment plan
    choices: Doc
    figures: Doc  # as the financing route answers them

    @property
    def initial_payment(self) -> int:
        return int(self.figures["initialPayment"])

    def document(self) -> Doc:
        """What the order stores under `financing`."""
        return {
            "paymentType": self.payment_type.value,
            "organizationId": self.organization_id,
            "offerId": self.offer_id,
            "choices": self.choices,
            **self.figures,
        }


def choose(body: CreateOrderBody, purchase: Purchase) -> Deal | None:
    """The deal of a financed order, checked against what is ordered; None for CASH. The body model has
    already refused a financed order without its choices."""
    car_id, modification_id = str(purchase.car["_id"]), str(purchase.modification["_id"])
    deal: Deal | None = None
    if body.credit is not None:
        deal = _credit(body.credit, purchase)
    elif body.leasing is not None:
        choice = body.leasing
        lease = deals.leasing_deal(
            choice.leasingId, car_id, modification_id, choice.loanTermId, choice.initialPaymentId
        )
        deal = _deal(PaymentType.LEASING, lease.company.id, choice.leasingId, choice, lease.figures())
    elif body.installment is not None:
        cell = body.installment
        plan = deals.installment_deal(cell.planId, car_id, modification_id, cell.initialPercent, cell.months)
        deal = _deal(PaymentType.INSTALLMENT, plan.provider.id, cell.planId, cell, plan.figures())
    if deal is not None:
        _check_named(body, deal)
    return deal


def _deal(
    payment_type: PaymentType, organization_id: str, offer_id: str, choice: BaseModel, figures: BaseModel
) -> Deal:
    return Deal(payment_type, organization_id, offer_id, choice.model_dump(), figures.model_dump(mode="json"))


def _credit(choice: CreditChoice, purchase: Purchase) -> Deal:
    credit = deals.credit_deal(
        choice.bankId, choice.incomeTypeId, choice.initialPaymentId, choice.loanTermId, choice.refundTypeId
    )
    offer = credit.offer
    if offer["carId"] != purchase.car["_id"] or offer["modificationId"] != purchase.modification["_id"]:
        raise NotFound(
            "credit.bankId is a bank offer for another car or modification: choose one from "
            "/api/v2/payments/banks for this car and modification",
            details={"field": "credit.bankId"},
        )
    return _deal(PaymentType.CREDIT, credit.bank.id, choice.bankId, choice, credit.figures())


def _check_named(body: CreateOrderBody, deal: Deal) -> None:
    """`organizationId` and `offerId` (optional, from before orders carried the choices) must name the
    deal's organization and offer."""
    if body.organizationId is not None and body.organizationId != deal.organization_id:
        raise InvalidInput.field(
            "body.organizationId", f"is not the organization of the chosen offer ({deal.organization_id})"
        )
    if body.offerId is not None and body.offerId != deal.offer_id:
        raise InvalidInput.field("body.offerId", f"is not the chosen offer ({deal.offer_id})")
