"""`Idempotency-Key` on the routes that create things or move money: a client that lost an answer
retries with the same key and gets the first answer instead of a second order or payment.

    @app.post("/api/v1/orders", middlewares=[JWT, IDEMPOTENT])

The header is optional; when sent it must be a UUID (400 otherwise). A key is scoped to the caller and
the route. The protocol is Powertools' Idempotency utility (`idempotent_function`): the first request
stores an in-progress record, runs, and stores its answer; a repeat with the same body gets that answer
(status, body, headers, plus `Idempotent-Replayed: true`) without running again; a repeat with another
body is 409; a repeat while the first still runs is 409 with Retry-After. Records live 24 h (a TTL
index removes them). This module supplies the MongoDB persistence layer, written on the utility's
documented extension point (a `BasePersistenceLayer` subclass).

Which answers are kept: successes, and refusals that are final (400, 404, 422: repeating the request
changes nothing). A 409, 429 or 5xx means "not done, try again" here (a race, a rate limit, an outage),
so the record is dropped and a retry with the same key runs again.

The record holds no request data in clear: the key is a SHA-256 of (route, caller, key), and the body
is represented by a keyed hash (card numbers and codes travel in these bodies).
"""

from __future__ import annotations

import json
import uuid
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

from common import context, responses
from common.db import Index
from common.errors import AppError, BadRequest, Conflict, ServiceUnavailable
from common.observability import logger
from common.secrets import keyed_hash

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
TTL_SECONDS = 24 * 60 * 60
IN_PROGRESS_RETRY_AFTER_SECONDS = 2
COLLECTION = "idempotency_keys"
# Final refusals: the same request would be refused the same way, so the answer is kept.
KEPT_ERROR_STATUSES = frozenset({400, 404, 422})

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer
    from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

INDEXES = [Index(COLLECTION, [("expiresAt", 1)], "idempotency_keys_ttl", {"expireAfterSeconds": 0})]


@lru_cache(maxsize=1)
def _persistence() -> BasePersistenceLayer:
    from common.idempotency_store import MongoPersistenceLayer

    return MongoPersistenceLayer(COLLECTION)


def _replayed(response: Any, idempotent_data: DataRecord) -> Any:
    """Powertools' response hook: runs only when the answer comes from the store."""
    return {**response, "replayed": True}


def _answer(response: Response) -> dict[str, Any]:
    body = response.body
    return {
        "status": response.status_code,
        "body": body.decode() if isinstance(body, bytes) else body,
        "headers": {name: value for name, value in response.headers.items() if isinstance(value, str)},
    }


def _run(request: dict[str, Any], proceed: NextMiddleware, app: Any) -> dict[str, Any]:
    try:
        return _answer(proceed(app))
    except AppError as error:
        if error.status not in KEPT_ERROR_STATUSES:
            raise  # not done: the record is dropped and a retry runs again
        return _answer(
            responses.error(
                error.status, error.message, errors=error.errors, details=error.details, headers=error.headers
            )
        )


def _parse_key(raw: str) -> str:
    try:
        return str(uuid.UUID(raw.strip()))
    except ValueError:
        raise BadRequest.field(f"header.{HEADER}", "must be a UUID") from None


def body_fingerprint(body: Any) -> str:
    """A keyed hash of the JSON body, independent of key order and spacing: equal bodies, equal hashes."""
    return keyed_hash("idempotency-body", json.dumps(body, sort_keys=True, separators=(",", ":")))


class IdempotentRoute:
    """Route middleware (after the access gate and body validation) applying `Idempotency-Key`."""

    __name__ = "idempotent"

    def __call__(self, app: Any, next_middleware: NextMiddleware) -> Response:
        raw = app.current_event.headers.get(HEADER)
        if raw is None:
            return next_middleware(app)
        # Imported here: Powertools' idempotency package imports boto3 with its DynamoDB layer, which only
        # requests that carry a key should pay for (not every cold start of Orders and Transactions).
        from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
        from aws_lambda_powertools.utilities.idempotency.exceptions import (
            IdempotencyAlreadyInProgressError,
            IdempotencyPersistenceLayerError,
            IdempotencyValidationError,
        )

        event = app.current_event
        request = {
            "route": f"{event.http_method} {event.resource}",
            "user": context.caller_id(),
            "key": _parse_key(raw),
            "body": body_fingerprint(event.json_body),
        }
        config = IdempotencyConfig(
            event_key_jmespath="[route, user, key]",
            payload_validation_jmespath="body",
            raise_on_no_idempotency_key=True,
            expires_after_seconds=TTL_SECONDS,
            hash_function="sha256",
            lambda_context=app.lambda_context,  # an in-progress record of a crashed invocation frees the key
            response_hook=_replayed,
        )
        run = idempotent_function(
            data_keyword_argument="request", persistence_store=_persistence(), config=config, key_prefix="api"
        )(_run)
        try:
            answer = run(request=request, proceed=next_middleware, app=app)
        except IdempotencyValidationError:
            raise Conflict(
                f"This {HEADER} was already used with a different request body; send a new key for a new request",
                details={"header": HEADER},
            ) from None
        except IdempotencyAlreadyInProgressError:
            raise Conflict(
                f"A request with this {HEADER} is still being processed; retry shortly",
                details={"header": HEADER},
                headers={"Retry-After": str(IN_PROGRESS_RETRY_AFTER_SECONDS)},
            ) from None
        except IdempotencyPersistenceLayerError:
            logger.exception("idempotency store unavailable")
            raise ServiceUnavailable() from None
        headers = dict(answer["headers"])
        if answer.get("replayed"):
            headers[REPLAYED_HEADER] = "true"
        return Response(status_code=answer["status"], body=answer["body"], headers=headers)


IDEMPOTENT = IdempotentRoute()
