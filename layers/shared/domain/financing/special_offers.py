"""Special offers: a bank's or a leasing company's promotional terms for a car (all its modifications, or
the listed ones) while valid, by an active organization, and for a car sold by the offer's payment type;
each priced on the modification's current price (`quote`)."""

from __future__ import annotations

from bson import ObjectId

from core import clock
from core.errors import NotFound
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import CarRecord
from domain.financing import store
from domain.financing.credit_math import CreditQuote, LeasingQuote, RefundType, credit_quote, leasing_quote
from domain.financing.deals import program_pricing
from domain.financing.offered import ensure_offered, is_offered
from domain.financing.records import OrganizationRecord, SpecialOfferRecord

# An offer's kind, and the payment type it finances.
BANK, LEASING = "BANK", "LEASING"
PAYMENT_TYPE_OF = {BANK: PaymentType.CREDIT, LEASING: PaymentType.LEASING}


def offers_for(
    car: CarRecord, modification_id: ObjectId, kind: str
) -> list[tuple[SpecialOfferRecord, OrganizationRecord]]:
    """The car's special offers of one kind that apply to the modification, each with its organization, in
    their order; none when the car is not sold by that kind's payment type."""
    if not is_offered(car, PAYMENT_TYPE_OF[kind]):
        return []
    found = [offer for offer in store.special_offers_of_car(car["_id"], kind) if _applies(offer, modification_id)]
    organizations = store.active_organizations([offer["organizationId"] for offer in found])
    return [
        (offer, organizations[offer["organizationId"]]) for offer in found if offer["organizationId"] in organizations
    ]


def offer_for(
    offer_id: str, car: CarRecord, modification_id: ObjectId
) -> tuple[SpecialOfferRecord, OrganizationRecord]:
    """The special offer with its organization, checked to apply to the car's modification: 404 when there
    is no such offer or its organization is not active, naming `offerId` when it is another car's or does
    not apply, and when the car is not sold by the offer's payment type."""
    found = store.find_special_offer(offer_id)
    if found is None:
        raise NotFound("SPECIAL_OFFER_NOT_FOUND")
    if found["carId"] != car["_id"] or not _applies(found, modification_id):
        raise NotFound("IDS_DO_NOT_MATCH", field="offerId", parent="carId, modificationId")
    ensure_offered(car, PAYMENT_TYPE_OF[found["kind"]])
    organization = store.active_organizations([found["organizationId"]]).get(found["organizationId"])
    if organization is None:
        raise NotFound("SPECIAL_OFFER_NOT_FOUND")
    return found, organization


def _applies(offer: SpecialOfferRecord, modification_id: ObjectId) -> bool:
    listed = offer.get("modificationIds") or []
    valid_until = offer.get("validUntil")
    return (not listed or modification_id in listed) and (valid_until is None or valid_until >= clock.now())


def quote(offer: SpecialOfferRecord, price: int) -> CreditQuote | LeasingQuote:
    """The offer's terms on this price."""
    terms = offer["terms"]
    if offer["kind"] == BANK:
        refund_type = RefundType(terms["refundType"])
        return credit_quote(price, terms["initialPercent"], terms["months"], terms["rateBp"], refund_type)
    return leasing_quote(price, program_pricing(terms, terms["initialPercent"], terms["months"]))
