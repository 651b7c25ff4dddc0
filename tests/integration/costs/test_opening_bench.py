"""`make bench ARGS=--opening` (tools/opening_bench.py), run as an operator runs it at a small scale: 60
verified people for 6 units on two worker processes, the SaleAdmission controller and the expiry job
running as under `make run`. A correctness test, not a timed one: the opening takes a real hold's minute
and the expiry's (about 4 minutes in all), and only its sums are checked."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from local.template import ROOT

ENTRIES, UNITS = 60, 6
# Positions 1 and 6 never pay: two units come back, to positions 7 and 8, who pay.
NEVER_PAY = 2
TIMEOUT_S = 1500  # sign-ins, the draw, a hold and the expiry's minute, on a busy machine


def figure(printed: str, label: str) -> str:
    found = re.search(rf"^{re.escape(label)}:\s+(.+)$", printed, re.MULTILINE)
    assert found, f"{label!r} not printed:\n{printed}"
    return found.group(1)


def test_the_opening_sells_every_unit_once_through_the_queue_and_answers_polls_without_the_database(
    mongo_uri: str,
) -> None:
    # Given the test's mongod and the opening bench at a small scale
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
        "MONGODB_URI": mongo_uri,
    }
    command = ["-m", "tools", "bench", "--opening", "--entries", str(ENTRIES), "--units", str(UNITS)]
    command += ["--workers", "2", "--buckets", "4"]
    # When it runs
    run = subprocess.run(  # noqa: S603 (this interpreter, our command)
        [sys.executable, *command], check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    # Then every unit was sold to someone who paid, none twice, none lost
    assert run.returncode == 0, run.stderr[-3000:]
    printed = run.stdout
    assert figure(printed, "units sold (paid)") == f"{UNITS} of {UNITS}"
    assert figure(printed, "oversold") == "0"
    assert figure(printed, "units lost").startswith(f"0  (stock 0 + held 0 + sold {UNITS} = {UNITS} initial)")
    # And the units the people who never paid held came back, each to a person admitted after it, later in the queue
    assert figure(printed, "units that came back") == (
        f"{NEVER_PAY}, resold to a later person admitted after: {NEVER_PAY} (every one)"
    )
    assert figure(printed, "orders outside the queue") == "0"
    # And the status polls sent no MongoDB command, while an order did
    polls = re.fullmatch(r"0\.00  \(0 in (\d+) polls\)", figure(printed, "MongoDB commands per status poll"))
    assert polls, printed
    assert int(polls.group(1)) >= ENTRIES
    assert float(figure(printed, "MongoDB commands per admitted order")) > 0
    # And the status said soldOut after the last payment, and everyone else heard it
    assert re.fullmatch(r"-?\d+\.\d s", figure(printed, "last unit kept -> soldOut")), printed
    assert figure(printed, "people") == f"never paid {NEVER_PAY}, paid {UNITS}, sold out {ENTRIES - UNITS - NEVER_PAY}"
    # And every figure the issue asks for is printed
    correlation = figure(printed, "rank correlation arrival/position")
    assert re.fullmatch(rf"[+-]\d\.\d{{4}}  \(Spearman, {ENTRIES} drawn entries\)", correlation)
    assert re.fullmatch(r"\d+ ms / \d+ ms", figure(printed, "status answer p50 / p99"))
    assert re.match(r"\d+\.\d\d  \(bucket \d", figure(printed, "attempts per sale, hottest stock document"))
    assert re.fullmatch(r"\d+", figure(printed, "DATA_BUSY answers"))
    assert re.match(r"\d+\.\d s from the draw", figure(printed, "time to sell out"))
