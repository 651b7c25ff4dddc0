"""The import roots a deployed function has, laid out from this checkout and this interpreter's packages.

In Lambda a function sees its own package and its own requirements (/var/task: functions/Makefile), the
layer's packages and the layer's requirements (/opt/python: layers/shared/Makefile), and the standard
library; nothing a developer installed besides. Here the requirements are linked from the distributions
this interpreter has installed (`make install` installs the same pins), the ones the requirement files name
and those they depend on, into a folder of their own: an interpreter started with `-S` and these roots
imports what the deployed function imports (the cold-start tests and `make bench` measure it that way).
Only the import roots are the same: the wheels are this machine's, not the functions' CPU.
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from packaging.requirements import Requirement

from local.template import ROOT

LAYER_REQUIREMENTS = ROOT / "layers" / "shared" / "requirements.txt"
FUNCTION_ROOT = ROOT / "functions"
LAYER_ROOT = ROOT / "layers" / "shared"


def own_requirements(group: str) -> Path | None:
    """A function's own requirements file (functions/<group>/requirements.txt), which functions/Makefile
    installs beside its package; None for a function that needs only the layer's."""
    found = FUNCTION_ROOT / group / "requirements.txt"
    return found if found.exists() else None


def requirements_of(files: Iterable[Path]) -> list[Requirement]:
    """The requirements the files list (one a line, `#` comments)."""
    return [
        Requirement(line)
        for file in files
        for raw in file.read_text(encoding="utf-8").splitlines()
        if (line := raw.partition("#")[0].strip())
    ]


def installed(requirements: Iterable[Requirement]) -> list[importlib.metadata.Distribution]:
    """The installed distributions of the requirements and of every requirement of theirs that applies to
    this interpreter. A pin this interpreter does not have installed ends the caller with one line."""
    found: dict[str, importlib.metadata.Distribution] = {}
    pending = [(requirement, frozenset[str]()) for requirement in requirements]
    while pending:
        requirement, extras = pending.pop()
        if requirement.marker is not None and not any(
            requirement.marker.evaluate({"extra": extra}) for extra in extras or {""}
        ):
            continue
        try:
            distribution = importlib.metadata.distribution(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            raise SystemExit(f"{requirement} is not installed in {sys.prefix}: run make install") from None
        if not requirement.specifier.contains(distribution.version, prereleases=True):
            raise SystemExit(f"{requirement} is required, {distribution.version} is installed: run make install")
        name = distribution.metadata["Name"].lower()
        if name in found:
            continue
        found[name] = distribution
        pending += [(Requirement(text), frozenset(requirement.extras)) for text in distribution.requires or []]
    return list(found.values())


def _top_level_entries(distribution: importlib.metadata.Distribution) -> Iterator[Path]:
    """The files and folders a distribution put at the top of its site-packages (packages, modules,
    extension modules, its dist-info), as pip's `--target` lays them out."""
    seen: set[str] = set()
    for file in distribution.files or []:
        top = file.parts[0]
        if top in seen or top in ("..", "__pycache__"):
            continue
        seen.add(top)
        yield Path(str(distribution.locate_file(top)))


def link_requirements(files: Iterable[Path], into: Path) -> Path:
    """`into`, holding a link to each top-level entry of the distributions the requirement files need."""
    into.mkdir(parents=True, exist_ok=True)
    for distribution in installed(requirements_of(files)):
        for entry in _top_level_entries(distribution):
            (into / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return into


def requirement_files(group: str | None) -> list[Path]:
    """What a function of `group` has installed: the layer's requirements and its own (the layer's alone
    for None)."""
    own = own_requirements(group) if group is not None else None
    return [LAYER_REQUIREMENTS, *([own] if own is not None else [])]


def import_roots(requirements: Path) -> list[str]:
    """The import roots of a function whose requirements were linked into `requirements`: the function
    code (/var/task), the layer's packages and the requirements (/opt/python)."""
    return [str(FUNCTION_ROOT), str(LAYER_ROOT), str(requirements)]
