"""The JSON text events and error envelopes carry: ids, UTC times and models as the API writes them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from bson import ObjectId

from core.models import ApiModel, Id
from core.serialization import to_json


class Paid(ApiModel):
    orderId: Id
    amount: int


def test_ids_times_amounts_and_models_are_written_as_the_api_writes_them() -> None:
    # Given an event detail with a MongoDB id, an aware UTC time, a Decimal and a response model
    order_id = ObjectId("665f1c2e9b1e8a3d4c5b6a79")
    detail = {
        "orderId": order_id,
        "at": datetime(2026, 11, 23, 19, 2, 14, tzinfo=UTC),
        "amount": Decimal("300000000"),
        "rate": Decimal("0.5"),
        "payment": Paid(orderId=str(order_id), amount=300_000_000),
    }

    # When it is written as JSON
    text = to_json(detail)

    # Then ids are hex text, times end in Z, whole Decimals are integers, models are their JSON form
    assert json.loads(text) == {
        "orderId": "665f1c2e9b1e8a3d4c5b6a79",
        "at": "2026-11-23T19:02:14Z",
        "amount": 300000000,
        "rate": 0.5,
        "payment": {"orderId": "665f1c2e9b1e8a3d4c5b6a79", "amount": 300000000},
    }


def test_anything_else_is_refused_rather_than_written_as_its_repr() -> None:
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        to_json({"tags": {"a"}})
