"""Which error codes a piece of code can answer, read from the source, so the document's per-operation
lists never drift from what the code raises.

Every module of the layer and the functions is parsed once. A function *raises* a code where it builds an
error with it (`NotFound("ORDER_NOT_FOUND")`, `InvalidInput.field(f, "CARD_EXPIRED")`, a kind raised
without one raises its `default_code`, `rate_limit.hit(..., error_code="...")`, `invalid_value("...")`);
it *reaches* every function it names (calls, or passes along as a callback). Names are resolved through
the module's own definitions and imports; a method called on an object (`provider.verify(...)`) may be
any method of that name in the code base (the port's adapters). The codes a route can answer are those
of everything its handler reaches: an over-approximation (a refusal caught on the way is still listed),
never an omission, which the integration tests' client (`tests.factories.ApiClient`) and schemathesis check
against every error the routes really answer. `tests/unit/contract/test_error_codes.py` checks every error built
names a declared code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from local.template import ROOT

# Where modules are imported from (PYTHONPATH): the layer, the functions, the repository (local, ops, tools).
IMPORT_ROOTS = (ROOT / "layers" / "shared", ROOT / "functions", ROOT)
SOURCE_ROOTS = IMPORT_ROOTS[:2]
ERRORS_MODULE = "core.errors"
BASE_KINDS = ["AppError", "InvalidInput", "NotAuthenticated", "NotPermitted", "NotFound", "Conflict"]
BASE_KINDS += ["TooManyAttempts", "Unavailable"]
CODE_KEYWORD = "error_code"  # a function raising the code its caller names (data.rate_limit.hit)
# Functions answering a code themselves (not raising it), as their second argument.
ANSWERING = {
    "edge.responses.error",
    "edge.responses.error_envelope",
    "local.gateway._envelope",
    "local.gateway.gateway_envelope",
}
# A code passed on, not chosen: a parameter named for it, or the code of a caught error or refusal.
PASSED_ON = {"error_code", "code"}
PASSED_ON_ATTRIBUTES = {"code", "type"}


@dataclass(frozen=True)
class Construction:
    """One place an error is built with a code."""

    module: str
    line: int
    kind: str  # the error class, qualified (`core.errors.NotFound`), or `invalid_value`
    code: str | None  # None: not a literal (must be a code passed on)
    passed_on: bool = False
    params: frozenset[str] | None = frozenset()  # the message's params given; None: some passed as **kwargs


@dataclass
class Unit:
    """A function (or method) body: the errors it builds and the names it reaches."""

    module: str
    constructions: list[Construction] = field(default_factory=list)
    reaches: set[str] = field(default_factory=set)


def _module_name(path: Path) -> str:
    for root in IMPORT_ROOTS:
        if path.is_relative_to(root):
            parts = path.relative_to(root).with_suffix("").parts
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    raise ValueError(path)


def source_files(roots: Iterable[Path] = SOURCE_ROOTS) -> Iterator[Path]:
    for root in roots:
        yield from sorted(path for path in root.rglob("*.py") if ".aws-sam" not in path.parts)


class CodeBase:
    """The parsed modules: definitions, imports, error kinds, and each function's unit."""

    def __init__(self, files: Iterable[Path]) -> None:
        self.trees = {_module_name(path): ast.parse(path.read_text(encoding="utf-8")) for path in files}
        self.definitions: set[str] = set()  # qualified functions, methods and classes
        self.methods: dict[str, set[str]] = {}  # method name -> qualified methods
        self.class_members: dict[str, set[str]] = {}
        self.bases: dict[str, list[str]] = {}
        self.default_codes: dict[str, str] = {}
        self.imports: dict[str, dict[str, str]] = {}
        self.code_tables: dict[str, set[str]] = {}  # module-level dicts whose values are codes
        for module, tree in self.trees.items():
            self._index(module, tree)
        self.kinds = self._error_kinds()
        self.units: dict[str, Unit] = {}
        for module, tree in self.trees.items():
            self._read_units(module, tree)

    # --- indexing ------------------------------------------------------------------------------
    def _index(self, module: str, tree: ast.Module) -> None:
        self.imports[module] = _imports(tree)
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                table = _code_table(node.value)
                if table:
                    self.code_tables[f"{module}.{node.targets[0].id}"] = table
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.definitions.add(f"{module}.{node.name}")
            elif isinstance(node, ast.ClassDef):
                self._index_class(module, node)

    def _index_class(self, module: str, node: ast.ClassDef) -> None:
        qualified = f"{module}.{node.name}"
        self.definitions.add(qualified)
        self.bases[qualified] = [self.resolve(module, base) or "" for base in node.bases]
        members = set()
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                method = f"{qualified}.{item.name}"
                members.add(method)
                self.methods.setdefault(item.name, set()).add(method)
            elif _assigns(item, "default_code") and isinstance(item, ast.Assign):
                self.default_codes[qualified] = str(ast.literal_eval(item.value))
        self.class_members[qualified] = members

    def _error_kinds(self) -> set[str]:
        kinds = {f"{ERRORS_MODULE}.{name}" for name in BASE_KINDS}
        grew = True
        while grew:
            found = {name for name, bases in self.bases.items() if set(bases) & kinds}
            grew = not found <= kinds
            kinds |= found
        return kinds

    def default_code(self, kind: str) -> str | None:
        if kind in self.default_codes:
            return self.default_codes[kind]
        for base in self.bases.get(kind, []):
            if base in self.kinds:
                return self.default_code(base)
        return None

    def resolve(self, module: str, node: ast.expr) -> str | None:
        """The qualified name an expression names (`NotFound`, `store.find_own`, `lifecycle.OrderBusy`)."""
        if isinstance(node, ast.Name):
            local = f"{module}.{node.id}"
            known = local in self.definitions or local in self.code_tables
            return local if known else self.imports.get(module, {}).get(node.id)
        if isinstance(node, ast.Attribute):
            owner = self.resolve(module, node.value)
            return f"{owner}.{node.attr}" if owner else None
        return None

    # --- reading function bodies -----------------------------------------------------------------
    def _read_units(self, module: str, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self._read_function(module, node, f"{module}.{node.name}", None)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        owner = f"{module}.{node.name}"
                        self._read_function(module, item, f"{owner}.{item.name}", owner)

    def _read_function(
        self, module: str, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, owner: str | None
    ) -> None:
        """A function's unit (with its nested functions'), and each nested function's own, named as
        Python names it (`outer.<locals>.inner`)."""
        self.units[name] = self._unit(module, function, owner)
        for node in ast.walk(function):
            if node is not function and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.units.setdefault(f"{name}.<locals>.{node.name}", self._unit(module, node, owner))

    def _unit(self, module: str, function: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None) -> Unit:
        unit = Unit(module)
        # Annotations run nothing: a parameter typed with a request model does not reach its validators
        # (their codes are answered as VALIDATION_FAILED's field errors).
        for node in _walk_without_annotations(function):
            if isinstance(node, ast.Call):
                self._read_call(module, node, unit)
            if isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load):
                target = self.resolve(module, node)
                if target in self.definitions:
                    unit.reaches.add(target)
                elif isinstance(node, ast.Attribute) and target is None:
                    unit.reaches |= self._methods_named(node, owner)
        return unit

    def _read_call(self, module: str, call: ast.Call, unit: Unit) -> None:
        target = self.resolve(module, call.func)
        code_argument: ast.expr | None = None
        kind = target
        if target in self.kinds:
            code_argument = call.args[0] if call.args else None
            if code_argument is None:
                built = Construction(
                    module=module, line=call.lineno, kind=target, code=self.default_code(target), params=_params(call)
                )
                unit.constructions.append(built)
                return
        elif target is not None and target.endswith(".field") and target.removesuffix(".field") in self.kinds:
            kind = target.removesuffix(".field")
            code_argument = call.args[1] if len(call.args) > 1 else None
        elif target in ANSWERING:
            code_argument = call.args[1] if len(call.args) > 1 else None
        elif target == f"{ERRORS_MODULE}.invalid_value":
            kind = "invalid_value"
            code_argument = call.args[0] if call.args else None
        for keyword in call.keywords:
            if keyword.arg == CODE_KEYWORD and target is not None:
                unit.constructions.extend(self._constructions(module, call, target, keyword.value))
        if code_argument is not None and kind is not None:
            unit.constructions.extend(self._constructions(module, call, kind, code_argument))

    def _constructions(self, module: str, call: ast.Call, kind: str, argument: ast.expr) -> list[Construction]:
        """The codes an argument names: a literal; any value (and the default) of a module's table of
        codes looked up (`DECLINES.get(reason, "PAYMENT_DECLINED")`, `REFUSED[outcome]`); or a code
        passed on (None)."""
        params = _params(call)
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            return [Construction(module=module, line=call.lineno, kind=kind, code=argument.value, params=params)]
        table: ast.expr | None = None
        codes: set[str] = set()
        if isinstance(argument, ast.Subscript):
            table = argument.value
        elif (
            isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute) and argument.func.attr == "get"
        ):
            table = argument.func.value
            codes |= {a.value for a in argument.args[1:] if isinstance(a, ast.Constant) and isinstance(a.value, str)}
        found = self.code_tables.get(self.resolve(module, table) or "") if table is not None else None
        if found is not None:
            return [
                Construction(module=module, line=call.lineno, kind=kind, code=code, params=params)
                for code in sorted(found | codes)
            ]
        passed_on = (isinstance(argument, ast.Name) and argument.id in PASSED_ON) or (
            isinstance(argument, ast.Attribute) and argument.attr in PASSED_ON_ATTRIBUTES
        )
        return [Construction(module=module, line=call.lineno, kind=kind, code=None, passed_on=passed_on, params=params)]

    def _methods_named(self, node: ast.Attribute, owner: str | None) -> set[str]:
        """The methods `obj.name` may call: of the class itself (and its bases) for `self`/`cls`, any of
        that name otherwise."""
        if owner is not None and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            classes = [owner, *self.bases.get(owner, [])]
            return {f"{cls}.{node.attr}" for cls in classes if f"{cls}.{node.attr}" in self.class_members.get(cls, ())}
        return self.methods.get(node.attr, set())

    # --- questions ----------------------------------------------------------------------------------
    def reachable(self, starts: Iterable[str]) -> set[str]:
        """Every unit reachable from `starts` (functions, methods or classes: a class reaches its methods)."""
        seen: set[str] = set()
        todo = list(starts)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(self.class_members.get(name, ()))
            if name in self.units:
                todo.extend(self.units[name].reaches)
        return seen

    def codes(self, starts: Iterable[str], *, keep: Callable[[Construction], bool] = lambda _: True) -> set[str]:
        """The literal codes built by everything reachable from `starts`."""
        return {
            built.code
            for name in self.reachable(starts)
            for built in self.units.get(name, Unit("")).constructions
            if built.code is not None and keep(built)
        }

    def constructions(self) -> Iterator[Construction]:
        for unit in self.units.values():
            yield from unit.constructions


