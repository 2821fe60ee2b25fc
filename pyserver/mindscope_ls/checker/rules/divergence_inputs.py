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

A list or dict input changed by a method behaves like the item write: `l.append(v)`,
`l.clear()` and `d.update({...})` on an input of a `@jit` function or of `construct` change the
caller's object in PyNative and leave it unchanged in GRAPH_MODE, at LAX and STRICT (measured:
`len(l)` read after the call was 2 in PyNative, 1 in graph mode; `l.clear()` 0 against 2).

The same through one helper that `construct` passes the input to as it is: `clear_first(x)`
with `def clear_first(v): v[0] = 0.0` (a module function, or a method `self.clear_first(x)`,
also when the helper returns `v` and `construct` uses the result) left `t` at its values in
graph mode, PyNative wrote it; `def bump(v): v += 1.0` changed `t` in graph mode only
(measured, LAX and STRICT). A helper that rebinds its parameter first (`v = v * 1`) agrees.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..incremental.memo import NodeMemo
from ..index.module import ModuleInfo
from ..model import Group, RawFinding, Related
from ..rule import Rule, node_range
from .helpers import names
from .helpers.flow import loads_after
from .helpers.walk import of_type

INPUT_WRITTEN_IN_PLACE = Rule(
    "MS316",
    "input-written-in-place",
    Group.DIVERGES,
    title="Compiled code writes its input (a Tensor, list or dict), and the caller reads it after",
    message=(
        "`{write}` writes the input `{param}`: {effect}, so `{arg}` read after the call differs; "
        "copy the input first (`{param} = {copy}`) or do not reuse `{arg}`."
    ),
    why=(
        "Graph mode runs `x += v` on an input in place, so the caller's Tensor changes "
        "(PyNative rebinds the local only), and runs `x[i] = v` on a copy, so the caller's Tensor "
        "keeps its values (PyNative writes the caller's Tensor): the caller's later read "
        "differs either way. `l.append(v)`, `l.clear()` and `d.update(...)` on a list or dict "
        "input change only PyNative's caller object too."
    ),
    remedy="Work on a copy (`x = x * 1` first), or return the new value instead of reusing `t`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
AUGMENTED = "graph mode changes the caller's Tensor, PyNative does not"
ITEM = "PyNative changes the caller's Tensor, graph mode does not"
CHANGED = "PyNative changes the caller's {kind}, graph mode does not"
# Methods that change a list / dict input in place (and that a Tensor does not have).
CHANGING = {"append": "list", "clear": "list", "update": "dict"}
COPIES = {"list": "list({param})", "dict": "dict({param})"}


def entry_points(
    module: ModuleInfo, tree: ast.Module
) -> Optional[tuple[dict[str, FunctionNode], dict[str, FunctionNode], list[ast.AST]]]:
    """The module's Cells (their `construct`s), its `@jit` functions, and the code that may
    call them without being compiled itself (the top level and the other module functions);
    None when there is nothing compiled to call."""
    cells = _cell_constructs(module, tree)
    jits = {
        stmt.name: stmt
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(names.is_jit(module, d) for d in stmt.decorator_list)
    }
    if not cells and not jits:
        return None
    callers: list[ast.AST] = [tree] + [
        s
        for s in tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name not in jits
    ]
    return cells, jits, callers


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    found = entry_points(module, tree)
    if found is None:
        return
    cells, jits, callers = found
    seen: set[tuple[int, int]] = set()
    helpers = _Helpers(tree)
    writes: dict[int, dict[str, list[tuple[ast.stmt, str]]]] = {}  # per compiled function
    for caller in callers:
        calls = _calls(caller)
        if not any(_may_target(call, cells, jits) for call in calls):
            continue  # most functions call no compiled code: no walk for their bindings
        bound = _bound_classes(caller)
        for call in calls:
            target = _target(call, bound, cells, jits)
            if target is None:
                continue
            params = [a.arg for a in (*target.args.posonlyargs, *target.args.args)]
            if params and params[0] == "self":
                params = params[1:]
            if id(target) not in writes:
                writes[id(target)] = _input_writes(target, params)
                _helper_writes(helpers, target, params, writes[id(target)])
            for arg, param in zip(call.args, params):
                written = writes[id(target)].get(param)
                if not written or not isinstance(arg, ast.Name):
                    continue  # the common case: construct writes no input, no flow walk
                read = loads_after(caller, arg.id, call)
                if read is None:
                    continue
                for write, effect in written:
                    if effect == ITEM and _holds_dict(caller, arg.id):
                        continue  # `d[k] = v` on a dict input: LAX writes the caller's dict too
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
                        write=names.short(write),
                        param=param,
                        effect=effect,
                        arg=arg.id,
                        copy=_copy(write, param),
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
        out += of_type(stmt, ast.Call)
    return out


def _may_target(
    call: ast.Call, cells: dict[str, FunctionNode], jits: dict[str, FunctionNode]
) -> bool:
    """A cheap first look: `jit_fn(...)`, `Net()(...)` or `name(...)` (maybe `name = Net()`)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in jits or bool(cells)
    return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id in cells


def _target(
    call: ast.Call,
    bound: dict[str, Optional[str]],
    cells: dict[str, FunctionNode],
    jits: dict[str, FunctionNode],
) -> Optional[FunctionNode]:
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in jits:
            return jits[func.id]
        cls = bound.get(func.id)
        return cells.get(cls) if cls else None
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name):
        return cells.get(func.func.id)
    return None


def _holds_dict(caller: ast.AST, name: str) -> bool:
    """Every binding of `name` in the caller is a dict (`d = {"a": t}`, `dict(a=t)`).
    Measured (round 35): `d["b"] = x` in `construct` on `net(x, d)` changed the caller's dict
    at LAX as in PyNative (only STRICT left it unchanged)."""
    values = [
        node.value
        for node in of_type(caller, ast.Assign)
        if any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]
    return bool(values) and all(
        isinstance(v, (ast.Dict, ast.DictComp))
        or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "dict")
        for v in values
    )


def _bound_classes(caller: ast.AST) -> dict[str, Optional[str]]:
    """Each name the caller's own code assigns once to `Cls(...)`: the class's name (None for
    a name assigned more than once, or to anything else). One walk per caller."""
    found: dict[str, list[ast.expr]] = {}
    for node in of_type(caller, ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Name):
                found.setdefault(t.id, []).append(node.value)
    out: dict[str, Optional[str]] = {}
    for name, values in found.items():
        value = values[0] if len(values) == 1 else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            out[name] = value.func.id
        else:
            out[name] = None
    return out


Writes = dict[str, list[tuple[ast.stmt, str]]]
# Kept on the function's node: a keystroke elsewhere re-checks the module, not this function.
_WRITES: NodeMemo[Writes] = NodeMemo()


def _input_writes(fn: FunctionNode, params: list[str]) -> Writes:
    """A copy of `_walk_input_writes` (callers add a helper's writes to it)."""
    kept = _WRITES.get(fn, tuple(params), lambda: _walk_input_writes(fn, params))
    return {param: list(found) for param, found in kept.items()}


def _walk_input_writes(fn: FunctionNode, params: list[str]) -> Writes:
    """Per parameter, `param += ...` and `param[...] = ...` while `param` still holds the input
    (before its first plain assignment). One walk of the function for all of them."""
    rebound: dict[str, tuple[int, int]] = {}
    found: list[tuple[str, ast.stmt, str]] = []
    for node in of_type(fn, ast.AugAssign, ast.Assign, ast.Expr):
        if isinstance(node, ast.Expr):
            changed = _changed_by_method(node, params)
            if changed is not None:
                found.append((changed[0], node, CHANGED.format(kind=changed[1])))
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name) and node.target.id in params:
                found.append((node.target.id, node, AUGMENTED))
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id in params:
                    here = node_position(node)
                    rebound[t.id] = min(rebound.get(t.id, here), here)
                elif (item := _item_of(t, params)) is not None:
                    found.append((item, node, ITEM))
    out: dict[str, list[tuple[ast.stmt, str]]] = {}
    for param, node, effect in found:
        if param in rebound and node_position(node) > rebound[param]:
            continue
        out.setdefault(param, []).append((node, effect))
    return out


class _Helpers:
    """The module's functions and each method's class, read once per check (a module has one
    `construct` per Cell, and each asks)."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self._functions: Optional[dict[str, FunctionNode]] = None
        self._owners: Optional[dict[int, ast.ClassDef]] = None

    @property
    def functions(self) -> dict[str, FunctionNode]:
        if self._functions is None:
            self._functions = {
                s.name: s
                for s in self.tree.body
                if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        return self._functions

    def owner(self, fn: FunctionNode) -> Optional[ast.ClassDef]:
        if self._owners is None:
            self._owners = {
                id(item): c
                for c in self.tree.body
                if isinstance(c, ast.ClassDef)
                for item in c.body
            }
        return self._owners.get(id(fn))


def _helper_writes(
    helpers: _Helpers,
    fn: FunctionNode,
    params: list[str],
    found: dict[str, list[tuple[ast.stmt, str]]],
) -> None:
    """Adds to `found` the writes a helper makes to an input `fn` passes it as it is:
    `helper(x)` (a module function) or `self.helper(x)` (a method of `fn`'s class) whose body
    runs `v[...] = ...` or `v += ...` on its parameter before rebinding it (measured: the
    caller's Tensor changed in PyNative only, or in graph mode only, as in `fn` itself)."""
    calls = [
        c
        for c in of_type(fn, ast.Call)
        if any(isinstance(a, ast.Name) and a.id in params for a in c.args)
    ]
    if not calls:
        return
    functions = helpers.functions
    owner = helpers.owner(fn)
    rebound = {
        n.id: node_position(n)
        for n in of_type(fn, ast.Name)
        if n.id in params and isinstance(n.ctx, ast.Store)
    }
    for call in calls:
        helper: Optional[FunctionNode] = None
        skip = 0
        if isinstance(call.func, ast.Name):
            helper = functions.get(call.func.id)
        elif owner is not None and (name := names.self_attribute(call.func)) is not None:
            helper = next(
                (
                    i
                    for i in owner.body
                    if isinstance(i, (ast.FunctionDef, ast.AsyncFunctionDef)) and i.name == name
                ),
                None,
            )
            skip = 1
        if helper is None or helper is fn:
            continue
        inner = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)][skip:]
        for arg, param in zip(call.args, inner):
            if not isinstance(arg, ast.Name) or arg.id not in params:
                continue
            if arg.id in rebound and rebound[arg.id] < node_position(call):
                continue  # `x` no longer holds the input
            for write, effect in _input_writes(helper, [param]).get(param, []):
                if effect in (ITEM, AUGMENTED):
                    found.setdefault(arg.id, []).append((write, effect))


def _changed_by_method(node: ast.Expr, params: list[str]) -> Optional[tuple[str, str]]:
    """(parameter, "list"/"dict") of a statement `param.append(v)` / `.clear()` / `.update(d)`."""
    call = node.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    owner = call.func.value
    kind = CHANGING.get(call.func.attr)
    if kind is None or not isinstance(owner, ast.Name) or owner.id not in params:
        return None
    return owner.id, kind


def _copy(write: ast.stmt, param: str) -> str:
    """How to copy the input the write changes: `list(l)` / `dict(d)`, or `x * 1` for a Tensor."""
    if isinstance(write, ast.Expr):
        changed = _changed_by_method(write, [param])
        if changed is not None:
            return COPIES[changed[1]].format(param=param)
    return f"{param} * 1"


def node_position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _item_of(target: ast.expr, params: list[str]) -> Optional[str]:
    """The parameter `target` writes an item of (`x[i] = ...`), if any."""
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        return target.value.id if target.value.id in params else None
    return None
