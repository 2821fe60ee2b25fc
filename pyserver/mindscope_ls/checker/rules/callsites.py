"""Calls into compiled code from the Python that drives it (training loops, scripts): the scopes
outside compiled code, their loops, what each name is bound to, and which callees compile.

MindSpore compiles a Cell only in GRAPH_MODE, and a `jit` function (or a Cell whose `construct`
is `@jit`) in both modes; a call is "compiled" when its callee is one of those.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

from .. import names
from ..index import FunctionNode, ModuleInfo
from ..walk import of_type
from .scopes import Binding, Call, Scope, function_scope, module_scope

ITERATORS = frozenset({"create_tuple_iterator", "create_dict_iterator"})


@dataclass(frozen=True)
class Compiled:
    """A callee that MindSpore compiles: `kind` is "cell" (compiled in GRAPH_MODE only) or
    "jit" (always); `name` is for messages; `cell` tells a Cell instance from a function."""

    kind: str
    name: str
    cell: bool = False


class CallSites:
    """The scopes of a module that run as Python, and what their callees compile to."""

    @classmethod
    def of(cls, module: ModuleInfo) -> CallSites:
        """One analysis per version of a module, shared by the rules of one check (they run one
        after the other). The scopes it is built from are kept per node between checks."""
        assert module.tree is not None
        found = _LATEST[0]
        if found is None or found.module is not module:
            found = cls(module)
            _LATEST[0] = found
        return found

    def __init__(self, module: ModuleInfo):
        assert module.tree is not None
        self.module = module
        self.graph_mode = _sets_graph_mode(module)
        self.cells: dict[str, bool] = {}  # local Cell class -> its construct is @jit
        self._find_cells()
        self.scopes: list[Scope] = []
        if not self._anything_compiles():
            self.module_scope = Scope(module.tree, None)  # cheap exit for most library files
            return
        self.module_scope = module_scope(module.tree)
        self.scopes.append(self.module_scope)
        for cls in module.classes.values():
            if not self._plain_class(cls):
                continue  # a Cell's methods are compiled (or build the Cell): not call sites
            for stmt in cls.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._function_scopes(stmt, cls)
        for fn, _ in self.module_scope.defs:
            self._function_scopes(fn, None)

    @cached_property
    def lines(self) -> list[str]:
        """The module's lines, for findings' messages and fixes (most checks report none)."""
        return self.module.source.splitlines()

    def _anything_compiles(self) -> bool:
        """Whether the file defines a `jit` function or builds something that compiles."""
        assert self.module.tree is not None
        fns: list[FunctionNode] = of_type(self.module.tree, ast.FunctionDef, ast.AsyncFunctionDef)
        if any(self.jit_decorated(fn) for fn in fns):
            return True
        return any(
            self.compiles(self.created(call)) for call in of_type(self.module.tree, ast.Call)
        )

    # -- scopes -----------------------------------------------------------------------------

    def _function_scopes(self, fn: FunctionNode, cls: Optional[ast.ClassDef]) -> None:
        if fn.name == "construct" or self.jit_decorated(fn):
            return  # compiled code: the graph-mode rules look at it
        scope = self._scope(fn, cls)
        for nested, _ in scope.defs:
            self._function_scopes(nested, None)

    def _scope(self, node: FunctionNode, cls: Optional[ast.ClassDef]) -> Scope:
        scope = function_scope(node, cls)
        self.scopes.append(scope)
        return scope

    def bindings(self, scope: Scope, name: str) -> list[Binding]:
        """Where `name` is bound as seen from `scope` (its own bindings, else the module's)."""
        found = scope.bindings.get(name)
        if found is None and scope is not self.module_scope:
            found = self.module_scope.bindings.get(name)
        return found or []

    # -- what compiles ----------------------------------------------------------------------

    def jit_decorated(self, fn: FunctionNode) -> bool:
        return any(names.is_jit(self.module, d) for d in fn.decorator_list)

    def _method(self, cls: ast.ClassDef, name: str) -> Optional[FunctionNode]:
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                return stmt
        return None

    def _find_cells(self) -> None:
        """The module's own Cell classes, and whether their `construct` is `@jit` (then it
        compiles in PyNative too)."""
        pending = dict(self.module.classes)
        changed = True
        while changed:  # a local Cell may derive from another local Cell defined later
            changed = False
            for name, cls in list(pending.items()):
                if any(self._is_cell_base(base) for base in cls.bases):
                    construct = self._method(cls, "construct")
                    self.cells[name] = construct is not None and self.jit_decorated(construct)
                    del pending[name]
                    changed = True

    def _plain_class(self, cls: ast.ClassDef, depth: int = 0) -> bool:
        """A class known not to be a Cell: its bases are `object` or such local classes (a base
        from another file may be a Cell, whose methods run compiled)."""
        if cls.name in self.cells or depth > 20:
            return False
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id == "object":
                continue
            local = self.module.classes.get(base.id) if isinstance(base, ast.Name) else None
            if local is None or not self._plain_class(local, depth + 1):
                return False
        return True

    def _is_cell_base(self, base: ast.expr) -> bool:
        if isinstance(base, ast.Name) and base.id in self.cells:
            return True
        return names.is_cell_qualname(self.module.qualname(base))

    def created(self, value: Optional[ast.expr]) -> Optional[Compiled]:
        """What `value` creates when it builds a compiled callee: `Net()`, `ms.jit(fn)`."""
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if value.args and (
            names.is_jit(self.module, value)
            or (isinstance(func, ast.Call) and names.is_jit(self.module, func))
        ):
            target = value.args[0]
            label = target.id if isinstance(target, ast.Name) else "the function"
            return Compiled("jit", label)
        if isinstance(func, ast.Name) and func.id in self.cells:
            kind = "jit" if self.cells[func.id] else "cell"
            return Compiled(kind, func.id, cell=True)
        if isinstance(func, (ast.Name, ast.Attribute)):
            qualname = self.module.qualname(func)
            if names.is_cell_qualname(qualname) and qualname is not None:
                return Compiled("cell", qualname.rsplit(".", 1)[-1], cell=True)
        return None

    def compiles(self, compiled: Optional[Compiled]) -> bool:
        return compiled is not None and (compiled.kind == "jit" or self.graph_mode)

    def callee(self, scope: Scope, func: ast.expr) -> Optional[Compiled]:
        """The compiled callee `func` names in `scope`: a local, a module name or `self.attr`."""
        if isinstance(func, ast.Name):
            return self._bound_to(self.bindings(scope, func.id), func.id)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and scope.cls is not None
        ):
            return self._attribute(scope.cls, func.attr)
        return None

    def _bound_to(self, bindings: list[Binding], label: str) -> Optional[Compiled]:
        """The callee when every binding of a name creates the same kind of compiled object."""
        kinds: set[str] = set()
        for binding in bindings:
            if isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not self.jit_decorated(binding.node):
                    return None
                kinds.add("jit")
                continue
            made = self.created(binding.value) if binding.index is None else None
            if made is None or not isinstance(binding.node, (ast.Assign, ast.AnnAssign)):
                return None
            kinds.add(made.kind)
        return Compiled(kinds.pop(), label) if len(kinds) == 1 else None

    def _attribute(self, cls: ast.ClassDef, attr: str) -> Optional[Compiled]:
        method = self._method(cls, attr)
        if method is not None:
            return Compiled("jit", f"self.{attr}") if self.jit_decorated(method) else None
        values: list[Optional[ast.expr]] = []
        assigns: list[ast.Assign | ast.AnnAssign] = of_type(cls, ast.Assign, ast.AnnAssign)
        for node in assigns:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == attr
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                ):
                    values.append(node.value)
        made = [self.created(v) for v in values]
        if not made or any(m is None for m in made) or len({m.kind for m in made if m}) != 1:
            return None
        first = made[0]
        assert first is not None
        return Compiled(first.kind, f"self.{attr}")

    def compiled_calls(self, scope: Scope) -> list[tuple[Call, Compiled]]:
        """The calls of `scope` that run compiled code."""
        found = []
        for call in scope.calls:
            callee = self.callee(scope, call.node.func)
            if callee is not None and self.compiles(callee):
                found.append((call, callee))
        return found


