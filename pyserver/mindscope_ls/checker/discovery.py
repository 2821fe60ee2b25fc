"""Find the code MindSpore compiles: Cell.construct, @jit functions, ms.jit(fn), and callees."""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field
from typing import Optional

from . import names
from .classes import ClassInfo, ClassTable
from .index import FunctionNode, ModuleInfo
from .types import TensorTypes
from .walk import of_type
from .workspace import Workspace

MAX_FUNCTIONS = 20000


@dataclass
class Caller:
    """Where a compiled helper is called from (shown as a related location)."""

    path: str
    node: ast.AST
    description: str


@dataclass
class CompiledFunction:
    module: ModuleInfo
    node: FunctionNode
    cls: Optional[ClassInfo]
    reason: str
    level: Optional[str] = None  # set by jit(fullgraph=True)
    tensor_params: set[str] = field(default_factory=set)
    caller: Optional[Caller] = None
    _types: Optional[tuple[frozenset[str], TensorTypes]] = field(default=None, repr=False)

    @property
    def qualname(self) -> str:
        return f"{self.cls.name}.{self.node.name}" if self.cls else self.node.name

    def types(self) -> TensorTypes:
        key = frozenset(self.tensor_params)
        if self._types is None or self._types[0] != key:
            self._types = (key, TensorTypes(self.module, self.node, self.cls, key))
        return self._types[1]


