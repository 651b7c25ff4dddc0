"""`make bench ARGS=--sale` (tools/sale_bench.py), run as an operator runs it with a few buyers: its figures add up.
A benchmark, not a timed test: the latencies are only checked to be printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from local.template import ROOT

BUYERS, UNITS = 6, 2
WAVE = re.compile(
    r"^(?P<wave>rush|spread): .*\n"
    r"  units sold (?P<sold>\d+) of (?P<units>\d+) \(orders stored (?P<stored>\d+), stock left (?P<left>\d+)\)\n"
    r"  statuses (?P<statuses>[^;]*); 5xx (?P<server_errors>\d+)\n"
    r"  p50 (?P<p50>\d+) ms, p99 (?P<p99>\d+) ms, [\d.]+ answers per second \((?P<answers>\d+) answers in [\d.]+ s\)$",
    re.MULTILINE,
)


def statuses(printed: str) -> dict[str, int]:
    """`201 x2, 409 x4 (OUT_OF_STOCK x4)` -> {"201": 2, "409": 4, "OUT_OF_STOCK": 4}"""
    return {name: int(count) for name, count in re.findall(r"(\w+) x(\d+)", printed)}


def test_the_sale_bench_sells_the_rush_units_once_and_every_spread_unit(mongo_uri: str) -> None:
    # Given the test's mongod, and the sale bench with 6 buyers for 2 units on two worker processes
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
        "MONGODB_URI": mongo_uri,
    }
    command = ["-m", "tools", "bench", "--sale", "--buyers", str(BUYERS), "--units", str(UNITS), "--workers", "2"]
    # When it runs
    run = subprocess.run(  # noqa: S603 (this interpreter, our command)
        [sys.executable, *command], check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    # Then the rush sold its 2 units to 2 buyers and told the 4 others it ran out, and the spread sold
    # each buyer its unit, with no 5xx
    assert run.returncode == 0, run.stderr[-2000:]
    waves = {match["wave"]: match for match in WAVE.finditer(run.stdout)}
    assert set(waves) == {"rush", "spread"}, run.stdout
    rush, spread = waves["rush"], waves["spread"]
    assert (rush["sold"], rush["units"], rush["stored"], rush["left"]) == ("2", "2", "2", "0")
    assert statuses(rush["statuses"]) == {"201": UNITS, "409": BUYERS - UNITS, "OUT_OF_STOCK": BUYERS - UNITS}
    assert (spread["sold"], spread["units"], spread["stored"], spread["left"]) == ("6", "6", "6", "0")
    assert statuses(spread["statuses"]) == {"201": BUYERS}
    for wave in (rush, spread):
        assert (wave["server_errors"], wave["answers"]) == ("0", str(BUYERS))
        assert int(wave["p50"]) <= int(wave["p99"])
    assert re.search(r"^rush p99 / spread p99: [\d.]+x$", run.stdout, re.MULTILINE), run.stdout
