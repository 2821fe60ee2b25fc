"""MS368: `construct` returns a Parameter it updates, and the caller keeps that result across
calls.

Measured with MindSpore 2.10 on CPU, LAX and STRICT alike, against PyNative: a counter Cell
whose `construct` runs `ops.assign_add(self.step, Tensor(1, ms.int32))` (or `self.step += 1`)
and returns `self.step` gives PyNative's caller the Parameter itself, so every result it kept
follows later calls: `outs = [c(x) for _ in range(3)]` held 3, 3, 3 in PyNative and 1, 2, 3 in
GRAPH_MODE; `a = c(x); b = c(x)` then `a` read: 2 against 1; `r1 = c(x)` with `return x * 2,
self.step` alike; `outs.append(c(x))` in a loop alike. Graph mode returns a copy of the value at
the end of the call. Agreeing (left alone): one call, each result read before the next call
(`seen.append(int(c(x)))`), `return self.step + 0`, and a Parameter returned but never
written by `construct` (both modes then read the same value), and `Counter()(x)` called
inline twice (a new Parameter each time).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import ModuleInfo
from ..model import Group, RawFinding, Related
from ..rule import Rule, node_range
from .divergence_inputs import FunctionNode, _bound_classes, _calls, _cell_constructs, _target
from .helpers import names
from .helpers.flow import loads_after
from .helpers.walk import of_type

RETURNED_PARAMETER_KEPT = Rule(
    "MS368",
    "returned-parameter-kept",
    Group.DIVERGES,
    title="`construct` returns a Parameter it updates, and the caller keeps results across calls",
    message=(
        "`construct` returns the Parameter `self.{name}` it updates, and the caller keeps a "
        "result across calls: PyNative returns the Parameter itself, so the kept result "
        "changes with each later call, while graph mode returns the value of that call; "
        "return a copy (`self.{name} + 0`) or read the result before calling again."
    ),
    why=(
        "A PyNative call returns the very Parameter object, which later calls update in "
        "place; a compiled graph returns a new Tensor holding the value at the end of the "
        "call. Measured: `outs = [c(x) for _ in range(3)]` on a counter returning "
        "`self.step` held 3, 3, 3 in PyNative and 1, 2, 3 in GRAPH_MODE."
    ),
    remedy="Return a copy (`return self.step + 0`), or convert each result before the next call.",
    mindspore_says="(compiles; result differs from PyNative)",
)

_ASSIGN_OPS = frozenset({"assign", "assign_add", "assign_sub", "Assign", "AssignAdd", "AssignSub"})


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    cells = _cell_constructs(module, tree)
    if not cells:
        return
    returned: dict[str, tuple[str, ast.expr]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name in cells:
            found = _returned_parameter(module, stmt, cells[stmt.name])
            if found is not None:
                returned[stmt.name] = found
    if not returned:
        return
    constructs = {cls: cells[cls] for cls in returned}
    callers: list[ast.AST] = [tree] + [
        s
        for s in tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not any(names.is_jit(module, d) for d in s.decorator_list)
    ]
    reported: set[str] = set()
    for caller in callers:
        calls = _calls(caller)
        bound = _bound_classes(caller)
        targets: dict[int, str] = {}
        for call in calls:
            target = _target(call, bound, constructs, {})
            if target is not None:
                targets[id(call)] = _class_of(constructs, target)
        if not targets:
            continue
        for call in calls:
            cls = targets.get(id(call))
            if cls is None or cls in reported or not isinstance(call.func, ast.Name):
                continue  # `Counter()(x)` makes a new Parameter on each call
            instance = call.func.id
            same = [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == instance]
            kept = _kept(caller, call, same)
            if kept is None:
                continue
            reported.add(cls)
            name, node = returned[cls]
            yield RETURNED_PARAMETER_KEPT.finding(
                node,
                related=[Related(module.path, node_range(kept), "the result kept here")],
                name=name,
            )


def _class_of(constructs: dict[str, FunctionNode], target: FunctionNode) -> str:
    return next(cls for cls, fn in constructs.items() if fn is target)


def _returned_parameter(
    module: ModuleInfo, cls: ast.ClassDef, construct: FunctionNode
) -> Optional[tuple[str, ast.expr]]:
    """(`P`, the returned `self.P`) for a Parameter attribute that `construct` writes and
    returns as it is (alone, or as an item of the returned tuple)."""
    params = _parameters(module, cls)
    if not params:
        return None
    written = _written(module, construct)
    for ret in of_type(construct, ast.Return):
        items = ret.value.elts if isinstance(ret.value, (ast.Tuple, ast.List)) else [ret.value]
        for item in items:
            name = names.self_attribute(item) if item is not None else None
            if name is not None and name in params and name in written and item is not None:
                return name, item
    return None


def _parameters(module: ModuleInfo, cls: ast.ClassDef) -> set[str]:
    """The attributes `__init__` sets to `Parameter(...)` (and to nothing else)."""
    found: dict[str, list[bool]] = {}
    for item in cls.body:
        if not isinstance(item, ast.FunctionDef) or item.name != "__init__":
            continue
        for node in of_type(item, ast.Assign):
            for target in node.targets:
                name = names.self_attribute(target)
                if name is not None:
                    is_param = isinstance(node.value, ast.Call) and (
                        names.callee(module, node.value.func) in names.PARAMETER
                    )
                    found.setdefault(name, []).append(is_param)
    return {name for name, kinds in found.items() if all(kinds)}


def _written(module: ModuleInfo, fn: FunctionNode) -> set[str]:
    """The `self.P` that `fn` updates from its own value, so that each call leaves another
    value: `ops.assign_add(self.P, ...)`, `ops.assign(self.P, <reads self.P>)`,
    `self.P += ...`, `self.P = <reads self.P>`, `self.P.add_(...)`. (An overwrite with a
    value of the inputs alone leaves the same value on each call with the same inputs.)"""
    out: set[str] = set()
    for node in of_type(fn, ast.Call):
        func = node.func
        qualname = names.callee(module, func.func if isinstance(func, ast.Call) else func)
        if node.args and qualname and qualname.startswith("mindspore."):
            op = qualname.rsplit(".", 1)[-1]
            name = names.self_attribute(node.args[0]) if op in _ASSIGN_OPS else None
            if name is not None and (
                op not in ("assign", "Assign") or any(_reads(a, name) for a in node.args[1:])
            ):
                out.add(name)
        if (
            isinstance(func, ast.Attribute)
            and func.attr.endswith("_")
            and not func.attr.startswith("_")
        ):
            name = names.self_attribute(func.value)
            if name is not None:
                out.add(name)
    for stmt in of_type(fn, ast.AugAssign):
        name = names.self_attribute(stmt.target)
        if name is not None:
            out.add(name)
    for assign in of_type(fn, ast.Assign):
        for target in assign.targets:
            name = names.self_attribute(target)
            if name is not None and _reads(assign.value, name):
                out.add(name)
    return out


def _reads(expr: ast.expr, name: str) -> bool:
    return any(
        isinstance(n, ast.Attribute) and names.self_attribute(n) == name for n in ast.walk(expr)
    )


def _kept(caller: ast.AST, call: ast.Call, calls: list[ast.Call]) -> Optional[ast.AST]:
    """Where the caller keeps `call`'s result past a later call of the same Cell: `a = c(x)`
    read after another call, or `outs.append(c(x))` / `[c(x) for ...]` in a loop."""
    for loop in of_type(caller, ast.For, ast.While):
        if not any(sub is call for sub in ast.walk(loop)):
            continue
        for node in of_type(loop, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "append"
                and node.args
                and node.args[0] is call
            ):
                return node
    for comp in of_type(caller, ast.ListComp):
        elt = comp.elt
        items = elt.elts if isinstance(elt, ast.Tuple) else [elt]
        if any(item is call for item in items):
            return comp
    for assign in of_type(caller, ast.Assign):
        if assign.value is not call or len(assign.targets) != 1:
            continue
        target = assign.targets[0]
        if not isinstance(target, ast.Name):
            continue
        later = [c for c in calls if c is not call and (c.lineno, c.col_offset) > _end(call)]
        for other in later:
            if loads_after(caller, target.id, other) is not None:
                return assign
    return None


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
