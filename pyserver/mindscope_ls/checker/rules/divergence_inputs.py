"""MS316: compiled code writing its Tensor input in place, when the caller reads that Tensor
after the call.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative, with `t` passed to
`construct(self, x)` (or an `@ms.jit` function) and read by the caller afterwards:

- `x += 1` changes `t` in GRAPH_MODE (the graph updates its input in place); PyNative rebinds the
  local `x` only, so `t` keeps its values.
- `x[0] = 7.0` changes `t` in PyNative (one Tensor object); GRAPH_MODE writes a new Tensor, so
  `t` keeps its values.

Only the caller's later read shows the difference, so the rule looks for it in the same file:
module-level code or a function that is not compiled, calling the `@jit` function, `Net()(t)`,
or `net(t)` with `net = Net(...)` bound in that caller. (`x.add_(...)` is MS311's.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..index.module import ModuleInfo
from ..model import Group, RawFinding, Related
from ..rule import Rule, node_range
from .helpers import names
from .helpers.flow import loads_after

INPUT_WRITTEN_IN_PLACE = Rule(
    "MS316",
    "input-written-in-place",
    Group.DIVERGES,
    title="Compiled code writes its Tensor input, and the caller reads it afterwards",
    message=(
        "`{write}` writes the input `{param}`: {effect}, so `{arg}` read after the call differs; "
        "copy the input first (`{param} = {param} * 1`) or do not reuse `{arg}`."
    ),
    why=(
        "Graph mode runs `x += v` on an input in place, so the caller's Tensor changes "
        "(PyNative rebinds the local only), and runs `x[i] = v` on a copy, so the caller's Tensor "
        "keeps its values (PyNative writes the caller's Tensor): the caller's later read "
        "differs either way."
    ),
    remedy="Work on a copy (`x = x * 1` first), or return the new value instead of reusing `t`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
AUGMENTED = "graph mode changes the caller's Tensor, PyNative does not"
ITEM = "PyNative changes the caller's Tensor, graph mode does not"


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    cells = _cell_constructs(module, tree)
    jits = {
        stmt.name: stmt
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(names.is_jit(module, d) for d in stmt.decorator_list)
    }
    if not cells and not jits:
        return
    callers: list[ast.AST] = [tree] + [
        s
        for s in tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name not in jits
    ]
    seen: set[tuple[int, int]] = set()
    for caller in callers:
        for call in _calls(caller):
            target = _target(call, caller, cells, jits)
            if target is None:
                continue
            params = [a.arg for a in (*target.args.posonlyargs, *target.args.args)]
            if params and params[0] == "self":
                params = params[1:]
            for arg, param in zip(call.args, params):
                if not isinstance(arg, ast.Name):
                    continue
                read = loads_after(caller, arg.id, call)
                if read is None:
                    continue
                for write, effect in _writes(target, param):
                    key = (write.lineno, write.col_offset)
                    if key in seen:
                        continue
                    seen.add(key)
                    yield INPUT_WRITTEN_IN_PLACE.finding(
                        write,
                        related=[
                            Related(module.path, node_range(call), f"`{arg.id}` passed here"),
                            Related(module.path, node_range(read), f"`{arg.id}` read here"),
                        ],
                        write=_text(write),
                        param=param,
                        effect=effect,
                        arg=arg.id,
                    )


def _cell_constructs(module: ModuleInfo, tree: ast.Module) -> dict[str, FunctionNode]:
    out: dict[str, FunctionNode] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and any(
            names.is_cell_qualname(module.qualname(b)) for b in stmt.bases
        ):
            for item in stmt.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    item.name == "construct"
                ):
                    out[stmt.name] = item
    return out


def _calls(caller: ast.AST) -> list[ast.Call]:
    """The calls of `caller`'s own code (not of functions or classes nested in a module)."""
    out: list[ast.Call] = []
    body = caller.body if isinstance(caller, (ast.Module, ast.FunctionDef)) else []
    for stmt in body:
        if isinstance(caller, ast.Module) and isinstance(
            stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            continue
        out += [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    return out


def _target(
    call: ast.Call,
    caller: ast.AST,
    cells: dict[str, FunctionNode],
    jits: dict[str, FunctionNode],
) -> Optional[FunctionNode]:
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in jits:
            return jits[func.id]
        bound = _bound_class(caller, func.id)
        return cells.get(bound) if bound else None
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name):
        return cells.get(func.func.id)
    return None


def _bound_class(caller: ast.AST, name: str) -> Optional[str]:
    """`name = Cls(...)`, the only binding of `name` in the caller's own code."""
    found = []
    for node in ast.walk(caller):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            found.append(node.value)
    if len(found) != 1:
        return None
    value = found[0]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id
    return None


def _writes(fn: FunctionNode, param: str) -> Iterator[tuple[ast.stmt, str]]:
    """`param += ...` and `param[...] = ...` while `param` still holds the input."""
    rebound = min(
        (
            (n.lineno, n.col_offset)
            for n in ast.walk(fn)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == param for t in n.targets)
        ),
        default=None,
    )
    for node in ast.walk(fn):
        if rebound is not None and node_position(node) > rebound:
            continue
        if isinstance(node, ast.AugAssign):
            target = node.target
            if isinstance(target, ast.Name) and target.id == param:
                yield node, AUGMENTED
        elif isinstance(node, ast.Assign) and any(_item_of(t, param) for t in node.targets):
            yield node, ITEM


def node_position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _item_of(target: ast.expr, param: str) -> bool:
    return (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == param
    )


def _text(node: ast.stmt) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
