"""What a cold start imports, with the import roots a deployed function has (local/lambda_paths.py: its
code, the layer, its requirements and the standard library): no function's handler module pulls in the AWS
SDK or the X-Ray SDK. boto3 is imported on the code paths that call AWS (secrets, events, idempotency
records), not at init. A function defines the settings models of the concerns it has, no other, and an API
function no dataclass. Only the function verifying login assertions has `cryptography`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

from local.lambda_paths import import_roots, link_requirements, requirement_files
from local.template import api_routes, load_template

HANDLER_MODULES = sorted(
    resource["Properties"]["Handler"].rpartition(".")[0]
    for resource in load_template()["Resources"].values()
    if resource["Type"] == "AWS::Serverless::Function"
)
# botocore's package itself is imported by Powertools to tag its user agent; its clients are not.
HEAVY = ("boto3", "botocore.client", "botocore.session", "aws_xray_sdk", "s3transfer")
PROBE = "import importlib, json, sys; importlib.import_module(sys.argv[1]); print(json.dumps(sorted(sys.modules)))"
API_HANDLER_MODULES = sorted({route.handler.rpartition(".")[0] for route in api_routes()})
# How many times the import loaded the system's CA certificates (an HTTPS opener or TLS context built).
CA_CERTIFICATES_PROBE = (
    "import importlib, json, ssl, sys; loads = []; load = ssl.SSLContext.load_default_certs; "
    "ssl.SSLContext.load_default_certs = lambda self, *args: loads.append(1) or load(self, *args); "
    "importlib.import_module(sys.argv[1]); print(json.dumps(loads))"
)
# Our classes a module defines that are dataclasses, printed as module.Class.
DATACLASSES_PROBE = (
    "import dataclasses, importlib, inspect, json, sys; importlib.import_module(sys.argv[1]); "
    "roots = [p + '/' for p in sys.argv[2:]]; "
    "print(json.dumps(sorted(f'{name}.{attr}' for name, module in list(sys.modules.items()) "
    "if any((getattr(module, '__file__', None) or '').startswith(root) for root in roots) "
    "for attr, value in vars(module).items() "
    "if inspect.isclass(value) and value.__module__ == name and dataclasses.is_dataclass(value))))"
)
# The settings models of the domain packages (core.settings holds what every function needs), by the
# handler modules whose functions have their concern; the other functions define none of them.
DOMAIN_SETTINGS = {
    "auth.app": {"domain.identity.settings"},  # sign-in limits, identity verification
    "orders.app": {"domain.orders.settings"},  # holds and a person's limits
    "orders.expiry": {"domain.orders.settings"},
    "sales.app": {"domain.orders.settings"},  # a fair opening's entry meets the sale's verified-buyers rule
    "sales.admission": {"domain.orders.settings"},  # through openings, which the order route shares
    # the card processor, card-payment limits; an order's hold, which a payment meets
    "transactions.app": {"domain.payments.settings", "domain.orders.settings"},
    "transactions.reconciliation": {"domain.payments.settings", "domain.orders.settings"},
    "webhooks.app": {"domain.partners.settings"},  # the signing key, delivery's timeout and retries
}


# The handler modules of the functions that verify partners' login assertions (domain.identity.assertions),
# the only ones that install `cryptography` (functions/<group>/requirements.txt): PyJWT and pymongo import it
# whenever it is installed, a large part of a cold start (docs/PERFORMANCE.md).
VERIFIES_ASSERTIONS = {"auth.app"}


@cache
def linked_requirements() -> tempfile.TemporaryDirectory[str]:
    """Where the requirements are linked, removed when the tests end."""
    return tempfile.TemporaryDirectory(prefix="deployed-roots-")


@cache
def deployed_roots(group: str) -> tuple[str, ...]:
    """The import roots a deployed function of `group` has: its code, the layer, its requirements."""
    folder = Path(linked_requirements().name) / group
    return tuple(import_roots(link_requirements(requirement_files(group), folder)))


def probe_import(module: str, probe: str, *arguments: str) -> list[str]:
    """What `probe` prints of a fresh interpreter that imported `module`, as a function's init phase does,
    with the import roots a deployed function has and no site-packages (`-S`)."""
    roots = deployed_roots(module.split(".", maxsplit=1)[0])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(roots)}
    command = [sys.executable, "-S", "-P", "-c", probe, module, *arguments]
    run = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)  # noqa: S603
    return list(json.loads(run.stdout.splitlines()[-1]))


@cache
def modules_loaded_by_importing(module: str) -> tuple[str, ...]:
    """Every module a fresh interpreter holds after importing `module`."""
    return tuple(probe_import(module, PROBE))


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_a_handler_module_imports_no_aws_sdk(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module, as the init phase does
    loaded = modules_loaded_by_importing(module)

    # Then none of the AWS SDK's clients nor the X-Ray SDK was loaded
    assert [name for name in loaded if name.startswith(HEAVY)] == []


def test_the_outbox_publisher_loads_no_response_models() -> None:
    # Given a fresh interpreter with the outbox publisher's import roots
    # When it imports the publisher's handler module
    loaded = modules_loaded_by_importing("outbox_publisher.app")

    # Then it left out the API's response models and Powertools' validation: it serves no route, it only
    # writes events as JSON
    unneeded = ("core.models", "edge.responses", "aws_lambda_powertools.event_handler.openapi.params")
    assert [name for name in unneeded if name in loaded] == []


@pytest.mark.parametrize(
    "module", ["auth.app", "catalog.app", "dictionaries.app", "payments.app", "sales.app", "saved_cars.app"]
)
def test_a_function_that_writes_no_event_does_not_load_the_outbox(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module of a function that never writes an event
    loaded = modules_loaded_by_importing(module)

    # Then neither the outbox nor its destinations are loaded: the edge asks every request whether it wrote
    # events (`data.outbox_requests`), and only one that did delivers them through the outbox
    assert [name for name in ("data.outbox", "data.events", "data.webhook_queue") if name in loaded] == []


@pytest.mark.parametrize("module", API_HANDLER_MODULES)
def test_an_api_function_defines_no_dataclass_at_init(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports an API function's handler module
    defined = probe_import(module, DATACLASSES_PROBE, *deployed_roots(module.split(".", maxsplit=1)[0])[:2])

    # Then none of our modules it loaded defines a dataclass: the decorator compiles each class's generated
    # methods on every cold start; a NamedTuple, or a plain class where a value must cache, costs a fraction
    # of it (docs/DECISIONS.md, "Import-time work"; the figures in docs/PERFORMANCE.md)
    assert defined == []


@pytest.mark.parametrize("module", API_HANDLER_MODULES)
def test_an_api_function_loads_the_error_catalogue_with_its_first_error_answer(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports an API function's handler module
    loaded = modules_loaded_by_importing(module)

    # Then neither the catalogue of error codes (their messages in three languages) nor the error envelope's
    # model is loaded: a success never reads them, the first error answer imports the catalogue (before
    # the snapshot with SnapStart: its warm-up answers a path no route has), only openapi.json's
    # generation the model
    assert [name for name in ("edge.error_codes", "edge.error_envelope") if name in loaded] == []


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_no_function_loads_the_operators_audited_changes(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module
    loaded = modules_loaded_by_importing(module)

    # Then the audited changes of live data (prices, sale rules, stock) are not loaded: only the
    # operators' commands make them, though the functions read the sale rules and the stock
    audited = ("data.audit", "domain.catalog.prices", "domain.catalog.sale_changes", "domain.dealers.stock")
    assert [name for name in audited if name in loaded] == []


def test_the_orders_function_leaves_placing_an_order_to_the_first_order() -> None:
    # Given a fresh interpreter with the Orders function's import roots
    # When it imports the handler module
    loaded = modules_loaded_by_importing("orders.app")

    # Then what placing an order runs is not loaded (reading the catalog, the dealers, a financed order's
    # deal, the buyer's holdings, a queued car's admission and draw): the function's other routes only read
    # orders; the create route imports it with the first order, SnapStart's warm-up before the snapshot
    placing = (
        "domain.orders.placement",
        "domain.orders.buyers",
        "domain.orders.openings",
        "domain.orders.draw",
        "domain.financing.deals",
    )
    assert [name for name in placing if name in loaded] == []


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_only_the_auth_function_loads_issuing_and_rotating_tokens(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module
    loaded = modules_loaded_by_importing(module)

    # Then a login's pair and a refresh token's rotation are loaded only where the auth routes are: every
    # other function's gate verifies access tokens with `domain.identity.tokens` alone
    assert ("domain.identity.sessions" in loaded) == (module == "auth.app")


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_no_function_loads_the_ca_certificates_at_init(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module
    loads = probe_import(module, CA_CERTIFICATES_PROBE)

    # Then the system's CA certificates were not loaded: the HTTPS opener or TLS context that loads them is
    # built by the first call to a partner (core.outbound) or the first webhook delivery
    assert loads == []


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_a_function_defines_the_settings_of_its_own_concerns_only(module: str) -> None:
    # Given a fresh interpreter with the import roots Lambda gives a function
    # When it imports the handler module
    loaded = modules_loaded_by_importing(module)

    # Then of the domain packages' settings models it loaded only those its function uses: defining a
    # pydantic model costs its cold start a share for every field (docs/PERFORMANCE.md)
    defined = {name for name in loaded if name.startswith("domain.") and name.endswith(".settings")}
    assert defined == DOMAIN_SETTINGS.get(module, set())


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_only_a_function_verifying_login_assertions_loads_cryptography(module: str) -> None:
    # Given a fresh interpreter with the import roots a deployed function has
    # When it imports the handler module
    loaded = modules_loaded_by_importing(module)

    # Then `cryptography` (PyJWT's asymmetric algorithms) is there only for the function that verifies an
    # assertion's signature with a partner's public key: the others do not install it, so neither PyJWT
    # nor pymongo imports it
    assert ("cryptography" in loaded) == (module in VERIFIES_ASSERTIONS)
