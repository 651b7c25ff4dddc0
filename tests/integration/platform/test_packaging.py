"""The built artifacts run: the layer's pinned requirements installed for this machine beside the
layer's packages (as layers/shared/Makefile lays out /opt/python), one function's code packaged by
functions/Makefile exactly as `sam build` runs it (with its own requirements, for this machine), and the
function's sample events invoked in an interpreter that sees only those two folders and the standard
library: no dev dependencies, no PYTHONPATH, no site-packages."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.invoke import load_event
from local.seed import core
from local.template import ROOT, load_template
from tests.databases import seeded_database, use_database
from tests.integration.platform.test_events import EXPECTED_STATUS, PREREQUISITES, invoke_sample
from tests.locks import checkout_lock

REQUIREMENTS = ROOT / "layers" / "shared" / "requirements.txt"
# pip takes a while: the installed requirements are kept (git-ignored) per requirements file and Python.
CACHE = ROOT / ".data" / "packaging"
FUNCTIONS = {
    name.removesuffix("Function"): resource
    for name, resource in load_template()["Resources"].items()
    if resource["Type"] == "AWS::Serverless::Function"
}
GROUPS = {resource["Properties"]["Handler"].split(".")[0] for resource in FUNCTIONS.values()}
# One message of the partner webhook queue as Lambda's event source mapping hands it over.
QUEUED_WEBHOOK = {
    "Records": [
        {
            "messageId": "0f4e1c2a-1b2c-4d5e-8f60-718293a4b5c6",
            "receiptHandle": "AQEB-sample",
            "body": '{"eventId":"6650f1c2a1b2c3d4e5f60799","type":"order.status_changed"}',
            "attributes": {"ApproximateReceiveCount": "1", "MessageGroupId": "6650f1c2a1b2c3d4e5f60718"},
            "messageAttributes": {
                "partner": {"stringValue": "Demo partner", "dataType": "String"},
                "eventId": {"stringValue": "6650f1c2a1b2c3d4e5f60799", "dataType": "String"},
            },
            "eventSource": "aws:sqs",
            "eventSourceARN": "arn:aws:sqs:eu-central-1:000000000000:car-retail-dev-webhooks.fifo",
        }
    ]
}

# Runs in the isolated interpreter: sys.argv = layer, task, handler, events file.
DRIVER = """
import importlib, json, sys, sysconfig
layer, task, handler_path, events_path = sys.argv[1:5]
sys.path[:0] = [task, layer]
module, _, attribute = handler_path.rpartition(".")
handler = getattr(importlib.import_module(module), attribute)
cryptography_at_init = "cryptography" in sys.modules

class Context:
    function_name = "smoke"
    function_version = "1"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:eu-central-1:000000000000:function:smoke"
    aws_request_id = "smoke-request"

    def get_remaining_time_in_millis(self):
        return 13_000  # one step of a scheduled function that steps until its timeout

with open(events_path, encoding="utf-8") as events:
    answers = {name: handler(event, Context()) for name, event in json.load(events).items()}
allowed = (layer, task, sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"])
outside = sorted(
    name for name, loaded in list(sys.modules.items())
    if getattr(loaded, "__file__", None) and not loaded.__file__.startswith(allowed)
)
print(json.dumps({"answers": answers, "outside": outside, "cryptography_at_init": cryptography_at_init}))
"""


def install_requirements() -> Path:
    """The requirements installed for this machine into an empty folder, cached by their hash; by one
    pytest-xdist worker at a time (another one's copy may be reading the cache)."""
    digest = hashlib.sha256(REQUIREMENTS.read_bytes() + sys.version.encode()).hexdigest()[:16]
    installed = CACHE / f"requirements-{digest}"
    with checkout_lock("packaging"):
        if not (installed / ".complete").exists():
            CACHE.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=CACHE, prefix="installing-"))
            command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            subprocess.run([*command, "--target", str(staging), "-r", str(REQUIREMENTS)], check=True)  # noqa: S603 (pip of this interpreter)
            (staging / ".complete").touch()
            shutil.rmtree(installed, ignore_errors=True)
            staging.rename(installed)
    return installed


def link_or_copy(source: str, target: str) -> None:
    """A hard link into the cache where it can be made (same file system), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """/opt/python: the installed requirements (hard links into the cache) and the layer's packages."""
    python = tmp_path_factory.mktemp("opt") / "python"
    shutil.copytree(
        install_requirements(), python, copy_function=link_or_copy, ignore=shutil.ignore_patterns(".complete")
    )
    for package in (ROOT / "layers" / "shared").glob("*/__init__.py"):
        shutil.copytree(package.parent, python / package.parent.name, ignore=shutil.ignore_patterns("__pycache__"))
    return python


