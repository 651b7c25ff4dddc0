"""A TypeScript client generated from `openapi.json` walks a buyer's journey against the local API.

`make sdk` installs the pinned generator and client (sdk/package-lock.json: openapi-typescript,
openapi-fetch, TypeScript), generates the types from openapi.json and compiles sdk/src/journey.ts with
`tsc --strict`; nothing generated is committed. The journey uses only what the generated types declare
(a field the document did not declare is a compile error): sign in, browse, revalidate a read with its
ETag, walk the bank credit chain, order the car on credit, pay the initial payment by card with the
sandbox code, and follow the order's steps; then an `otp` partner's sign-in (a code sent, 202, then the
login with the sandbox SMS code, 201), through the demo data's `otp` partner, as sdk/README.md runs it
against `make run`. Passing proves the contract is enough to build an app from.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.template import ROOT
from tests.locks import checkout_lock

# npm ci fetches the pinned packages on a fresh clone; generous for a slow registry on 2 busy cores.
BUILD_TIMEOUT_SECONDS = 600
JOURNEY_TIMEOUT_SECONDS = 120
JOURNEY = ROOT / "sdk" / "build" / "journey.js"


@pytest.fixture(scope="module")
def demo_database(mongo_uri: str) -> Iterator[str]:
    """The journey places an order and pays it: this module seeds a database of its own."""
    from tests.databases import seeded_database

    with seeded_database(mongo_uri) as name:
        yield name


def run(command: list[str], timeout: int, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # Fixed commands of this repository: nothing untrusted reaches the process.
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)  # noqa: S603


@pytest.fixture(scope="module")
def journey_script() -> Path:
    """`make sdk`: the client generated from openapi.json and the journey compiled with tsc --strict."""
    make = shutil.which("make")
    assert make is not None, "make is needed to build the TypeScript client"
    with checkout_lock("sdk"):  # sdk/node_modules is the webhook snippet's compiler too (test_webhooks.py)
        built = run([make, "--no-print-directory", "sdk"], BUILD_TIMEOUT_SECONDS)
    assert built.returncode == 0, f"make sdk failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}"
    assert JOURNEY.exists()
    return JOURNEY


def test_a_generated_typescript_client_walks_a_buyers_journey(
    journey_script: Path, api_server: str, seeded: Database[dict[str, Any]]
) -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js runs the generated client's journey"
    # Given the TypeScript client generated from openapi.json, compiled with tsc --strict, and the demo data
    # When the journey runs against the local API with its default partners (the demo data's)
    walked = run([node, str(journey_script), api_server], JOURNEY_TIMEOUT_SECONDS)
    # Then every step answered as the document says, ending with a paid credit order
    assert walked.returncode == 0, f"the journey failed:\n{walked.stdout}\n{walked.stderr}"
    summary = json.loads(walked.stdout.strip().splitlines()[-1])
    assert summary["contractNumber"].startswith("CR-")
    assert summary["status"] == "PAID"
    assert summary["paid"] > 0
    assert summary["monthlyPayment"] > 0
    assert summary["steps"][:2] == ["NEW", "PAID"]
    assert summary["otpSignedIn"] == "+998907770012"


def test_the_sdk_readmes_first_order_signs_in_by_sms_code_browses_and_orders(
    journey_script: Path, api_server: str, seeded: Database[dict[str, Any]]
) -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js runs the generated client's example"
    # Given sdk/README.md's example, compiled with the journey, and the demo data's otp partner
    example = journey_script.with_name("first-order.js")
    # When it runs against the local API as the README runs it against `make run` (a new phone each run)
    walked = run([node, str(example), api_server], JOURNEY_TIMEOUT_SECONDS)
    # Then it signed a new account in by the sandbox SMS code and placed an order of the car it found
    assert walked.returncode == 0, f"the example failed:\n{walked.stdout}\n{walked.stderr}"
    summary = json.loads(walked.stdout.strip().splitlines()[-1])
    assert summary["contractNumber"].startswith("CR-")
    assert summary["status"] == "NEW"
    assert summary["car"] == "Tracker"
    assert seeded.orders.count_documents({"contractNumber": summary["contractNumber"]}) == 1
