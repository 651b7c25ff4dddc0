"""Shared fixtures: a real mongod for the run, one per pytest-xdist worker (MONGODB_URI overrides it;
mongoeco where mongod cannot run), a clean database per integration test, the local API Gateway served
over real HTTP, a frozen clock and a moto EventBridge."""

from __future__ import annotations

import io
import json
import logging
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pymongo.database import Database
from werkzeug.serving import make_server

from core import clock
from core.clock import FrozenClock
from local.runtime import LOCAL_DEFAULTS
from tests.databases import (
    clear_database,
    create_indexes_for,
    drop_database,
    redact_uri,
    reset_process_state,
    seeded_database,
    use_database,
)
from tests.factories import ApiClient

TEST_ENV = {
    **LOCAL_DEFAULTS,
    "JWT_SECRET": "test-signing-key-that-is-long-enough-for-hs256",
    "LOGIN_RATE_LIMIT": "1000",
    "LOGIN_IP_RATE_LIMIT": "10000",  # every test logs in from 127.0.0.1
    "LOGIN_DEVICE_RATE_LIMIT": "10000",  # and from one fingerprint
    "PARTNER_CACHE_SECONDS": "0",
    "REFERENCE_CACHE_SECONDS": "0",  # tests about the cache set it and drive the frozen clock
    "LOG_LEVEL": "WARNING",
}
for _name, _value in TEST_ENV.items():
    os.environ[_name] = _value  # before any handler module creates its Powertools objects


SERVER_LINE = pytest.StashKey[str]()
WORKER_SERVER_LINES = pytest.StashKey[dict[str, str]]()


def _announce(config: pytest.Config, line: str) -> None:
    """Named in the run's summary (pytest_terminal_summary below), whichever server it is. A pytest-xdist
    worker (its own process, session fixtures and mongod) hands its line to the controller, which prints."""
    config.stash[SERVER_LINE] = line
    worker_output = getattr(config, "workeroutput", None)  # set on pytest-xdist workers only
    if worker_output is not None:
        worker_output["database"] = line


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: a worker finished; keep the server line it handed over."""
    line = getattr(node, "workeroutput", {}).get("database")
    if line:
        node.config.stash.setdefault(WORKER_SERVER_LINES, {})[node.gateway.id] = line


@pytest.fixture(scope="session")
def mongo_uri(pytestconfig: pytest.Config) -> Iterator[str]:
    """MONGODB_URI when set; else a real mongod (single-node replica set) in a temporary directory,
    or mongoeco's in-memory wire server where mongod cannot run (or with LOCAL_MONGO=mongoeco)."""
    external = os.environ.get("MONGODB_URI")
    if external:
        _announce(pytestconfig, f"MongoDB from MONGODB_URI ({redact_uri(external)})")
        yield external
        return
    from local.runtime import start_local_database

    server, fallback = start_local_database(dbpath=None, sqlite_path=None, test_workload=True)
    if fallback:
        _announce(pytestconfig, f"MongoDB FALLBACK: {server.description} at {server.uri}, because {fallback}")
    else:
        _announce(pytestconfig, f"{server.description} at {server.uri}")
    yield server.uri
    server.stop()


# pytest-xdist modes that schedule tests by node id: they would run one of the fuzzing tests' items per
# test function, since schemathesis' per-operation items share their function's node id under pytest 9.
ONE_TEST_PER_NODE_ID = {"loadscope", "loadfile", "loadgroup"}


def pytest_configure(config: pytest.Config) -> None:
    dist = config.getoption("dist", default="no")
    if dist in ONE_TEST_PER_NODE_ID and config.getoption("numprocesses", default=None):
        raise pytest.UsageError(
            f"--dist {dist} would skip fuzzing tests (items sharing a node id): use --dist worksteal or load"
        )


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    line = config.stash.get(SERVER_LINE, None)
    if line:
        terminalreporter.write_line(f"database: {line}")
    for worker, worker_line in sorted(config.stash.get(WORKER_SERVER_LINES, {}).items()):
        terminalreporter.write_line(f"database: {worker_line} (pytest-xdist worker {worker})")


@pytest.fixture(scope="session")
def test_database(mongo_uri: str) -> Iterator[str]:
    """The run's one test database: created and indexed once, emptied before each test that uses it.
    (A fresh database per test would make mongod create and drop thousands of files.)"""
    name = f"test_{uuid.uuid4().hex[:12]}"
    with pytest.MonkeyPatch.context() as patch:
        database = use_database(mongo_uri, name, patch)
        create_indexes_for(database)
        reset_process_state()
    yield name
    drop_database(mongo_uri, name)