class Discovery:
    """Computes the compiled functions of a whole workspace, following calls between files."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self.classes = ClassTable(workspace)
        self.found: dict[int, CompiledFunction] = {}
        self._queue: deque[CompiledFunction] = deque()

    def run(self) -> list[CompiledFunction]:
        for module in self.workspace.modules():
            if module.tree is not None:
                self._roots(module)
        while self._queue and len(self.found) < MAX_FUNCTIONS:
            self._follow_calls(self._queue.popleft())
        return list(self.found.values())

    def _add(self, fn: CompiledFunction) -> None:
        current = self.found.get(id(fn.node))
        if current is None:
            self.found[id(fn.node)] = fn
            self._queue.append(fn)
            return
        if current.caller is None and fn.caller is not None:
            current.caller = fn.caller  # a sub-Cell's construct: show where it is called
        new_params = fn.tensor_params - current.tensor_params
        if new_params:
            current.tensor_params |= new_params
            self._queue.append(current)
        if fn.level == "STRICT" and current.level != "STRICT":
            current.level = "STRICT"
            self._queue.append(current)

    def _roots(self, module: ModuleInfo) -> None:
        assert module.tree is not None
        kinds = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Call)
        for node in of_type(module.tree, *kinds):
            if isinstance(node, ast.ClassDef):
                self._class_roots(module, node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    if names.is_jit(module, deco):
                        cls = self._enclosing_class(module, node)
                        self._add(self._jit_root(module, node, cls, deco, "decorated with @jit"))
            elif (
                isinstance(node, ast.Call)
                and node.args
                and _named(node.func, "jit")
                and (names.is_jit(module, node))
            ):
                self._wrapper_root(module, node)

    def _class_roots(self, module: ModuleInfo, node: ast.ClassDef) -> None:
        info = self.classes.info(module, node)
        if not info.is_cell:
            return
        construct = info.own_method("construct")
        if construct is not None:
            params = _tensor_params(construct, skip_self=True)
            self._add(
                CompiledFunction(
                    module,
                    construct,
                    info,
                    f"construct of Cell {info.name}",
                    tensor_params=set(params),
                )
            )

    def _jit_root(
        self,
        module: ModuleInfo,
        node: FunctionNode,
        cls: Optional[ClassInfo],
        jit_expr: ast.expr,
        reason: str,
    ) -> CompiledFunction:
        # MindSpore 2.10 compiles `jit` functions leniently (LAX) whatever the context's
        # jit_syntax_level: only `jit(fullgraph=True)` makes them STRICT.
        level = "LAX"
        if isinstance(jit_expr, ast.Call):
            full = names.keyword(jit_expr, "fullgraph")
            if isinstance(full, ast.Constant) and full.value is True:
                level = "STRICT"
        params = _tensor_params(node, skip_self=cls is not None)
        return CompiledFunction(module, node, cls, reason, level, set(params))

    def _wrapper_root(self, module: ModuleInfo, call: ast.Call) -> None:
        target = call.args[0]
        if isinstance(target, ast.Name) and target.id in module.functions:
            fn = module.functions[target.id]
            self._add(self._jit_root(module, fn, None, call, "wrapped by ms.jit(...)"))

    def _enclosing_class(self, module: ModuleInfo, node: FunctionNode) -> Optional[ClassInfo]:
        for cls_node in module.classes.values():
            if node in cls_node.body:
                return self.classes.info(module, cls_node)
        return None

    def _follow_calls(self, fn: CompiledFunction) -> None:
        types = fn.types()
        for node in of_type(fn.node, ast.Call):
            target = self._call_target(fn, node)
            if target is None:
                continue
            module, callee_node, cls = target
            skip_self = cls is not None
            params = _param_names(callee_node, skip_self=skip_self)
            tensor_params = {
                params[i]
                for i, arg in enumerate(node.args)
                if i < len(params) and types.is_tensor(arg)
            }
            tensor_params |= {
                kw.arg for kw in node.keywords if kw.arg in params and types.is_tensor(kw.value)
            }
            caller = Caller(fn.module.path, node, f"called from compiled {fn.qualname}")
            self._add(
                CompiledFunction(
                    module, callee_node, cls, caller.description, fn.level, tensor_params, caller
                )
            )

    def _call_target(
        self, fn: CompiledFunction, call: ast.Call
    ) -> Optional[tuple[ModuleInfo, FunctionNode, Optional[ClassInfo]]]:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and fn.cls is not None
        ):
            found = fn.cls.find_method(func.attr)
            if found is not None:
                return found[0].module, found[1], found[0]
            return self._sub_cell(fn.cls, func.attr)
        qualname = names.callee(fn.module, func)
        if qualname is None or qualname.startswith("mindspore."):
            return None
        if isinstance(func, ast.Name) and func.id in fn.module.functions:
            return fn.module, fn.module.functions[func.id], None
        resolved = self.workspace.resolve_function(qualname)
        if resolved is not None and isinstance(
            resolved[1], (ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            return resolved[0], resolved[1], None
        return None

    def _sub_cell(
        self, cls: ClassInfo, attr: str
    ) -> Optional[tuple[ModuleInfo, FunctionNode, Optional[ClassInfo]]]:
        """`self.inner(x)` where `self.inner = Inner()` is a Cell of the workspace."""
        held = cls.attr(attr)
        if held is None or held.kind != "cell" or held.class_qualname is None:
            return None
        info = self.classes.resolve(held.class_qualname)
        found = info.find_method("construct") if info is not None else None
        if found is None:
            return None
        return found[0].module, found[1], found[0]


def _named(func: ast.expr, name: str) -> bool:
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


def _param_names(node: FunctionNode, skip_self: bool) -> list[str]:
    args = node.args
    ordered = [a.arg for a in [*args.posonlyargs, *args.args]]
    if skip_self and ordered:
        ordered = ordered[1:]
    return ordered + [a.arg for a in args.kwonlyargs]


def _tensor_params(node: FunctionNode, skip_self: bool) -> list[str]:
    """Parameters of a compiled entry point that get Tensors: those without a constant default."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    if skip_self and positional:
        pairs = pairs[1:]
    return [a.arg for a, default in pairs if not isinstance(default, ast.Constant)]


def discover(workspace: Workspace) -> list[CompiledFunction]:
    """All compiled functions of `workspace`."""
    return Discovery(workspace).run()
