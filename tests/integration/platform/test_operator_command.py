"""The operator command as `make install` installs it: the project installed editable into a virtual
environment (`pip install --no-deps -e .`), its console script `car-retail-ops` run from another
directory with no PYTHONPATH, against the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database

from local.template import ROOT
from tests.locks import checkout_lock

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


def test_the_installed_command_runs_from_any_directory(installed: Path, db: Db, tmp_path: Path) -> None:
    # Given the installed command and a partner in the database
    db.partners.insert_one({"_id": "hash", "name": "Avto Market", "active": True, "createdAt": datetime.now(UTC)})
    # When it runs from a directory outside the checkout, without PYTHONPATH
    done = subprocess.run(  # noqa: S603 (the installed console script)
        [str(installed), "partners", "list"],
        cwd=tmp_path,
        env=without_pythonpath(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # Then the command ran against the configured database
    assert done.returncode == 0, done.stderr
    assert any(line.split()[:3] == ["Avto", "Market", "enabled"] for line in done.stdout.splitlines())


def test_the_installed_command_fails_in_one_line(installed: Path, tmp_path: Path) -> None:
    # Given no database setting in a deployed stage / When it runs / Then one line, exit 1
    environment = without_pythonpath(STAGE="staging", MONGODB_URI="", MONGODB_URI_SECRET_ID="")
    done = subprocess.run(  # noqa: S603 (the installed console script)
        [str(installed), "partners", "list"], cwd=tmp_path, env=environment, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: SETTING_MISSING: ")
    assert len(done.stderr.strip().splitlines()) == 1
