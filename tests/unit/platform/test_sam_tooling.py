"""The SAM tooling installs and builds without misleading errors or warnings: its venv never sees the
checkout's PYTHONPATH, and the shared layer is built for the architecture it declares."""

from __future__ import annotations

import re
import shutil
import subprocess

from local.template import ROOT, load_template

# A program of the SAM venv run as a command (not a path given as a variable's value, BUILD_PYTHON=...).
SAM_VENV_PROGRAM = re.compile(r"(?<!\S)([^\s=]*\.venv-sam/bin/\w+)")


def test_every_command_of_the_sam_venv_runs_without_the_checkouts_pythonpath() -> None:
    # Given the commands make would run to install, build, lint and audit with the SAM venv (printed, not run)
    make = shutil.which("make")
    assert make is not None, "make is needed to read the Makefile's recipes"
    targets = ["sam-install", "build", "validate", "zizmor"]
    # A fixed command, no input: nothing untrusted reaches the process.
    printed = subprocess.run(  # noqa: S603
        [make, "--no-print-directory", "-n", "-B", *targets], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    runs = [(line, match.start()) for line in printed.splitlines() for match in SAM_VENV_PROGRAM.finditer(line)]
    assert len(runs) >= 5, printed  # pip twice, sam build, sam validate, zizmor
    # Then each runs with PYTHONPATH unset: with the checkout's root on it, the venv's pip sees this project's
    # egg-info (from .venv's editable install) as installed and reports its pins as conflicts with the SAM CLI's
    for line, start in runs:
        assert line[:start].endswith("env -u PYTHONPATH "), line


def test_the_shared_layer_is_built_for_the_architecture_it_is_compatible_with() -> None:
    # Given the layer in the template (SAM builds a layer for x86_64 unless its Metadata says otherwise)
    layer = load_template()["Resources"]["SharedLayer"]
    # Then it is built for the stack's Architecture, the one architecture it declares itself compatible with
    assert layer["Properties"]["CompatibleArchitectures"] == [{"Ref": "Architecture"}]
    assert layer["Metadata"]["BuildArchitecture"] == {"Ref": "Architecture"}
