"""The MongoDB persistence layer of Powertools' Idempotency utility, for `common.idempotency`.

A module of its own because Powertools' idempotency package imports boto3 (for its DynamoDB layer):
only requests that send an Idempotency-Key import it, not every cold start."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyItemAlreadyExistsError,
    IdempotencyItemNotFoundError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord
from pymongo.errors import DuplicateKeyError

from common.db import get_db


class MongoPersistenceLayer(BasePersistenceLayer):
    """Idempotency records in one MongoDB collection, one document per hashed key.

    `_put_record` inserts, or takes over an expired record, with one conditional upsert: a live record
    makes the upsert collide on `_id`, which is how a repeat (or a concurrent first request) is detected."""

    def __init__(self, collection: str) -> None:
        super().__init__()
        self.collection = collection

    def _records(self) -> Any:
        return get_db()[self.collection]

    def _get_record(self, idempotency_key: str) -> DataRecord:
        document = self._records().find_one({"_id": idempotency_key})
        if document is None:
            raise IdempotencyItemNotFoundError
        return _to_record(document)

    def _put_record(self, data_record: DataRecord) -> None:
        now = datetime.now(UTC)
        taken_over = {
            "_id": data_record.idempotency_key,
            "$or": [
                {"expiry": {"$lt": int(now.timestamp())}},
                {"status": "INPROGRESS", "inProgressExpiry": {"$lt": int(now.timestamp() * 1000)}},
            ],
        }
        try:
            self._records().replace_one(taken_over, _to_document(data_record), upsert=True)
        except DuplicateKeyError:
            # A live record holds the key. Without the old record attached, the utility reads it back
            # through `_get_record` and checks the body hash there.
            raise IdempotencyItemAlreadyExistsError from None

    def _update_record(self, data_record: DataRecord) -> None:
        document = _to_document(data_record)
        del document["_id"]
        self._records().update_one({"_id": data_record.idempotency_key}, {"$set": document})

    def _delete_record(self, data_record: DataRecord) -> None:
        self._records().delete_one({"_id": data_record.idempotency_key})


def _to_document(record: DataRecord) -> dict[str, Any]:
    expiry = int(record.expiry_timestamp or 0)
    return {
        "_id": record.idempotency_key,
        "status": record.status,
        "expiry": expiry,
        "expiresAt": datetime.fromtimestamp(expiry, UTC),  # what the TTL index reads
        "inProgressExpiry": record.in_progress_expiry_timestamp,
        "payloadHash": record.payload_hash,
        "response": record.response_data,
    }


def _to_record(document: dict[str, Any]) -> DataRecord:
    return DataRecord(
        idempotency_key=document["_id"],
        status=document["status"],
        expiry_timestamp=document.get("expiry"),
        in_progress_expiry_timestamp=document.get("inProgressExpiry"),
        response_data=document.get("response") or "",
        payload_hash=document.get("payloadHash") or "",
    )
