"""`make bench ARGS=--draw` (tools/draw_bench.py), run as a developer runs it at a small scale: the draw of
1,000 and 3,000 entries registered directly, its parts timed and the runs of SaleAdmission it takes. A
correctness test, not a timed one: every position is written, within one run at these counts."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from local.template import ROOT

TIMEOUT_S = 600


def test_the_draw_bench_writes_every_position_and_takes_its_figures_to_a_million(mongo_uri: str) -> None:
    # Given the test's mongod
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions", ".")),
        "MONGODB_URI": mongo_uri,
    }
    # When the draw bench runs at 1,000 and 3,000 entries
    run = subprocess.run(
        [sys.executable, "-m", "tools", "bench", "--draw", "--draw-entries", "3000,1000"],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    # Then each count has its row, the draw recorded and every position written within one run
    assert run.returncode == 0, run.stderr[-3000:]
    rows = re.findall(
        r"^\s+([\d,]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+\d+\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+[\d.]+$",
        run.stdout,
        re.MULTILINE,
    )
    assert [(count, runs) for count, _, _, runs in rows] == [("1,000", "1"), ("3,000", "1")], run.stdout
    # And the figures are taken to a million entries, beside the function's memory and a run's seconds
    assert re.search(r"^At 1,000,000 entries \(the 3,000 row times 333\.3+\): read \d+ s", run.stdout, re.MULTILINE)
    assert "(SaleAdmission has 512 MB)" in run.stdout
    assert re.search(r"about [\d.]+ runs of 58 s", run.stdout), run.stdout
