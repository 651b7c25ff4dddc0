"""The MongoDB persistence layer of Powertools' Idempotency utility, and the call that applies it
(`edge.idempotency` imports this module on the first request carrying a key)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer, IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyItemAlreadyExistsError,
    IdempotencyItemNotFoundError,
    IdempotencyPersistenceLayerError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord
from aws_lambda_powertools.utilities.typing import LambdaContext
from pymongo.errors import DuplicateKeyError

from core.errors import Conflict, Unavailable
from core.observability import logger
from data.mongo import Index, get_db

COLLECTION = "idempotency_keys"
TTL_SECONDS = 24 * 60 * 60  # how long an answer is kept for a repeat
IN_PROGRESS_RETRY_AFTER_SECONDS = 2  # what a repeat arriving while the first still runs is told to wait

INDEXES = [
    Index(
        collection=COLLECTION, keys=[("expiresAt", 1)], name="idempotency_keys_ttl", options={"expireAfterSeconds": 0}
    )
]


class MongoPersistenceLayer(BasePersistenceLayer):
    """Idempotency records in one MongoDB collection, one document per hashed key.

    `_put_record` inserts, or takes over an expired record, with one conditional upsert: a live record
    makes the upsert collide on `_id`, which is how a repeat (or a concurrent first request) is detected."""

    def __init__(self, collection: str = COLLECTION) -> None:
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


_persistence = MongoPersistenceLayer()


def _replayed(response: Any, idempotent_data: DataRecord) -> Any:
    """Powertools' response hook: runs only when the answer comes from the store."""
    return {**response, "replayed": True}


def run_idempotent(
    request: dict[str, Any], run: Callable[[], dict[str, Any]], lambda_context: LambdaContext | None, *, key_name: str
) -> dict[str, Any]:
    """`run()` once per (route, user, key): a repeat with the same body gets the kept answer (marked
    `replayed`); another body, or the first still running, is a conflict naming the key (`key_name`)."""
    config = IdempotencyConfig(
        event_key_jmespath="[route, user, key]",
        payload_validation_jmespath="body",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=TTL_SECONDS,
        hash_function="sha256",
        lambda_context=lambda_context,  # an in-progress record of a crashed invocation frees the key
        response_hook=_replayed,
    )

    def once(request: dict[str, Any]) -> dict[str, Any]:
        return run()

    guarded = idempotent_function(
        data_keyword_argument="request", persistence_store=_persistence, config=config, key_prefix="api"
    )(once)
    try:
        answer: dict[str, Any] = guarded(request=request)
    except IdempotencyValidationError:
        raise Conflict("IDEMPOTENCY_KEY_REUSED", details={"header": key_name}) from None
    except IdempotencyAlreadyInProgressError:
        raise Conflict(
            "IDEMPOTENCY_KEY_IN_PROGRESS", details={"header": key_name}, retry_after=IN_PROGRESS_RETRY_AFTER_SECONDS
        ) from None
    except IdempotencyPersistenceLayerError:
        logger.exception("idempotency store unavailable")
        raise Unavailable() from None
    return answer
