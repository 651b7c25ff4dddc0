"""`Idempotency-Key` on the routes that create things or move money: a client that lost an answer
retries with the same key and gets the first answer instead of a second order or payment.

    @app.post("/api/v1/orders", middlewares=[JWT, IDEMPOTENT])

The header is optional; when sent it must be a UUID (400 otherwise). A key is scoped to the caller and
the route. The protocol is Powertools' Idempotency utility (`idempotent_function`): the first request
stores an in-progress record, runs, and stores its answer; a repeat with the same body gets that answer
(status, body, headers, plus `Idempotent-Replayed: true`) without running again; a repeat with another
body is 409; a repeat while the first still runs is 409 with Retry-After. Records live 24 h (a TTL
index removes them). This module supplies the MongoDB persistence layer, written on the utility's
documented extension point (a `BasePersistenceLayer` subclass, `data.idempotency_store`).

Which answers are kept: successes, and refusals that are final (400, 404, 422: repeating the request
changes nothing). A 409, 429 or 5xx means "not done, try again" here (a race, a rate limit, an outage),
so the record is dropped and a retry with the same key runs again.

The record holds no request data in clear: the key is a SHA-256 of (route, caller, key), and the body
is represented by a keyed hash (card numbers and codes travel in these bodies). The caller is the user id
the access token names, never the token: a refreshed token, or one signed after a key rotation, is the
same caller. The body's hash is keyed by the JWT key, so after a rotation a retry's body is also hashed
under the previous key before it is judged another body (`core.secrets.keyed_hashes`).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

from core.errors import AppError, Conflict, InvalidInput
from core.secrets import keyed_hashes
from core.serialization import to_json
from edge import context, responses
from edge.errors import status_of

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
# Final refusals: the same request would be refused the same way, so the answer is kept.
KEPT_ERROR_STATUSES = frozenset({400, 404, 422})


def _answer(response: Response) -> dict[str, Any]:
    """The answer as the store keeps it. The body is serialized here (after response validation made
    it a dict), so the first answer and every replay carry the same bytes."""
    body = response.body
    if isinstance(body, bytes):
        body = body.decode()
    elif not isinstance(body, str):
        body = to_json(body)
    return {
        "status": response.status_code,
        "body": body,
        "headers": {name: value for name, value in response.headers.items() if isinstance(value, str)},
    }


def _run(proceed: NextMiddleware, app: Any) -> dict[str, Any]:
    """The route's answer as a dict the store can keep; final refusals become answers too."""
    try:
        return _answer(proceed(app))
    except AppError as error:
        if status_of(error) not in KEPT_ERROR_STATUSES:
            raise  # not done: the record is dropped and a retry runs again
        return _answer(responses.refusal(error))


def _parse_key(raw: str) -> str:
    try:
        return str(uuid.UUID(raw.strip()))
    except ValueError:
        raise InvalidInput.field(f"header.{HEADER}", "IDEMPOTENCY_KEY_INVALID") from None


def body_fingerprints(body: Any) -> tuple[str, ...]:
    """Keyed hashes of the JSON body, independent of key order and spacing (equal bodies, equal hashes):
    under the current key, then under the previous one when the key was rotated."""
    return keyed_hashes("idempotency-body", json.dumps(body, sort_keys=True, separators=(",", ":")))


class IdempotentRoute:
    """Route middleware (after the access gate and body validation) applying `Idempotency-Key`."""

    __name__ = "idempotent"

    def __call__(self, app: Any, next_middleware: NextMiddleware) -> Response:
        raw = app.current_event.headers.get(HEADER)
        if raw is None:
            return next_middleware(app)
        event = app.current_event
        scope = {"route": f"{event.http_method} {event.resource}", "user": context.caller_id(), "key": _parse_key(raw)}
        # Imported on first use: Powertools' idempotency package loads boto3 (its DynamoDB layer), which
        # would otherwise weigh on every cold start of the functions using this middleware.
        from data.idempotency_store import run_idempotent

        def attempt(fingerprint: str) -> dict[str, Any]:
            request = scope | {"body": fingerprint}
            return run_idempotent(request, lambda: _run(next_middleware, app), app.lambda_context, key_name=HEADER)

        *earlier, last = body_fingerprints(event.json_body)
        answer: dict[str, Any] | None = None
        for fingerprint in earlier:  # the current key's hash first; a retry's record may hold the previous one's
            try:
                answer = attempt(fingerprint)
                break
            except Conflict as refused:
                if refused.code != "IDEMPOTENCY_KEY_REUSED":
                    raise
        if answer is None:
            answer = attempt(last)
        headers = dict(answer["headers"])
        if answer.get("replayed"):
            headers[REPLAYED_HEADER] = "true"
        return Response(status_code=answer["status"], body=answer["body"], headers=headers)


IDEMPOTENT = IdempotentRoute()
