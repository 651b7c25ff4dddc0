"""Every kind of failure of an operator command, through the real entry point (`python -m ops`, as the
README writes it, in a fresh interpreter without PYTHONPATH): one line `error: CODE: what to do` on
stderr, a non-zero exit, never a traceback unless --debug asks for it; and a command that needs a key
checks for it before it writes anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo.database import Database

from local.mongod import free_port
from local.seed.core import DEMO_PARTNER
from local.template import ROOT
from ops import catalog
from ops.output import CommandRefused
from tests.data import insert_order

Db = Database[dict[str, Any]]
# A deployed stage run from a laptop: no AWS credentials anywhere, no instance metadata to ask.
NO_AWS = {
    "AWS_ACCESS_KEY_ID": "",
    "AWS_SECRET_ACCESS_KEY": "",
    "AWS_SESSION_TOKEN": "",
    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials",
    "AWS_CONFIG_FILE": "/nonexistent/config",
    "AWS_EC2_METADATA_DISABLED": "true",
    "AWS_DEFAULT_REGION": "eu-central-1",
}
STAGING = {"STAGE": "staging", **NO_AWS}


def ops(*arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """`python -m ops ...` from the repository, its environment this process's without PYTHONPATH."""
    given = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    command = [sys.executable, "-m", "ops", *arguments]
    return subprocess.run(  # noqa: S603 (our interpreter, our command)
        command, cwd=ROOT, env={**given, **environment}, capture_output=True, text=True, timeout=60, check=False
    )


def assert_one_line(done: subprocess.CompletedProcess[str], code: str, status: int = 1) -> str:
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {code}: "), lines[0]
    return lines[0]


def test_a_missing_setting_is_named_in_one_line() -> None:
    # Given a deployed stage and no database setting / When a command runs
    done = ops("order", "show", "CR-2026-000042", **STAGING, MONGODB_URI="", MONGODB_URI_SECRET_ID="")
    # Then it names what to set, in one line
    line = assert_one_line(done, "SETTING_MISSING")
    assert "MONGODB_URI or MONGODB_URI_SECRET_ID must be set" in line


def test_a_setting_out_of_its_bounds_is_named_in_one_line() -> None:
    # Given a pool size of 0 / When a command runs / Then it names the setting
    line = assert_one_line(ops("indexes", MONGODB_MAX_POOL_SIZE="0"), "SETTING_INVALID")
    assert "MONGODB_MAX_POOL_SIZE" in line


def test_an_unreachable_database_is_said_in_one_line() -> None:
    # Given a database address nothing listens on, and a short server selection timeout
    uri = f"mongodb://127.0.0.1:{free_port()}/?directConnection=true"
    # When a command needs it / Then it says the database did not answer, and where to look
    done = ops("partners", "list", MONGODB_URI=uri, MONGODB_SERVER_SELECTION_TIMEOUT_MS="200")
    assert "MONGODB_URI" in assert_one_line(done, "DATABASE_UNREACHABLE")


def test_an_unreadable_database_secret_is_said_in_one_line() -> None:
    # Given the database named by its secret, and no AWS credentials / When a command runs
    done = ops("indexes", **STAGING, MONGODB_URI="", MONGODB_URI_SECRET_ID="car-retail/staging/mongodb-uri")
    # Then it says the secret could not be read, and what to check
    assert "AWS credentials" in assert_one_line(done, "SECRET_UNREADABLE")


def test_webhooks_set_without_the_signing_key_saves_nothing(db: Db) -> None:
    # Given a deployed stage's database and no webhook signing key
    # When an endpoint is set / Then it is refused in one line, naming the key, and nothing is saved
    done = ops("webhooks", "set", DEMO_PARTNER, "https://partner.example.uz/hooks", **STAGING)
    assert "WEBHOOK_SIGNING_KEY" in assert_one_line(done, "SECRET_MISSING")
    assert db.webhooks.count_documents({}) == 0


