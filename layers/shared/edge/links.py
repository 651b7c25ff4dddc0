"""Links to files the API itself serves (a schedule as CSV): under the URL the client called the API at."""

from __future__ import annotations

from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent


def api_base_url(event: APIGatewayProxyEvent) -> str:
    """The URL the client reached the API at, without the route, for links to the API's own files:
    scheme and host as the client used them (API Gateway sets X-Forwarded-Proto), then whatever API
    Gateway put before the route (the stage on the execute-api domain, the base path on a custom one)."""
    scheme = event.headers.get("X-Forwarded-Proto") or "https"
    host = event.request_context.domain_name or event.headers.get("Host") or ""
    called, route = event.request_context.path or event.path, event.path
    prefix = called[: -len(route)] if route and called.endswith(route) else ""
    return f"{scheme}://{host}{prefix}"