@pytest.fixture
def db(mongo_uri: str, test_database: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Database[dict[str, Any]]]:
    """A clean, indexed database with the demo partner registered."""
    from domain.partners.store import register_partner
    from local.seed.core import DEMO_PARTNER_KEY

    database = use_database(mongo_uri, test_database, monkeypatch)
    clear_database(database)
    register_partner(DEMO_PARTNER_KEY, "Demo partner")
    yield database
    reset_process_state()


@pytest.fixture(scope="session")
def demo_database(mongo_uri: str) -> Iterator[str]:
    """The demo dataset, seeded once per run (a few seconds): for tests that only read it."""
    with seeded_database(mongo_uri) as name:
        yield name


@pytest.fixture
def seeded(mongo_uri: str, demo_database: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Database[dict[str, Any]]]:
    """The process pointed at the shared seeded database. Tests using it must not change it."""
    yield use_database(mongo_uri, demo_database, monkeypatch)
    reset_process_state()


@pytest.fixture
def seeded_api(api_server: str, seeded: Database[dict[str, Any]]) -> Iterator[ApiClient]:
    with ApiClient(api_server) as client:
        yield client


@pytest.fixture(scope="session")
def api_server() -> Iterator[str]:
    """The local API Gateway emulator on a free port, serving every route of template.yaml."""
    from local.gateway import LocalApiGateway, LocalRequestHandler

    server = make_server("127.0.0.1", 0, LocalApiGateway(), threaded=True, request_handler=LocalRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def api(api_server: str, db: Database[dict[str, Any]]) -> Iterator[ApiClient]:
    with ApiClient(api_server) as client:
        yield client


@pytest.fixture
def frozen_clock() -> Iterator[FrozenClock]:
    frozen = FrozenClock()
    clock.set_clock(frozen)
    yield frozen
    clock.reset_clock()


@pytest.fixture
def settings_env() -> Iterator[Callable[..., None]]:
    """Set environment variables and read the settings anew; afterwards the environment is restored and the
    settings read anew from it, so a stage a test set (prod) does not stay cached for the next test."""
    from core.settings import reset_settings

    before: dict[str, str | None] = {}

    def set_env(**values: str) -> None:
        for name, value in values.items():
            before.setdefault(name, os.environ.get(name))
            os.environ[name] = value
        reset_settings()

    yield set_env
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    reset_settings()


AWS_REGION = "eu-central-1"


@pytest.fixture
def aws_account(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A moto AWS account: fake credentials in one region, every AWS call answered in-process."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", AWS_REGION)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    from moto import mock_aws  # imported here: only the tests that call AWS pay for moto

    with mock_aws():
        yield


@pytest.fixture
def secretsmanager(aws_account: None) -> Any:
    import boto3

    return boto3.client("secretsmanager", region_name=AWS_REGION)


@pytest.fixture
def eventbridge(aws_account: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A moto EventBridge bus with a rule that copies every event to an SQS queue we can read."""
    monkeypatch.setenv("EVENT_PUBLISHER", "eventbridge")
    monkeypatch.setenv("EVENT_BUS_NAME", "car-retail-test")
    import boto3

    from core.settings import reset_settings
    from data import aws

    reset_settings()
    aws.reset_clients()
    bridge = boto3.client("events", region_name=AWS_REGION)
    sqs = boto3.client("sqs", region_name=AWS_REGION)
    bridge.create_event_bus(Name="car-retail-test")
    queue_url = sqs.create_queue(QueueName="dealer-feed")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    bridge.put_rule(Name="all", EventBusName="car-retail-test", EventPattern=json.dumps({"source": ["car-retail-api"]}))
    bridge.put_targets(Rule="all", EventBusName="car-retail-test", Targets=[{"Id": "q", "Arn": queue_arn}])
    yield lambda: [
        json.loads(message["Body"])
        for message in sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", [])
    ]
    aws.reset_clients()


@pytest.fixture
def captured_logs(caplog: pytest.LogCaptureFixture) -> Iterator[Callable[[], str]]:
    """Everything logged at DEBUG: the API's Powertools logger (which does not propagate) and every
    library logger, the local emulator's access log (werkzeug) included."""
    from core.observability import logger as app_logger

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    api_logger = logging.getLogger(app_logger.name)  # the standard logger under Powertools' Logger
    api_logger.addHandler(handler)
    level = api_logger.level
    api_logger.setLevel(logging.DEBUG)
    caplog.set_level(logging.DEBUG)
    yield (
        lambda: stream.getvalue() + "\n".join(record.getMessage() + repr(record.__dict__) for record in caplog.records)
    )
    api_logger.setLevel(level)
    api_logger.removeHandler(handler)
