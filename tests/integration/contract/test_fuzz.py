"""Property-based fuzzing of every operation of openapi.json against the local API Gateway (schemathesis).

Valid and invalid inputs per operation, against seeded demo data, with the common headers and an
access token: no 5xx, every response is documented (status, content type, headers, body schema), and
every JSON response carries the envelope. Then positive data alone: every request the document calls
valid is accepted (no 400), so the document says all the server enforces. Bounded and derandomized,
so a run is short and repeatable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests import schemathesis_formats  # noqa: F401 (registers the document's own string formats)
from tests.databases import reset_process_state, seeded_database, use_database
from tests.factories import bearer, common_headers
from tools.openapi import DOCUMENT

MAX_EXAMPLES = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
ENVELOPE_KEYS = {"success", "statusCode", "message", "data"}
NOT_MODIFIED = 304
# Successes sent as they are, without the envelope: every other response is JSON.
NOT_JSON_OPERATIONS = {
    ("GET", "/api/v1/documents/term-conditions"),
    ("GET", "/api/v1/payments/special-offers/graph"),  # with format=csv, the download
}

# The gate's headers are fixed to valid values (the gate has its own tests); everything else is generated.
CONFIG = schemathesis.Config.from_dict(
    {
        "headers": {name: value for name, value in common_headers().items() if name != "accept-language"},
        "generation": {"mode": "all"},
        "phases": {"stateful": {"enabled": True}},
    }
)
schema = schemathesis.openapi.from_path(DOCUMENT, config=CONFIG)

POSITIVE_EXAMPLES = 40
# An authorization code is a credential the identity provider issued: no schema can say which exist,
# so a refused one is 400 like a wrong payment code (docs/INTERFACE.md, Auth).
CREDENTIALS_ONLY_THE_PROVIDER_KNOWS = {("POST", "/api/v1/users/limit")}
POSITIVE_CONFIG = schemathesis.Config.from_dict(
    {
        "headers": {name: value for name, value in common_headers().items() if name != "accept-language"},
        "generation": {"mode": "positive"},
        "phases": {"stateful": {"enabled": False}},
    }
)
positive_schema = schemathesis.openapi.from_path(DOCUMENT, config=POSITIVE_CONFIG)


@pytest.fixture(scope="module")
def seeded_api(api_server: str, mongo_uri: str) -> Iterator[dict[str, str]]:
    """One seeded database for the whole fuzz run; yields the headers of a signed-in caller."""
    with seeded_database(mongo_uri) as name, pytest.MonkeyPatch.context() as patch:
        use_database(mongo_uri, name, patch)
        login = requests.post(
            f"{api_server}/api/v1/auth/login", json={"phone": "+998901112233"}, headers=common_headers(), timeout=30
        )
        assert login.status_code == 201, login.text
        yield bearer(login.json()["data"]["accessToken"])
    reset_process_state()


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors_and_every_response_is_documented(
    case: schemathesis.Case, api_server: str, seeded_api: dict[str, str]
) -> None:
    response = case.call_and_validate(base_url=api_server, headers=seeded_api, checks=CHECKS)
    content_type = response.headers.get("content-type", [""])[0]  # lowercase keys, list values
    if response.status_code == NOT_MODIFIED:  # a cached read revalidated (If-None-Match: *): no body
        assert response.content in (b"", None)
    elif content_type.startswith("application/json"):
        body: Any = response.json()
        assert isinstance(body, dict), f"no envelope: {response.text[:300]}"
        assert set(body) >= ENVELOPE_KEYS, f"no envelope: {response.text[:300]}"
        assert body["statusCode"] == response.status_code
    else:
        assert (case.method, case.path) in NOT_JSON_OPERATIONS, f"{content_type} answered: {response.text[:300]}"


@positive_schema.parametrize()
@settings(
    max_examples=POSITIVE_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_request_the_document_calls_valid_is_accepted(
    case: schemathesis.Case, api_server: str, seeded_api: dict[str, str]
) -> None:
    """Schemathesis' "schema-valid request rejected" (positive_data_acceptance): a 400 for a request the
    document allows means the document says less than the server enforces."""
    response = case.call(base_url=api_server, headers=seeded_api)
    if (case.method, case.path) in CREDENTIALS_ONLY_THE_PROVIDER_KNOWS and response.status_code == 400:
        return
    case.validate_response(response, checks=[not_a_server_error, positive_data_acceptance])


STATEFUL_SCENARIOS = 25
STATEFUL_STEPS = 8


def test_linked_operations_chain_without_server_errors_or_undocumented_responses(
    api_server: str, seeded_api: dict[str, str]
) -> None:
    """Schemathesis' stateful phase: it follows the document's links (login -> me, order -> its steps and
    payments, transaction create -> apply, the v2 bank chain, list -> item), feeding each response into
    the next request, with the same checks on every step."""
    steps: list[tuple[str, str, int, str | None]] = []  # method, path, status, error code

    class LinkedCalls(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"base_url": api_server, "headers": seeded_api}

        def validate_response(self, response: Any, case: schemathesis.Case, *args: Any, **kwargs: Any) -> None:
            code = response.json().get("code") if response.status_code >= 400 and response.content else None
            steps.append((case.method, case.path, response.status_code, code))
            case.validate_response(response, checks=CHECKS)

    LinkedCalls.run(
        settings=settings(
            max_examples=STATEFUL_SCENARIOS,
            stateful_step_count=STATEFUL_STEPS,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # The links were followed: some chained steps reached their target with a 2xx
    chained = {(method, path) for method, path, status, _ in steps if 200 <= status < 300}
    print(f"stateful: {len(steps)} calls, 2xx on {sorted(chained)}")
    assert len(steps) > STATEFUL_SCENARIOS
    # Which links a run follows varies with what the server answered before (a run that got 429 from the
    # login's limit takes other steps): any operation a link leads to counts.
    targets = link_targets()
    # On failure, what the link targets answered (the whole list is cut short in the report).
    assert chained & targets, [step for step in steps if step[:2] in targets]


def link_targets() -> set[tuple[str, str]]:
    """The operations the document's links lead to, as (method, path)."""
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    operations = {
        operation["operationId"]: (method.upper(), path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }
    return {
        operations[link["operationId"]]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
        for link in (response.get("links") or {}).values()
    }
