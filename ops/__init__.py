"""Operator commands: `car-retail-ops ...` (installed by `make install`), `python -m ops ...`, `make ops ARGS=...`.

Importing the package puts the import roots a Lambda function has (the layer's `/opt/python`, here
layers/shared; the function code, here functions) and the repository (`local`) on `sys.path`, so the
commands run from any directory with no PYTHONPATH; roots already there (the Makefile's PYTHONPATH,
pytest's `pythonpath`) are not added twice.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMPORT_ROOTS = (ROOT / "layers" / "shared", ROOT / "functions", ROOT)


def _add_import_roots() -> None:
    present = {Path(entry or ".").resolve() for entry in sys.path}
    missing = [str(root) for root in IMPORT_ROOTS if root not in present]
    # After the script's own directory (sys.path[0]), where PYTHONPATH's entries would be.
    sys.path[1:1] = missing


_add_import_roots()
