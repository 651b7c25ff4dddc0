"""The project's modules and their imports, read from source (nothing is imported), for the tests that hold
the floor plan of docs/ARCHITECTURE.md."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The import roots Lambda and the tests share: the layer, the function code, the repository.
SOURCE_ROOTS = (ROOT / "layers" / "shared", ROOT / "functions", ROOT)
# What the repository root holds besides the layer and the functions: the local runtime, the operator's
# commands and the developer tools.
ROOT_PACKAGES = ("local", "ops", "tools")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted: domain.orders.store
    target: str  # the imported module, dotted, as resolved against the project's modules
    line: int


@dataclass
class Project:
    """Every module under the given roots, by dotted name, with where its source is."""

    modules: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def read(cls, roots: Iterable[tuple[Path, Iterable[str]]]) -> Project:
        """`roots`: (import root, the top-level packages of ours under it)."""
        project = cls()
        for root, packages in roots:
            for package in packages:
                for source in sorted((root / package).rglob("*.py")):
                    parts = source.relative_to(root).with_suffix("").parts
                    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                    project.modules[name] = source
        return project

    def imports(self) -> Iterator[Import]:
        """Every import of a project module by a project module, at module level or inside a function."""
        for name, source in self.modules.items():
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"), filename=str(source))):
                # `from pkg import a, b` of one module is one import of it
                for target in dict.fromkeys(self._targets(name, source, node)):
                    yield Import(name, target, getattr(node, "lineno", 0))

    def _targets(self, name: str, source: Path, node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if found := self._known(alias.name):
                    yield found
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importing module's package, then up a level per extra dot
                package = name.split(".") if source.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                # `from pkg import module` imports the submodule; `from module import name` the module.
                if found := self._known(f"{base}.{alias.name}") or self._known(base):
                    yield found

    def _known(self, dotted: str) -> str | None:
        return dotted if dotted in self.modules else None

    def import_circles(self) -> list[list[str]]:
        """The strongly connected groups of two or more modules (or one importing itself)."""
        graph: dict[str, set[str]] = {name: set() for name in self.modules}
        for found in self.imports():
            # A package's __init__ runs before any of its modules; ours hold a docstring, or gather modules that
            # never import their package back (edge.error_codes).
            graph[found.module].add(found.target)
        return [sorted(group) for group in _strongly_connected(graph) if len(group) > 1 or _loops(graph, group)]


def _loops(graph: dict[str, set[str]], group: list[str]) -> bool:
    return group[0] in graph[group[0]]


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively (the project's import chains are deeper than Python's recursion likes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            successor = next(successors, None)
            if successor is not None:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                elif successor in on_stack:
                    low[node] = min(low[node], index[successor])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(sorted(group))
    return groups


def calls_to(source: Path, function: str) -> list[int]:
    """The lines where `source` calls `function` by name or as an attribute (`get_db()`, `mongo.get_db()`)."""
    lines = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"), filename=str(source))):
        if isinstance(node, ast.Call):
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            if name == function:
                lines.append(node.lineno)
    return lines


def layer_packages() -> list[str]:
    return sorted(path.parent.name for path in SOURCE_ROOTS[0].glob("*/__init__.py"))


def function_packages() -> list[str]:
    return sorted(path.parent.name for path in SOURCE_ROOTS[1].glob("*/__init__.py"))


def this_project() -> Project:
    return Project.read(
        [(SOURCE_ROOTS[0], layer_packages()), (SOURCE_ROOTS[1], function_packages()), (ROOT, ROOT_PACKAGES)]
    )
