"""Special offers: a bank's or a leasing company's promotional terms for a car (all its modifications,
or the listed ones), priced on the modification's current price; and an offer's schedule as data and
as a downloadable CSV file.

The file link is the graph route itself with `format=csv`, as an absolute URL under the address the
client called the API at, signed so that it opens as a plain link (a browser, a WebView) for an hour
without headers or token: it exists wherever the API runs, and is computed from the current price on
request.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from aws_lambda_powertools.event_handler import Response
from bson import ObjectId

from core import clock
from core.errors import NotFound
from core.locale import Locale, localize
from core.models import Organization
from domain.catalog.payment_types import PaymentType
from domain.catalog.records import ModificationRecord
from domain.financing import references, store
from domain.financing.credit_math import CreditQuote, LeasingQuote, RefundType, credit_quote, leasing_quote
from domain.financing.deals import program_pricing
from domain.financing.offered import ensure_offered, is_offered
from domain.financing.records import SpecialOfferRecord
from domain.financing.views import credit_fields, leasing_fields, organization_ref, percent
from edge.links import signed_link
from payments.leasing import price_terms
from payments.models import (
    BankSpecialOffer,
    LeasingScheduleRow,
    LeasingSpecialOffer,
    OfferGraph,
    ScheduleRow,
    SpecialOffer,
    SpecialOffers,
    leasing_schedule_rows,
    schedule_rows,
)

BANK, LEASING = "BANK", "LEASING"
PAYMENT_TYPE_OF = {BANK: PaymentType.CREDIT, LEASING: PaymentType.LEASING}
GRAPH_PATH = "/api/v1/payments/special-offers/graph"
CSV_COLUMNS = ("month", "payment", "principal", "interest", "fee", "balance")


def offers(car_id: str, modification_id: str, kind: str, *, locale: Locale) -> SpecialOffers:
    """The active special offers of one kind for the car's modification; none when the car is not sold
    by that kind's payment type."""
    car, modification = references.car_and_modification(modification_id, car_id=car_id)
    if not is_offered(car, PAYMENT_TYPE_OF[kind]):
        return SpecialOffers(price=modification["price"], items=[], total=0)
    found = [offer for offer in store.special_offers_of_car(car_id, kind) if _applies(offer, modification["_id"])]
    organizations = store.active_organizations([offer["organizationId"] for offer in found])
    price = modification["price"]
    items = [
        _priced(
            offer,
            _quote(offer, price),
            organization_ref(organizations[offer["organizationId"]], locale),
            modification,
            locale,
        )
        for offer in found
        if offer["organizationId"] in organizations
    ]
    return SpecialOffers(price=modification["price"], items=items, total=len(items))


def _applies(offer: SpecialOfferRecord, modification_id: ObjectId) -> bool:
    listed = offer.get("modificationIds") or []
    valid_until = offer.get("validUntil")
    return (not listed or modification_id in listed) and (valid_until is None or valid_until >= clock.now())


def _quote(offer: SpecialOfferRecord, price: int) -> CreditQuote | LeasingQuote:
    """The offer's terms on this price."""
    terms = offer["terms"]
    if offer["kind"] == BANK:
        refund_type = RefundType(terms["refundType"])
        return credit_quote(price, terms["initialPercent"], terms["months"], terms["rateBp"], refund_type)
    return leasing_quote(price, program_pricing(terms, terms["initialPercent"], terms["months"]))


def _priced(
    offer: SpecialOfferRecord,
    quote: CreditQuote | LeasingQuote,
    organization: Organization,
    modification: ModificationRecord,
    locale: Locale,
) -> SpecialOffer:
    """The offer as a list item with the figures of its quote for this modification."""
    terms = offer["terms"]
    common: dict[str, Any] = {
        "_id": offer["_id"],
        "title": localize(offer["title"], locale),
        "description": localize(offer.get("description", ""), locale),
        "organization": organization,
        "validUntil": offer.get("validUntil"),
        "modificationId": modification["_id"],
    }
    if isinstance(quote, CreditQuote):
        bank_terms = {
            "initialPercent": terms["initialPercent"],
            "months": terms["months"],
            "rate": percent(terms["rateBp"]),
            "refundType": terms["refundType"],
        }
        return BankSpecialOffer(**common, **credit_fields(quote), kind="BANK", terms=bank_terms)
    leasing_terms = {"initialPercent": terms["initialPercent"], "months": terms["months"], **price_terms(terms)}
    return LeasingSpecialOffer(**common, **leasing_fields(quote), kind="LEASING", terms=leasing_terms)


def _schedule_rows(quote: CreditQuote | LeasingQuote) -> list[ScheduleRow] | list[LeasingScheduleRow]:
    """The quote's month-by-month rows: built only for the route that answers them (the list of offers
    shows the figures alone)."""
    if isinstance(quote, CreditQuote):
        return schedule_rows(quote.schedule)
    return leasing_schedule_rows(quote)


def graph(
    car_id: str, modification_id: str, offer_id: str, file_format: str, *, api_base: str, locale: Locale
) -> OfferGraph | Response[str]:
    """The offer's month-by-month schedule (`payment = principal + interest + fee`), as data or CSV;
    `file` links the CSV under `api_base`, the API's URL as the client called it."""
    car, modification = references.car_and_modification(modification_id, car_id=car_id)
    offer = store.find_special_offer(offer_id)
    if offer is None:
        raise NotFound("SPECIAL_OFFER_NOT_FOUND")
    if offer["carId"] != ObjectId(car_id) or not _applies(offer, modification["_id"]):
        raise NotFound("IDS_DO_NOT_MATCH", field="offerId", parent="carId, modificationId")
    ensure_offered(car, PAYMENT_TYPE_OF[offer["kind"]])
    organization = store.active_organizations([offer["organizationId"]]).get(offer["organizationId"])
    if organization is None:
        raise NotFound("SPECIAL_OFFER_NOT_FOUND")
    quote = _quote(offer, modification["price"])
    rows = _schedule_rows(quote)
    item = _priced(offer, quote, organization_ref(organization, locale), modification, locale)
    if file_format == "csv":
        return _csv(rows, f"offer-{offer_id}-schedule.csv")
    query = {"carId": car_id, "modificationId": modification_id, "offerId": offer_id, "format": "csv"}
    return OfferGraph(offer=item, schedule=list(rows), file=signed_link(api_base, GRAPH_PATH, query))


def _csv(rows: list[ScheduleRow] | list[LeasingScheduleRow], filename: str) -> Response[str]:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({column: row.get(column, 0) for column in CSV_COLUMNS} for row in rows)
    return Response(
        status_code=200,
        content_type="text/csv; charset=utf-8",
        body=out.getvalue(),
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
