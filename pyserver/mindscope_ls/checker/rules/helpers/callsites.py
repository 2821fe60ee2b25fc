"""Calls into compiled code from the Python that drives it (training loops, scripts): the scopes
outside compiled code, their loops, what each name is bound to, and which callees compile.

MindSpore compiles a Cell only in GRAPH_MODE, and a `jit` function (or a Cell whose `construct`
is `@jit`) in both modes; a call is "compiled" when its callee is one of those. Callees may be
defined in the file, be MindSpore's own Cells, or be imported from another file of the workspace
(a class that is a Cell through bases in any file, a function decorated with `@jit`): the engine
hands the check's workspace over with `use`. Nothing computed from other files outlives a check.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from ...index.sources import split_lines
from ...index.workspace import Workspace
from . import names
from .classes import ClassInfo, ClassTable
from .scopes import Binding, Call, Scope, function_scope, module_scope
from .walk import of_type

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
        after the other). The scopes it is built from are kept per node between checks; what
        other files say is looked up again in every check (the workspace set by `use`)."""
        assert module.tree is not None
        found = _LATEST[0]
        classes = _CLASSES[0]
        if found is None or found.module is not module or found.classes is not classes:
            found = cls(module, classes)
            _LATEST[0] = found
        return found

    def __init__(self, module: ModuleInfo, classes: Optional[ClassTable] = None):
        assert module.tree is not None
        self.module = module
        # The workspace's classes, when the check has a workspace: names imported from its
        # files are resolved through them (only for this check: other files change).
        self.classes = classes
        self._imported: dict[str, Optional[Compiled]] = {}
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
        return split_lines(self.module.source)

    def _anything_compiles(self) -> bool:
        """Whether the file defines a `jit` function or builds something that compiles."""
        assert self.module.tree is not None
        calls: list[ast.Call] = of_type(self.module.tree, ast.Call)
        source = self.module.source
        if "jit" not in source and "set_context" not in source:
            # PyNative and no `jit` here: only a callee imported from the workspace compiles.
            imported = self._workspace_imports()
            if not imported:
                return False
            imported.update(self.cells)  # a local Cell may inherit a `@jit` construct
            calls = [call for call in calls if _head(call.func) in imported]
        else:
            fns: list[FunctionNode] = of_type(
                self.module.tree, ast.FunctionDef, ast.AsyncFunctionDef
            )
            if any(self.jit_decorated(fn) for fn in fns):
                return True
        return any(
            self.compiles(self.created(call)) or self._imported_function(call.func) is not None
            for call in calls
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
                    if construct is not None:
                        self.cells[name] = self.jit_decorated(construct)
                    else:  # inherited, maybe from a base in another file
                        self.cells[name] = self._inherits_jit_construct(cls)
                    del pending[name]
                    changed = True

    def _inherits_jit_construct(self, cls: ast.ClassDef) -> bool:
        """A local Cell without its own `construct`: whether the one it inherits is `@jit`
        (known only with the workspace's classes; else taken as compiled in GRAPH_MODE only)."""
        if self.classes is None:
            return False
        info = self.classes.info(self.module, cls)
        return info.is_cell and _cell_kind(info) == "jit"

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
        if names.is_cell_qualname(self.module.qualname(base)):
            return True
        info = self._imported_class(base)
        return info is not None and info.is_cell

    # -- names imported from other files of the workspace -----------------------------------

    def _imported_qualname(self, expr: ast.expr) -> Optional[str]:
        """The dotted name of `expr` when it starts with an imported name (`Net` after `from
        model import Net`, `mymodels.Net` after `import mymodels`) of no MindSpore module."""
        head = _head(expr)
        if head is None or head not in self.module.imports:
            return None
        if head in self.module.classes or head in self.module.functions:
            return None  # also defined here: which one a call means depends on the order
        qualname = self.module.qualname(expr)
        if qualname is None or "." not in qualname or qualname.startswith("mindspore."):
            return None
        return qualname

    def _workspace_imports(self) -> set[str]:
        """The names the file imports that may name something of another file of the
        workspace (a cheap test before calls are looked at)."""
        found: set[str] = set()
        if self.classes is None:
            return found
        workspace = self.classes.workspace
        for name, target in self.module.imports.items():
            if target.startswith("mindspore"):
                continue
            parent = target.rpartition(".")[0]
            if workspace.find_module(target) is not None or (  # `import mymodels`
                parent and workspace.find_module(parent) is not None  # `from model import Net`
            ):
                found.add(name)
        return found

    def _imported_class(self, expr: ast.expr) -> Optional[ClassInfo]:
        """The workspace class an imported name refers to (its bases resolved in any file)."""
        if self.classes is None:
            return None
        qualname = self._imported_qualname(expr)
        return self.classes.resolve(qualname) if qualname is not None else None

    def _imported_function(self, expr: ast.expr) -> Optional[Compiled]:
        """A `jit` callee when `expr` names an imported workspace function decorated with
        `@jit` (judged by the imports of the file that defines it)."""
        qualname = self._imported_qualname(expr)
        return self._jit_function(qualname) if qualname is not None else None

    def _jit_function(self, qualname: str) -> Optional[Compiled]:
        if self.classes is None or qualname.startswith("mindspore.") or "." not in qualname:
            return None
        if qualname not in self._imported:
            found = self.classes.workspace.resolve_function(qualname)
            compiled = None
            if found is not None and isinstance(found[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
                owner, fn = found[0], found[1]
                if any(names.is_jit(owner, d) for d in fn.decorator_list):
                    compiled = Compiled("jit", qualname.rsplit(".", 1)[-1])
            self._imported[qualname] = compiled
        return self._imported[qualname]

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
            info = self._imported_class(func)
            if info is not None and info.is_cell:
                return Compiled(_cell_kind(info), info.name, cell=True)
        return None

    def compiles(self, compiled: Optional[Compiled]) -> bool:
        return compiled is not None and (compiled.kind == "jit" or self.graph_mode)

    def callee(self, scope: Scope, func: ast.expr) -> Optional[Compiled]:
        """The compiled callee `func` names in `scope`: a local, a module name or `self.attr`."""
        if isinstance(func, ast.Name):
            return self._bound_to(self.bindings(scope, func.id), func.id)
        if isinstance(func, ast.Attribute) and self._only_imported(scope, func):
            found = self._imported_function(func)  # `utils.train_step` after `import utils`
            return Compiled(found.kind, ast.unparse(func)) if found is not None else None
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
            if isinstance(binding.node, ast.ImportFrom):
                imported = self._from_import(binding.node, label)
                if imported is None:
                    return None
                kinds.add(imported.kind)
                continue
            made = self.created(binding.value) if binding.index is None else None
            if made is None or not isinstance(binding.node, (ast.Assign, ast.AnnAssign)):
                return None
            kinds.add(made.kind)
        return Compiled(kinds.pop(), label) if len(kinds) == 1 else None

    def _from_import(self, node: ast.ImportFrom, name: str) -> Optional[Compiled]:
        """The `jit` function that `from utils import train_step` binds to `name`."""
        if name in self.module.classes or name in self.module.functions:
            return None  # also defined here: which one a call means depends on the order
        base = self.module._resolve_relative(node)
        for alias in node.names:
            if (alias.asname or alias.name) == name:
                return self._jit_function(f"{base}.{alias.name}" if base else alias.name)
        return None

    def _only_imported(self, scope: Scope, func: ast.Attribute) -> bool:
        """`func`'s leftmost name is bound in `scope` by imports only (`import utils`, `from .
        import utils`)."""
        head = _head(func)
        if head is None:
            return False
        found = self.bindings(scope, head)
        return bool(found) and all(isinstance(b.node, (ast.Import, ast.ImportFrom)) for b in found)

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
# The classes of the workspace of the check running the rules, until `release`.
_CLASSES: list[Optional[ClassTable]] = [None]


def use(workspace: Workspace, classes: Optional[ClassTable] = None) -> None:
    """Resolve names imported from other files through `workspace` (and its `classes`, built
    for this check) in the rules run until `release`."""
    _LATEST[0] = None
    _CLASSES[0] = classes if classes is not None else ClassTable(workspace)


def release() -> None:
    """Drop the analysis and workspace kept for the rules of one check (the engine calls this
    after them)."""
    _LATEST[0] = None
    _CLASSES[0] = None


def has_workspace() -> bool:
    """Whether the rules running now may resolve names imported from other files."""
    return _CLASSES[0] is not None


def _head(expr: ast.expr) -> Optional[str]:
    """The leftmost name of `a.b.c`."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _cell_kind(info: ClassInfo) -> str:
    """Whether a Cell compiles in both modes ("jit": the `construct` it runs, its own or
    inherited, is `@jit`) or in GRAPH_MODE only ("cell")."""
    found = info.find_method("construct")
    if found is not None:
        owner, construct = found
        if any(names.is_jit(owner.module, d) for d in construct.decorator_list):
            return "jit"
    return "cell"


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
