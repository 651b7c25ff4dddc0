"""Special offers: a bank's or a leasing company's promotional terms for a car (all its modifications,
or the listed ones), priced on the modification's current price; and an offer's schedule as data and
as a downloadable CSV file.

The file link is the graph route itself with `format=csv`, as an absolute URL under the address the
client called the API at, signed so that it opens as a plain link (a browser, a WebView) for an hour
without headers or token: it exists wherever the API runs, and is computed from the current price on
request.
"""

from __future__ import annotations

import io
from typing import Any

from aws_lambda_powertools.event_handler import Response

from core.locale import Locale, localize
from domain.catalog.records import ModificationRecord
from domain.financing import references, special_offers
from domain.financing.credit_math import CreditQuote, LeasingQuote
from domain.financing.models import Organization
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

GRAPH_PATH = "/api/v1/payments/special-offers/graph"
CSV_COLUMNS = ("month", "payment", "principal", "interest", "fee", "balance")


def offers(car_id: str, modification_id: str, kind: str, *, locale: Locale) -> SpecialOffers:
    """The active special offers of one kind for the car's modification; none when the car is not sold
    by that kind's payment type."""
    car, modification = references.car_and_modification(modification_id, car_id=car_id)
    price = modification["price"]
    items = [
        _priced(offer, special_offers.quote(offer, price), organization_ref(organization, locale), modification, locale)
        for offer, organization in special_offers.offers_for(car, modification["_id"], kind)
    ]
    return SpecialOffers(price=price, items=items, total=len(items))


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
    offer, organization = special_offers.offer_for(offer_id, car, modification["_id"])
    quote = special_offers.quote(offer, modification["price"])
    rows = _schedule_rows(quote)
    item = _priced(offer, quote, organization_ref(organization, locale), modification, locale)
    if file_format == "csv":
        return _csv(rows, f"offer-{offer_id}-schedule.csv")
    query = {"carId": car_id, "modificationId": modification_id, "offerId": offer_id, "format": "csv"}
    return OfferGraph(offer=item, schedule=list(rows), file=signed_link(api_base, GRAPH_PATH, query))


def _csv(rows: list[ScheduleRow] | list[LeasingScheduleRow], filename: str) -> Response[str]:
    import csv  # imported here: only the CSV download writes one

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
