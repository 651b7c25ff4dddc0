"""Inputs of the payments routes."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from common.validation import Money, MongoId, RequestModel

# Query parameters: a required ObjectId, named in a 400 when malformed (`query.brandId`).
QueryId = Annotated[MongoId, Query()]
GraphFormat = Annotated[Literal["json", "csv"], Query(description="json (default) or csv, the downloadable file")]


class LeasingCalculateBody(RequestModel):
    leasingId: MongoId = Field(description="a leasing program of GET /api/v1/payments/leasing")
    carId: MongoId
    modificationId: MongoId
    loanTermId: MongoId = Field(description="one of the program's loanTerms")
    initialPaymentId: MongoId = Field(description="one of the program's initialPayments")
    price: Money = Field(description="the modification's current price in sums, as the client showed it")
