"""The floor plan of docs/ARCHITECTURE.md, held: who may import whom, who may call the database, no import
circles, no class name defined twice. Each rule is checked on the project, and on a small project that breaks
it, so a rule that stopped finding anything would fail too."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.architecture import ROOT_PACKAGES, Project, calls_to, function_packages, layer_packages, this_project

# Which top-level packages each kind of code may import (its own included); anything else of ours is refused.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "data": frozenset({"core", "data"}),
    "domain": frozenset({"core", "data", "domain"}),
    "edge": frozenset({"core", "data", "edge"}),
}
# Where the database may be reached: the data package and the stores of the domain areas. A collection
# taken with `data.mongo.collection` is the database reached as surely as one taken from `get_db()`.
DATABASE_ENTRY_POINTS = ("get_db", "get_client", "collection")
# What the request gate learned about the caller; only a function's routes read it.
REQUEST_CONTEXT = "edge.context"
# What adds keys to every later log line of the process (Powertools Logger).
LOG_KEY_SETTERS = ("append_keys", "set_correlation_id", "thread_safe_append_keys")
# How code may reach a partner over the network: only through the outbound port and the webhook transport,
# which pins the address it checked (docs/DECISIONS.md, "A budget for partner calls, through one port").
OUTBOUND_CALLS = ("urlopen", "build_opener", "create_connection", "HTTPConnection", "HTTPSConnection", "socket")
# The modules that open connections, standard library or not (boto3 reaches AWS, pymongo the database: neither
# calls a partner).
NETWORK_MODULES = ("socket", "ssl", "http.client", "urllib.request", "urllib3", "requests", "httpx", "aiohttp")
NETWORK_PREFIXES = tuple(f"{name}." for name in NETWORK_MODULES)
OUTBOUND_MODULES = frozenset({"core.outbound", "domain.partners.transport"})
# The order of the domain areas (docs/ARCHITECTURE.md, "The order of the domain areas"): each area and the
# areas it may import, every one of them listed before it; a new area is added here and in the document.
DOMAIN_AREAS: dict[str, frozenset[str]] = {
    "saved_cars": frozenset(),
    "content": frozenset(),
    "partners": frozenset(),
    "catalog": frozenset({"saved_cars"}),
    "identity": frozenset({"partners"}),
    "dealers": frozenset({"catalog"}),
    "financing": frozenset({"catalog", "dealers"}),
    "orders": frozenset({"catalog", "identity", "dealers", "financing", "partners"}),
    "payments": frozenset({"orders"}),
    "dataset": frozenset({"catalog", "content", "dealers", "financing", "orders"}),
}
# Where response models live besides the functions' and the domain areas' `models.py` (docs/ARCHITECTURE.md,
# "Who may import whom"): the base and the generic pages, and the envelope around every answer (an error's
# documented apart, which no function imports).
BASE_MODELS, BASE_MODEL = "core.models", "ApiModel"
ENVELOPES = frozenset({"edge.envelope", "edge.error_envelope"})
# The one domain module above every area: it gathers the indexes each store declares.
GATHERS_EVERY_AREA = "domain.indexes"


def top(module: str) -> str:
    return module.split(".", maxsplit=1)[0]


def layering_violations(project: Project) -> list[str]:
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) in MAY_IMPORT and top(found.target) not in MAY_IMPORT[top(found.module)]
    ]


def database_outside_stores(project: Project) -> list[str]:
    """Modules other than data's and the domain stores that call get_db(), get_client() or collection()."""
    return [
        f"{module} calls {name}() (line {line})"
        for module, source in project.modules.items()
        if not (top(module) == "data" or (top(module) == "domain" and module.endswith(".store")))
        for name in DATABASE_ENTRY_POINTS
        for line in calls_to(source, name)
    ]


def local_importing_ops(project: Project) -> list[str]:
    """The local runtime imports neither the operator's commands nor the developer tools."""
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) == "local" and top(found.target) in ("ops", "tools")
    ]


def ops_importing_tools(project: Project) -> list[str]:
    """The operator's commands import no developer tool: `car-retail-ops` is installed without them."""
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) == "ops" and top(found.target) == "tools"
    ]


def deployed_importing_the_checkouts_tools(project: Project) -> list[str]:
    """The deployed code (the layer's and the functions' modules) imports none of the repository root's
    packages: the local runtime, the operator's commands, the developer tools are not in any artifact."""
    deployed = {*layer_packages(), *function_packages()}
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) in deployed and top(found.target) in ROOT_PACKAGES
    ]