def test_an_unknown_id_is_refused_in_one_line(db: Db) -> None:
    # Given no such order / When it is shown / Then the API's code and its message, in one line
    assert_one_line(ops("order", "show", "CR-2026-999999"), "ORDER_NOT_FOUND")
    # And an unknown partner too
    assert "No partner named Nobody" in assert_one_line(ops("partners", "disable", "Nobody"), "PARTNER_NOT_FOUND")


@pytest.mark.parametrize(
    "arguments",
    [
        ("stock", "set", "not-an-id", str(ObjectId()), str(ObjectId()), "3", "--cause", "x"),
        ("order", "frobnicate"),
        ("prices", "set", str(ObjectId()), "12.5", "--cause", "x"),
        ("promo", "add", "X", "--amount", "many"),
        (),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(arguments: tuple[str, ...]) -> None:
    # Given a command line with a mistake / When it runs / Then one line points to the command's --help
    assert "--help" in assert_one_line(ops(*arguments), "BAD_ARGUMENT", status=2)


def test_reconcile_without_a_card_processor_says_what_to_set(db: Db) -> None:
    # Given a stage with no card processor chosen / When the reconciliation is run by hand
    done = ops("reconcile", **STAGING)
    # Then it says which setting chooses one
    assert "PAYMENT_PROCESSOR" in assert_one_line(done, "PROCESSOR_NOT_CONFIGURED")


def test_a_transition_outside_local_succeeds_without_a_traceback(db: Db) -> None:
    # Given a paid order in a deployed stage's database, run from a machine that cannot reach EventBridge
    order = insert_order(db, ObjectId(), status="PAID", amount_due=100, paid=100, contractNumber="CR-2026-000077")
    # When the back office marks it ready
    done = ops("order", "transition", "CR-2026-000077", "READY", "--cause", "arrived", **STAGING)
    # Then it succeeds, prints the order, and says in one line that the event waits for the publisher
    assert done.returncode == 0, done.stderr
    assert '"statusSlug": "READY"' in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        "note: the OrderStatusChanged event waits in the outbox (EventBridge did not take it from here); "
        "the OutboxPublisher publishes it within a minute"
    ]
    assert db.outbox.count_documents({"aggregate": f"order:{order['_id']}", "status": "PENDING"}) == 1


def test_debug_shows_the_traceback_and_the_same_last_line() -> None:
    # Given the missing setting again / When the operator asks for --debug
    done = ops("--debug", "order", "show", "X", **STAGING, MONGODB_URI="", MONGODB_URI_SECRET_ID="")
    # Then the traceback comes first, the one line last
    assert done.returncode == 1
    assert "Traceback (most recent call last)" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: SETTING_MISSING: ")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, "FILE_UNREADABLE"),
        (b"\x00\x01\xff\xfe\x89PNG\r\n", "FILE_NOT_UTF8"),
        ('{"format": 1}'.encode("utf-16"), "FILE_NOT_UTF8"),
    ],
    ids=["missing", "binary", "utf-16"],
)
def test_a_catalog_file_that_cannot_be_read_is_one_line(tmp_path: Path, content: bytes | None, code: str) -> None:
    # Given a catalog file that is missing, binary or not UTF-8
    path = tmp_path / "catalog.json"
    if content is not None:
        path.write_bytes(content)
    # When it is imported / Then one line says why, and nothing was read into the database
    assert assert_one_line(ops("catalog", "import", str(path), "--dry-run"), code)


def test_a_catalog_file_larger_than_any_catalog_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a limit of 1 KB and a 2 KB file
    monkeypatch.setattr(catalog, "MAX_FILE_BYTES", 1024)
    path = tmp_path / "catalog.json"
    path.write_text('{"format": 1, "brands": []}' + " " * 2048)
    # When it is read / Then it is refused, saying so
    with pytest.raises(CommandRefused, match="over 1,024 bytes, more than any catalog") as refused:
        catalog.read_file(str(path))
    assert refused.value.code == "FILE_TOO_LARGE"
