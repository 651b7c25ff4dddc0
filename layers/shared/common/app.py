"""The resolver factory every function uses, with the one error mapping of the API.

app = create_app()

@app.get("/api/v1/auth/me", middlewares=[JWT])
def me() -> Response: ...

lambda_handler = lambda_entry(app)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from pymongo.errors import AutoReconnect, ConnectionFailure, ExecutionTimeout, NetworkTimeout

from common import cors, responses, snapstart
from common.access import GatedRequestValidation
from common.context import RequestContext, set_current
from common.errors import AppError
from common.observability import logger, metrics
from common.settings import get_settings

DATABASE_ERRORS: list[type[Exception]] = [ConnectionFailure, AutoReconnect, NetworkTimeout, ExecutionTimeout]


def _field_name(location: tuple[Any, ...]) -> str:
    # ("body", "price") -> "body.price"; a whole-body error ("body",) stays "body".
    return ".".join(str(part) for part in location)


def validation_errors(exc: RequestValidationError) -> list[dict[str, str]]:
    return [
        {"field": _field_name(tuple(error.get("loc", ()))), "message": str(error.get("msg", "is invalid"))}
        for error in exc.errors()
    ]


def create_app() -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)
    # Powertools validates before any user middleware; the gate must run first (see common.access).
    app._request_validation_middleware = GatedRequestValidation(app._request_validation_middleware)  # type: ignore[assignment]

    @app.exception_handler(AppError)
    def handle_app_error(exc: AppError) -> Response:
        if exc.status >= 500:
            logger.error("request failed", extra={"status": exc.status, "reason": exc.message})
        return responses.error(exc.status, exc.message, errors=exc.errors, details=exc.details, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    def handle_validation_error(exc: RequestValidationError) -> Response:
        errors = validation_errors(exc)
        summary = "; ".join(f"{error['field']}: {error['message']}" for error in errors[:5])
        return responses.error(400, f"Validation failed: {summary}", errors=errors)

    @app.exception_handler(DATABASE_ERRORS)
    def handle_database_unavailable(exc: Exception) -> Response:
        logger.exception("database unavailable")
        return responses.error(503, "Service temporarily unavailable, try again later")

    @app.exception_handler(Exception)
    def handle_unexpected(exc: Exception) -> Response:
        logger.exception("unexpected error")
        return responses.error(500, "Internal server error")

    @app.not_found
    def handle_not_found(exc: Exception) -> Response:
        return responses.error(404, "Route not found")

    return app


def lambda_entry(app: APIGatewayRestResolver) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    """The Lambda handler of a function: logging with the API Gateway correlation id, and metrics
    (traces come from Lambda's active tracing, see common.observability).

    Reads the settings first: a deployment missing required configuration (ASSETS_BASE_URL...) fails
    its cold start with the reason in the logs, instead of answering customers with broken data."""
    get_settings().ensure_can_serve()

    @logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, clear_state=True)
    @metrics.log_metrics(capture_cold_start_metric=True)
    def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        set_current(RequestContext())  # nothing of the previous invocation leaks into this one
        return cors.add_headers(event, app.resolve(event, context))

    snapstart.register(app)
    return lambda_handler