def functions_importing_each_other(project: Project) -> list[str]:
    groups = set(function_packages())
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) in groups and top(found.target) in groups and top(found.module) != top(found.target)
    ]


def context_read_outside_routes(project: Project) -> list[str]:
    """Modules of a function package other than its app.py that import edge.context: the routes read the
    request and pass what a service needs as arguments."""
    groups = set(function_packages())
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) in groups
        and found.module != f"{top(found.module)}.app"
        and found.target == REQUEST_CONTEXT
    ]


def log_keys_appended_outside_observability(project: Project) -> list[str]:
    """Modules other than core.observability that add keys to every log line: the API's functions replace
    the invocation's keys on each request instead of clearing all (`core.observability.log_keys_of_invocation`),
    so a key appended elsewhere would stay on the lines of later requests."""
    return [
        f"{module} calls {name}() (line {line})"
        for module, source in project.modules.items()
        if module != "core.observability"
        for name in LOG_KEY_SETTERS
        for line in calls_to(source, name)
    ]


def network_calls_outside_the_outbound_port(project: Project) -> list[str]:
    """Deployed modules (the layer's and the functions') other than the outbound port and the webhook
    transport that open a connection of their own, or import what would: every partner call keeps one
    deadline, logs no secret and (webhooks) goes only to a checked address."""
    deployed = {*layer_packages(), *function_packages()}
    found = []
    for module, source in project.modules.items():
        if top(module) not in deployed or module in OUTBOUND_MODULES:
            continue
        calls = [f"calls {name}() (line {line})" for name in OUTBOUND_CALLS for line in calls_to(source, name)]
        imports = [f"imports {name} (line {line})" for name, line in network_imports(source)]
        if calls or imports:
            found.append(f"{module} {', '.join(imports + calls)}")
    return found


def network_imports(source: Path) -> list[tuple[str, int]]:
    """The NETWORK_MODULES `source` imports (`import http.client`, `from urllib import request`, ...)."""
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"), filename=str(source))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            # `from urllib.request import Request` names the module; `from http import client` a submodule
            names = [node.module] if _network(node.module) else [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(name, node.lineno) for name in names if _network(name)]
    return found


def _network(module: str) -> bool:
    return module in NETWORK_MODULES or module.startswith(NETWORK_PREFIXES)


def area(module: str) -> str:
    """The domain area of a domain module: `domain.orders.lifecycle` -> orders."""
    return module.split(".")[1] if module.count(".") else ""


def domain_areas_out_of_order(project: Project) -> list[str]:
    """Imports of one domain area by another that the order of the areas does not allow: an area uses only
    the areas before it, so following a request through the domain visits each area once."""
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) == "domain"
        and top(found.target) == "domain"
        and found.module != GATHERS_EVERY_AREA
        and area(found.target) not in {area(found.module), ""}
        and area(found.target) not in DOMAIN_AREAS.get(area(found.module), frozenset())
    ]


def functions_importing_stores(project: Project) -> list[str]:
    """Function modules importing a domain area's store: they call the area's API (its services), which
    holds the rules around each read and write; only the operators' commands and local use stores."""
    groups = set(function_packages())
    return [
        f"{found.module} imports {found.target} (line {found.line})"
        for found in project.imports()
        if top(found.module) in groups and top(found.target) == "domain" and found.target.endswith(".store")
    ]


def response_models_out_of_place(project: Project) -> list[str]:
    """Response models (`ApiModel` and what derives from it) defined anywhere but a function group's
    `models.py`, a domain area's `models.py`, the envelopes (`edge.envelope`, `edge.error_envelope`) or, for
    the base and the generic pages alone, `core.models`."""
    groups = set(function_packages())
    return [
        f"{module} defines {name} (line {line})"
        for module, name, line, generic in response_models(project)
        if not (
            (top(module) in groups and module == f"{top(module)}.models")
            or (top(module) == "domain" and module.count(".") == 2 and module.endswith(".models"))
            or module in ENVELOPES
            or (module == BASE_MODELS and (generic or name == BASE_MODEL))
        )
    ]


def domain_models_no_domain_builds(project: Project) -> list[str]:
    """A domain area's `models.py` holding response models that no domain module builds (imports) and
    fewer than two function groups answer: they belong to the one function's `models.py`."""
    groups = set(function_packages())
    holders = {module for module, *_ in response_models(project) if top(module) == "domain"}
    users: dict[str, set[str]] = {holder: set() for holder in holders}
    for found in project.imports():
        if found.target in users and found.module != found.target:
            users[found.target].add(found.module)
    return [
        f"{holder} is imported by no other domain module and {len(answering)} function group(s)"
        for holder, importers in sorted(users.items())
        if not any(top(module) == "domain" for module in importers)
        and len(answering := {top(module) for module in importers} & groups) < 2
    ]


