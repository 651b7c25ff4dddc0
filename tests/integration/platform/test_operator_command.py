"""The operator command as `make install` installs it: the project installed editable into a virtual
environment (`pip install --no-deps -e .`), its console script `car-retail-ops` run from another
directory with no PYTHONPATH, against the test database; and, with no variables set at all, against the
database of the checkout's running `make run` (the Makefile's target, started as a developer starts it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.mongod import free_port
from local.template import ROOT
from tests.locks import checkout_lock
from tools.__main__ import COMMANDS as TOOLS

Db = Database[dict[str, Any]]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment holding the project, editable, as the Makefile's install step does; its
    dependencies are this interpreter's (a .pth file), so pip only builds the project."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)  # noqa: S603
    python = venv / "bin" / "python"
    site = subprocess.run(  # noqa: S603 (the new environment's interpreter)
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--disable-pip-version-check"]
    with checkout_lock("editable-install"):  # pip writes the checkout's car_retail_api.egg-info
        subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True, env=without_pythonpath())  # noqa: S603
    return venv / "bin" / "car-retail-ops"


def without_pythonpath(**environment: str) -> dict[str, str]:
    return {**{name: value for name, value in os.environ.items() if name != "PYTHONPATH"}, **environment}


def run_command(command: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`command` (the installed console script, or its environment's interpreter) as an operator runs it
    in a terminal of their own, outside the checkout: its exit status and output, never raised."""
    return subprocess.run(  # noqa: S603 (the installed environment's own programs)
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_SECONDS, check=False
    )


def test_the_installed_command_runs_from_any_directory(installed: Path, db: Db, tmp_path: Path) -> None:
    # Given the installed command and a partner in the database
    db.partners.insert_one({"_id": "hash", "name": "Avto Market", "active": True, "createdAt": datetime.now(UTC)})
    # When it runs from a directory outside the checkout, without PYTHONPATH
    done = run_command([str(installed), "partners", "list"], cwd=tmp_path, env=without_pythonpath())
    # Then the command ran against the configured database
    assert done.returncode == 0, done.stderr
    assert any(line.split()[:3] == ["Avto", "Market", "enabled"] for line in done.stdout.splitlines())