# The analysis of the module being checked, until `release`. A weak-keyed table by tree kept
# every version alive for ever (its values hold the tree through their module); on the tree it
# would be a cycle, which a frozen collector generation (the server's) never frees.
_LATEST: list[Optional[CallSites]] = [None]


def release() -> None:
    """Drop the analysis kept for the rules of one check (the engine calls this after them)."""
    _LATEST[0] = None


def _sets_graph_mode(module: ModuleInfo) -> bool:
    """True when the file calls `set_context(mode=GRAPH_MODE)` (MindSpore's default is PyNative,
    where a Cell runs without compiling)."""
    if "set_context" not in module.source or module.tree is None:
        return False
    for call in of_type(module.tree, ast.Call):
        name = module.qualname(call.func) or ""
        if not (name.startswith("mindspore") and name.endswith("set_context")):
            continue
        mode = names.keyword(call, "mode")
        if isinstance(mode, ast.Constant) and mode.value == 0 and mode.value is not False:
            return True
        if mode is not None and (module.qualname(mode) or "").endswith("GRAPH_MODE"):
            return True
    return False


def iterator_call(expr: Optional[ast.expr]) -> Optional[str]:
    """`create_tuple_iterator` / `create_dict_iterator` when `expr` calls one of them."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ITERATORS
    ):
        return expr.func.attr
    return None
