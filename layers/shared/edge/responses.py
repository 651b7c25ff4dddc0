"""The response envelope every JSON response carries:
`{"success", "statusCode", "message", "data"}`; errors add their `code` (+ `errors` / `details` on some),
the message in the request's language (edge.error_codes, imported by an instance's first error answer:
a success never reads it)."""

from __future__ import annotations

from typing import Any, cast

from aws_lambda_powertools.event_handler import Response, content_types

from core.errors import AppError
from core.serialization import to_json
from edge import context
from edge.envelope import Envelope
from edge.errors import headers_of, status_of

SUCCESS = "Success"
INTERNAL_ERROR = "INTERNAL_ERROR"


def envelope(status: int, message: str, data: Any = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"success": status < 400, "statusCode": status, "message": message, "data": data}
    body.update({key: value for key, value in extra.items() if value is not None})
    return body


def ok[T](
    data: T, *, status: int = 200, message: str = SUCCESS, headers: dict[str, str] | None = None
) -> Response[Envelope[T]]:
    """A success in the envelope; Powertools validates it against the handler's declared
    `Envelope[...]` and serializes it. Handed over as the envelope's fields: an `Envelope[Any]` built
    here would be validated twice, once here for nothing and again against the declared model."""
    body = {"success": True, "statusCode": status, "message": message, "data": data}
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        # Quoted: evaluated, `Envelope[T]` would build a generic class, then look it up on every call.
        body=cast("Envelope[T]", body),
        headers=headers,
    )


def created[T](data: T, *, message: str = SUCCESS) -> Response[Envelope[T]]:
    return ok(data, status=201, message=message)


def error(status: int, code: str, *, headers: dict[str, str] | None = None) -> Response:
    """An error the edge answers itself (500, 503, an unknown route), in the request's language."""
    body = to_json(error_envelope(status, code))
    return Response(status_code=status, content_type=content_types.APPLICATION_JSON, body=body, headers=headers)


def error_envelope(
    status: int,
    code: str,
    *,
    params: dict[str, Any] | None = None,
    errors: list[dict[str, Any]] | None = None,
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    # Imported here: the catalogue weighs on every cold start, and a success never reads it.
    from edge.error_codes import message

    if code == INTERNAL_ERROR:  # the caller quotes the request's id to support, who find its log lines by it
        params = {**(params or {}), "requestId": context.request_id()}
        details = {**(details or {}), "requestId": context.request_id()}
    text = message(code, context.locale(), params)
    return envelope(status, text, None, code=code, errors=errors, details=details)


def refusal_envelope(refused: AppError) -> dict[str, Any]:
    """The envelope of an error the service raised: its code, its message and field errors in the
    request's language, its details."""
    from edge.error_codes import rendered_errors  # imported here, as in error_envelope

    return error_envelope(
        status_of(refused),
        refused.code,
        params=refused.params,
        errors=rendered_errors(refused.errors, context.locale()),
        details=refused.details,
    )


def refusal(refused: AppError) -> Response:
    """An error the service raised, with the status and headers its kind has."""
    return Response(
        status_code=status_of(refused),
        content_type=content_types.APPLICATION_JSON,
        body=to_json(refusal_envelope(refused)),
        headers=headers_of(refused),
    )