def test_the_installed_command_fails_in_one_line(installed: Path, tmp_path: Path) -> None:
    # Given no database setting in a deployed stage / When it runs / Then one line, exit 1
    environment = without_pythonpath(STAGE="staging", MONGODB_URI="", MONGODB_URI_SECRET_ID="")
    done = run_command([str(installed), "partners", "list"], cwd=tmp_path, env=environment)
    assert done.returncode == 1
    assert done.stderr.startswith("error: SETTING_MISSING: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_installed_commands_help_lists_only_operator_commands(installed: Path, tmp_path: Path) -> None:
    # Given / When the installed command's --help, from a directory outside the checkout
    done = run_command([str(installed), "--help"], cwd=tmp_path, env=without_pythonpath())
    # Then it offers the operator's commands and no developer tool (python -m tools), nor names their package
    assert done.returncode == 0, done.stderr
    listed = re.search(r"^\s+\{([a-z,-]+)\}$", done.stdout, re.MULTILINE)
    assert listed is not None, done.stdout
    offered = set(listed.group(1).split(","))
    assert {"indexes", "order", "orders", "partners", "catalog", "sale", "webhooks"} <= offered
    assert not offered & set(TOOLS)
    assert not re.search(r"\btools\b", done.stdout)


def test_the_developer_tools_are_not_installed(installed: Path, tmp_path: Path) -> None:
    # Given the environment the project is installed in / When it looks for the packages, outside the checkout
    finds = "from importlib.util import find_spec as f; print(f('ops') is not None, f('tools') is not None)"
    done = run_command([str(installed.parent / "python"), "-c", finds], cwd=tmp_path, env=without_pythonpath())
    # Then the operator's commands are there and the developer tools are not
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


ONIX = "dab037b14d50e6131dd95a8e"  # the demo car with a sale opening's rules (docs/DEMO_DATA.md)
POINTERS = ("STAGE", "MONGODB_URI", "MONGODB_URI_SECRET_ID", "MONGODB_DB")
MAKE_RUN_TIMEOUT_SECONDS = 300  # a mongod to start and the demo data to import, on 2 busy cores
COMMAND_TIMEOUT_SECONDS = 300  # a Python process importing the service, on 2 busy cores
READY = "Press CTRL+C to quit"


def sale_show(installed: Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`car-retail-ops sale show` of the demo Onix, run as an operator runs it in another terminal."""
    return run_command([str(installed), "sale", "show", ONIX], cwd=cwd, env=env)


def nothing_set(**environment: str) -> dict[str, str]:
    """The environment of a developer's terminal: no STAGE, no database settings, no PYTHONPATH."""
    return {name: value for name, value in without_pythonpath(**environment).items() if name not in POINTERS}


class MakeRun:
    """`make run` as a developer starts it (the Makefile's target, with the venv of `installed`), in its own
    process group; its output gathered line by line."""

    def __init__(self, venv: Path, environment: dict[str, str]) -> None:
        make = shutil.which("make")
        assert make is not None, "make runs `make run`"
        (venv / ".installed").touch()  # the Makefile's install stamp: installed already
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.process = subprocess.Popen(  # noqa: S603 (the Makefile's own target)
            [make, "--no-print-directory", "run", f"VENV={venv}", f"PORT={free_port()}"],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip())
            if READY in line:
                self.ready.set()
        self.ready.set()  # it ended

    def wait_until_serving(self) -> None:
        self.ready.wait(MAKE_RUN_TIMEOUT_SECONDS)
        assert any(READY in line for line in self.lines), "make run did not start:\n" + "\n".join(self.lines)

    def stop(self) -> None:
        """Ctrl-C, as in its terminal; then wait for it to stop its workers and its mongod."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


def test_with_make_run_up_the_commands_find_its_database_with_no_variables_set(installed: Path, tmp_path: Path) -> None:
    # Given `make run` up in this checkout (its data, its lock, in a directory of this test's: LOCAL_DATA_DIR)
    terminal = nothing_set(LOCAL_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    server = MakeRun(
        installed.parent.parent,
        {**terminal, "EMBEDDED_MONGO_PORT": str(free_port()), "LOCAL_WEBHOOK_PORT": "0", "WORKERS": "1"},
    )
    try:
        server.wait_until_serving()
        # When the installed command runs in another terminal and directory, with no variables set
        shown = sale_show(installed, tmp_path, terminal)
        # Then it answers from make run's database (the demo data's sale rules), and says which database
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout)["sale"]["depositAmount"] == 5_000_000
        assert shown.stderr.startswith("make run's database: mongodb://127.0.0.1:")
        # And the Makefile's own example works as written
        make = shutil.which("make")
        assert make is not None
        example = re.search(r'make ops ARGS="([^"]+)"', (ROOT / "Makefile").read_text(encoding="utf-8"))
        assert example is not None
        made = subprocess.run(  # noqa: S603 (the Makefile's own target)
            [make, "--no-print-directory", "ops", f"VENV={installed.parent.parent}", f"ARGS={example.group(1)}"],
            cwd=ROOT,
            env=terminal,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_SECONDS,
            check=False,
        )
        assert made.returncode == 0, made.stdout + made.stderr
        assert "CR-DEMO-000001" in made.stdout
    finally:
        server.stop()
    # When make run has stopped / Then the command says in one line how to point it at a database
    after = sale_show(installed, tmp_path, terminal)
    assert after.returncode == 1
    assert after.stderr.startswith("error: NO_DATABASE: no database to work on: start `make run` in this checkout")
    assert len(after.stderr.strip().splitlines()) == 1