NOT_PARAMS = {"errors", "details", "retry_after", CODE_KEYWORD}


def _params(call: ast.Call) -> frozenset[str] | None:
    """The message params a call gives by keyword; None when some come as `**kwargs`."""
    if any(keyword.arg is None for keyword in call.keywords):
        return None
    return frozenset(str(keyword.arg) for keyword in call.keywords) - NOT_PARAMS


def _imports(tree: ast.Module) -> dict[str, str]:
    """The names a module imports -> what they name (`store` -> `domain.payments.store`)."""
    imports: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imports |= {alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                imports[alias.asname or top] = alias.name if alias.asname else top
    return imports


def _code_table(value: ast.expr) -> set[str]:
    """The values of a dict literal whose values are all strings (`DECLINES = {reason: code}`)."""
    if not isinstance(value, ast.Dict) or not value.values:
        return set()
    texts = [item.value for item in value.values if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return set(texts) if len(texts) == len(value.values) else set()


def _assigns(node: ast.stmt, name: str) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)


def _walk_without_annotations(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    annotations: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.arg) and node.annotation is not None:
            annotations.update(id(part) for part in ast.walk(node.annotation))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            annotations.update(id(part) for part in ast.walk(node.returns))
        elif isinstance(node, ast.AnnAssign):
            annotations.update(id(part) for part in ast.walk(node.annotation))
    return (node for node in ast.walk(function) if id(node) not in annotations)


@cache
def code_base(*extra: Path) -> CodeBase:
    """The layer and the functions, and `extra` files (a route defined elsewhere, e.g. in a test)."""
    return CodeBase([*source_files(), *extra])


def qualified_name(function: Callable[..., object]) -> str:
    return f"{function.__module__}.{function.__qualname__}"