def response_models(project: Project) -> list[tuple[str, str, int, bool]]:
    """Every class deriving from `core.models.ApiModel`, found from source: (module, class, line, whether it
    has type parameters). A base is resolved through the module's own classes and its `from ... import`s,
    re-exports followed."""
    classes: dict[str, tuple[ast.ClassDef, list[str]]] = {}
    imported: dict[str, dict[str, str]] = {}
    for module, source in project.modules.items():
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        imported[module] = {
            alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module and not node.level
            for alias in node.names
        }
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes[f"{module}.{node.name}"] = (node, [_base_name(base) for base in node.bases])

    def resolve(qualified: str, hops: int = 0) -> str:
        module, _, name = qualified.rpartition(".")
        if qualified in classes or hops > 10 or name not in imported.get(module, {}):
            return qualified
        return resolve(imported[module][name], hops + 1)

    def defined_in(module: str, name: str) -> str:
        head, _, rest = name.partition(".")
        if rest:  # `models.ApiModel`: through the module imported as `models`
            return resolve(f"{imported[module].get(head, head)}.{rest}")
        return resolve(f"{module}.{name}")

    models = {f"{BASE_MODELS}.{BASE_MODEL}"}
    while grown := {
        qualified
        for qualified, (_, bases) in classes.items()
        if qualified not in models
        and any(defined_in(qualified.rpartition(".")[0], base) in models for base in bases if base)
    }:
        models |= grown
    return [
        (qualified.rpartition(".")[0], node.name, node.lineno, bool(node.type_params))
        for qualified, (node, _) in classes.items()
        if qualified in models
    ]


def _base_name(base: ast.expr) -> str:
    """The class a base names, as written: `ApiModel`, `models.ApiModel`, `Page` (of `Page[T]`)."""
    if isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return f"{_base_name(base.value)}.{base.attr}"
    return base.id if isinstance(base, ast.Name) else ""


def circles(project: Project) -> list[str]:
    return [" <-> ".join(group) for group in project.import_circles()]


def class_names_defined_twice(project: Project) -> list[str]:
    """Class names that more than one module-level class statement defines: one name per thing, so a name
    met in a traceback, a log line or a review says which thing it is (`OrderStatus`, `TransactionStatus`;
    not two `Status`)."""
    defined: dict[str, list[str]] = {}
    for module, source in project.modules.items():
        for node in ast.parse(source.read_text(encoding="utf-8"), filename=str(source)).body:
            if isinstance(node, ast.ClassDef):
                defined.setdefault(node.name, []).append(f"{module} (line {node.lineno})")
    return [f"{name}: {', '.join(places)}" for name, places in sorted(defined.items()) if len(places) > 1]