def package_function(function: str, scratch: Path) -> Path:
    """What `sam build` does for the function: copy its CodeUri to a scratch folder and run
    `make build-<LogicalId>` there with ARTIFACTS_DIR (template Metadata: makefile, ContextPath)."""
    resource = FUNCTIONS[function]
    source = scratch / "source"
    shutil.copytree(ROOT / resource["Properties"]["CodeUri"], source, ignore=shutil.ignore_patterns("__pycache__"))
    artifacts = scratch / "task"
    makefile = ROOT / resource["Metadata"]["ContextPath"] / "Makefile"
    # A function's own requirements as wheels for this machine (the deployed build asks for the functions' CPU)
    host = f"manylinux2014_{platform.machine()}"
    environment = {
        **os.environ,
        "ARTIFACTS_DIR": str(artifacts),
        "BUILD_PYTHON": sys.executable,
        "LAYER_PLATFORM": host,
    }
    target = f"build-{function}Function"
    make = shutil.which("make")
    assert make is not None, "sam build needs make for the makefile build method"
    command = [make, "--no-print-directory", "--makefile", str(makefile), target]
    subprocess.run(command, cwd=source, env=environment, check=True)  # noqa: S603 (the repository's Makefile)
    return artifacts


@pytest.fixture(scope="module")
def demo_database(mongo_uri: str) -> Iterator[str]:
    """The samples change what they touch (orders, saved cars): this module seeds a database of its own."""
    with seeded_database(mongo_uri) as name:
        yield name


@pytest.fixture
def samples_database(
    function: str, seeded: Database[dict[str, Any]], mongo_uri: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The module's demo data, or demo data of the function's own where what its samples rest on outside its
    group (the demo user verifies) was invoked, in this process."""
    group = FUNCTIONS[function]["Properties"]["Handler"].split(".")[0]
    samples = [f"{group}/{path.name}" for path in (ROOT / "events" / group).glob("*.json")]
    elsewhere = [name for sample in samples for name in PREREQUISITES.get(sample, []) if not name.startswith(group)]
    if not elsewhere:
        yield seeded.name
        return
    with seeded_database(mongo_uri) as name:
        use_database(mongo_uri, name, monkeypatch)
        for earlier in dict.fromkeys(elsewhere):
            invoke_sample(earlier)
        yield name


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_packaged_function_serves_its_sample_events_with_only_the_layer(
    function: str, layer: Path, samples_database: str, mongo_uri: str, tmp_path: Path
) -> None:
    # Given the function packaged as sam build packages it, and its sample events
    task = package_function(function, tmp_path)
    group = FUNCTIONS[function]["Properties"]["Handler"].split(".")[0]
    shipped = {path.name for path in task.iterdir()}
    assert shipped & GROUPS == {group}  # its own package, no other function's
    if function != "Auth":
        assert shipped == {group}  # and nothing else: only Auth has requirements of its own
    declared = list((FUNCTIONS[function]["Properties"].get("Events") or {}).values())
    scheduled = all(event["Type"] == "ScheduleV2" for event in declared)  # or fed by a queue: no routes
    samples = [] if scheduled else sorted((ROOT / "events" / group).glob("*.json"))
    events = {f"{group}/{path.name}": load_event(path, user_id=str(core.DEMO_USER_ID)) for path in samples}
    if scheduled:
        # EventBridge Scheduler invokes a scheduled job with no input; the webhook queue gives a message
        events = {"schedule": {}} if declared else {"queue": QUEUED_WEBHOOK}
    if group == "deploy_hooks":
        # CodeDeploy invokes them (tests/integration/platform/test_deploy_hooks.py): here they only import, from
        # their package and the layer alone
        events = {}
    events_file = tmp_path / "events.json"
    events_file.write_text(json.dumps(events), encoding="utf-8")

    # When an isolated interpreter (no site-packages, no PYTHONPATH) invokes the handler with each
    environment = {
        **os.environ,
        "MONGODB_URI": mongo_uri,
        "MONGODB_DB": samples_database,
        "PYDANTIC_DISABLE_PLUGINS": "__all__",
    }
    handler = FUNCTIONS[function]["Properties"]["Handler"]
    command = [sys.executable, "-I", "-S", "-c", DRIVER, str(layer), str(task), handler, str(events_file)]
    run = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=120, check=False)  # noqa: S603

    # Then every sample answers as it does in-process, and nothing came from outside the two folders
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["outside"] == []
    # and cryptography, which PyJWT and pymongo import whenever it is installed, is installed and imported
    # only by Auth, the function verifying login assertions
    assert report["cryptography_at_init"] == (function == "Auth")
    if scheduled:
        # A scheduled job answers with its report (nothing was pending in the demo data), the webhook
        # delivery with no failure (the demo partner has no endpoint there: nothing to send)
        assert all("statusCode" not in answer for answer in report["answers"].values()), report["answers"]
        return
    statuses = {name: answer["statusCode"] for name, answer in report["answers"].items()}
    assert statuses == {name: EXPECTED_STATUS.get(name, statuses[name]) for name in events}
    assert 500 not in statuses.values()
