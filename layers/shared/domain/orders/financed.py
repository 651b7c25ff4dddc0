"""The financing an order carries (docs/DECISIONS.md, "Financed orders"): the choices the client made on
the financing routes, re-checked against the ordered car and modification at the current price with
the same functions those routes answer with (`domain.financing.deals`), and the figures they give.

The order has read its car and modification (`purchase`) before it asks financing: it passes them to the
deal, so financing reads no catalog and calls nothing back.

What the buyer pays the dealer by card now (`amountDueNow`) is the deal's initial payment; the rest is
the bank's loan, the lessor's financing or the installments.
"""

from typing import Any, NamedTuple

from pydantic import BaseModel

from core.errors import Conflict, InvalidInput, NotFound
from data.mongo import Document
from domain.catalog.payment_types import PaymentType
from domain.financing import deals
from domain.financing.offered import is_offered, offered_payment_types
from domain.financing.records import OrganizationRecord
from domain.orders.purchase import Purchase
from domain.orders.requests import CreditRequest, FinancingRequest, InstallmentRequest, LeasingRequest, OrderRequest


class FinancedDeal(NamedTuple):
    """A financed order's deal: who finances it, the chosen offer, the choices and their figures."""

    payment_type: PaymentType
    organization_id: str
    offer_id: str  # the bank offer, leasing program or installment plan
    choices: dict[str, Any]
    figures: dict[str, Any]  # as the financing route answers them

    @property
    def initial_payment(self) -> int:
        return int(self.figures["initialPayment"])

    def document(self) -> Document:
        """What the order stores under `financing`."""
        return {
            "paymentType": self.payment_type.value,
            "organizationId": self.organization_id,
            "offerId": self.offer_id,
            "choices": self.choices,
            **self.figures,
        }


def financed_deal(request: OrderRequest, purchase: Purchase) -> FinancedDeal | None:
    """The deal of a financed order, checked against what is ordered; None for CASH. 409 when the car is not
    sold by the order's payment type, with those it is sold by (the request carries the choices of its
    payment type: the Orders function's body model refuses one without them)."""
    kind = request.payment_type
    if not is_offered(purchase.car, kind):
        offered = [offered.value for offered in offered_payment_types(purchase.car)]
        raise Conflict("PAYMENT_TYPE_NOT_OFFERED", paymentType=kind.value, details={"paymentTypes": offered})
    choice = request.financing
    ordered = (purchase.car, purchase.modification)
    car_id, modification_id = str(purchase.car["_id"]), str(purchase.modification["_id"])
    deal: FinancedDeal | None = None
    if isinstance(choice, CreditRequest):
        deal = _credit(choice, purchase)
    elif isinstance(choice, LeasingRequest):
        lease = deals.leasing_deal(
            choice.leasing_id,
            car_id,
            modification_id,
            choice.loan_term_id,
            choice.initial_payment_id,
            ordered=ordered,
        )
        deal = _financed(choice, lease.company, choice.leasing_id, lease.figures())
    elif isinstance(choice, InstallmentRequest):
        plan = deals.installment_deal(
            choice.plan_id, car_id, modification_id, choice.initial_percent, choice.months, ordered=ordered
        )
        deal = _financed(choice, plan.provider, choice.plan_id, plan.figures())
    if deal is not None:
        _check_named(request, deal)
    return deal


def _credit(choice: CreditRequest, purchase: Purchase) -> FinancedDeal:
    """The credit priced on the ordered car and modification; an offer for another car or modification is
    refused, after what the bank calculation would refuse of it."""
    credit = deals.credit_deal(
        choice.offer_id,
        choice.income_type_id,
        choice.initial_payment_id,
        choice.loan_term_id,
        choice.refund_type_id,
        ordered=(purchase.car, purchase.modification),
    )
    offer = credit.offer
    if offer["carId"] != purchase.car["_id"] or offer["modificationId"] != purchase.modification["_id"]:
        raise NotFound("BANK_OFFER_NOT_FOR_CAR", details={"field": "credit.bankId"})
    return _financed(choice, credit.bank, choice.offer_id, credit.figures())


def _financed(
    choice: FinancingRequest, organization: OrganizationRecord, offer_id: str, figures: BaseModel
) -> FinancedDeal:
    return FinancedDeal(
        payment_type=choice.payment_type,
        organization_id=str(organization["_id"]),
        offer_id=offer_id,
        choices=choice.choices(),
        figures=figures.model_dump(mode="json"),
    )


def _check_named(request: OrderRequest, deal: FinancedDeal) -> None:
    """`organizationId` and `offerId` (optional, from before orders carried the choices) must name the
    deal's organization and offer."""
    if request.organization_id is not None and request.organization_id != deal.organization_id:
        raise InvalidInput.field("body.organizationId", "ORGANIZATION_NOT_OF_OFFER")
    if request.offer_id is not None and request.offer_id != deal.offer_id:
        raise InvalidInput.field("body.offerId", "OFFER_NOT_CHOSEN")