RULES: dict[str, Callable[[Project], list[str]]] = {
    "layering": layering_violations,
    "database": database_outside_stores,
    "local-ops": local_importing_ops,
    "ops-tools": ops_importing_tools,
    "deployed-root": deployed_importing_the_checkouts_tools,
    "functions": functions_importing_each_other,
    "context": context_read_outside_routes,
    "log-keys": log_keys_appended_outside_observability,
    "domain-order": domain_areas_out_of_order,
    "function-stores": functions_importing_stores,
    "outbound": network_calls_outside_the_outbound_port,
    "response-models": response_models_out_of_place,
    "domain-models": domain_models_no_domain_builds,
    "circles": circles,
    "class-names": class_names_defined_twice,
}
# A small project breaking each rule once: (module path, source).
BROKEN: dict[str, dict[str, str]] = {
    "layering": {
        "domain/orders/rules.py": "from edge.errors import status_of\n",
        "edge/errors.py": "",
    },
    "database": {
        "domain/orders/rules.py": "from data.mongo import get_db\n\ndef count():\n    return get_db().orders.find()\n",
        "data/mongo.py": "def get_db(): ...\n",
    },
    "local-ops": {"local/runtime.py": "from ops import indexes\n", "ops/indexes.py": ""},
    "ops-tools": {"ops/__main__.py": "def run():\n    from tools import openapi\n", "tools/openapi.py": ""},
    "deployed-root": {"orders/app.py": "from tools.openapi import DOCUMENT\n", "tools/openapi.py": ""},
    "functions": {"orders/service.py": "from payments import store\n", "payments/store.py": ""},
    "context": {
        "orders/service.py": "from edge.context import locale\n",
        "orders/app.py": "from edge import context\n",
        "edge/context.py": "",
    },
    "log-keys": {"domain/orders/service.py": "from core.observability import logger\n\nlogger.append_keys(order=1)\n"},
    "domain-order": {
        "domain/financing/deals.py": "from domain.orders import lifecycle\n",
        "domain/orders/lifecycle.py": "from domain.financing import deals\n",
    },
    "function-stores": {"orders/service.py": "from domain.orders import store\n", "domain/orders/store.py": ""},
    "outbound": {
        "domain/identity/eskiz.py": "from urllib import request\n\ndef send(url):\n    return request.urlopen(url)\n"
    },
    "response-models": {
        "core/models.py": "class ApiModel: ...\n\n\nclass Page[T](ApiModel): ...\n",
        "domain/orders/views.py": "from core import models\n\n\nclass Receipt(models.ApiModel): ...\n",
        "catalog/models.py": "from core.models import Page\n\n\nclass Filters(Page[int]): ...\n",
    },
    "domain-models": {
        "core/models.py": "class ApiModel: ...\n",
        "domain/orders/models.py": "from core.models import ApiModel\n\n\nclass Receipt(ApiModel): ...\n",
        "orders/service.py": "from domain.orders.models import Receipt\n",
        "domain/catalog/models.py": "from core.models import ApiModel\n\n\nclass CarItem(ApiModel): ...\n",
        "catalog/service.py": "from domain.catalog.models import CarItem\n",
        "saved_cars/service.py": "from domain.catalog.models import CarItem\n",
    },
    "circles": {"domain/a.py": "from domain import b\n", "domain/b.py": "def f():\n    from domain import a\n"},
    "class-names": {
        "domain/orders/states.py": "class Status:\n    class Meta: ...\n",
        "domain/payments/records.py": "class Status:\n    class Meta: ...\n",
    },
}


@pytest.fixture(scope="module")
def project() -> Project:
    return this_project()


def test_the_project_is_read(project: Project) -> None:
    # Given / When the modules found under the import roots
    # Then every kind of code is there: the layer's four packages, the functions, local, ops and tools
    assert {top(module) for module in project.modules} >= {"core", "data", "domain", "edge", "orders", *ROOT_PACKAGES}


@pytest.mark.parametrize("rule", RULES)
def test_the_project_keeps_the_rule(project: Project, rule: str) -> None:
    # Given the project's modules / When the rule is checked / Then nothing breaks it
    assert RULES[rule](project) == []


def test_the_order_of_the_domain_areas_lists_each_area_after_those_it_uses(project: Project) -> None:
    # Given the declared order / When each area's allowed areas are looked up
    listed = list(DOMAIN_AREAS)
    # Then each is listed before it (so the order has no circle), and every area of the domain is listed
    assert all(listed.index(used) < listed.index(name) for name, uses in DOMAIN_AREAS.items() for used in uses)
    areas = {area(module) for module in project.modules if top(module) == "domain" and module.count(".")}
    assert areas - {area(GATHERS_EVERY_AREA)} == set(DOMAIN_AREAS)


def test_the_database_rule_finds_a_collection_taken_outside_the_stores(tmp_path: Path) -> None:
    # Given a service that takes its area's collection from the data package instead of asking its store
    service = tmp_path / "domain" / "orders" / "service.py"
    service.parent.mkdir(parents=True)
    service.write_text(
        "from data import mongo\n\ndef count():\n    return mongo.collection('orders', dict).count_documents({})\n"
    )
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mongo.py").write_text("def collection(name, record): ...\n")

    # When the database rule is checked
    found = database_outside_stores(Project.read([(tmp_path, ["data", "domain"])]))

    # Then it names the call
    assert found == ["domain.orders.service calls collection() (line 4)"]


@pytest.mark.parametrize("rule", RULES)
def test_the_rule_finds_a_deliberate_violation(tmp_path: Path, rule: str) -> None:
    # Given a small project that breaks the rule once
    for relative, source in BROKEN[rule].items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    packages = sorted({relative.split("/")[0] for relative in BROKEN[rule]})
    broken = Project.read([(tmp_path, packages)])

    # When the rule is checked
    found = RULES[rule](broken)

    # Then it names the violation
    assert len(found) == 1, found
