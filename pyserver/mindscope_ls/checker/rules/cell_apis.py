"""Cell-level APIs and hooks in compiled code (round 37, `hk_`), measured on MindSpore 2.10, CPU.

MS3030: a sub-Cell with a forward hook called at two places of one compiled function (or in
a loop) runs its hooks once per call site on every call: `a = self.act(x); b = self.act(x)`
with `shift` adding 1 gave +2 on each (PyNative +1), `for _ in range(2): x = self.act(x)` +4
(PyNative +2), a printing hook printed 4 lines (PyNative 2), the same Cell held under two
attributes likewise. Run alike: the sub-Cell called once, from a helper method called twice,
a forward *pre*-hook, a hook on the top Cell.

MS3031: a CellList (or a plain list/tuple of Cells) indexed by a Python int known only when
the graph runs (`int(x[0])`, `x[0].item()`, `mutable(1)`): graph mode calls the first Cell
whatever the index (PyNative the Cell at the index): Cells of one class with other
attributes or Parameters (`Scale(1.0)`, `Scale(2.0)`), Cells of different classes, Dense
layers, a tuple attribute, all alike. `mutable(0)` and a Tensor index (a switch) agree. A
SequentialCell indexed so fails (MS1032).

MS1140: an attribute of a CellList, CellDict or a plain list/tuple of Cells in compiled code:
graph mode holds a CellList as a tuple of Cells and a CellDict as a dict, so `self.d.a(x)`
(PyNative: the Cell under "a"), `self.layers.cells()`, `self.layers.name_cells()`,
`self.d.cells()` and a plain list's `append`/`insert`/`pop` fail at every level ("'Tuple'
object has no attribute 'pop'", naming the attribute). A CellDict's dict methods (`keys()`,
`items()`, `clear()`, `update()`, ...) and a SequentialCell's named Cells (`self.seq.a`)
compile.

MS3032: the truth of an empty SequentialCell or CellDict: `if self.seq:` with `self.seq =
nn.SequentialCell()` is True in graph mode (PyNative: False, `SequentialCell.__bool__` is its
length), `if self.d:` with an empty CellDict False (PyNative: True, `Cell.__bool__`). An
empty CellList, `not self.seq` and `len(self.seq)` agree.

MS1141: `self.insert_child_to_cell("extra", cell)` in compiled code, then `self.extra` read:
LAX drops the call, so the read fails; MS335 (widened): with `hasattr(self, "extra")` or a
name the Cell already holds, LAX keeps the Cell as it was (PyNative adds/replaces it).

MS3033: a forward (pre-)hook registered on a Cell, or a hook's handle removed, after the Cell
was called, then the Cell called again with the same inputs: graph mode reuses the graph of
the first call (`net(x); net.act.register_forward_hook(shift); net(x)` gave the unhooked
result, `net.handle.remove()` kept the hook). Inputs of another shape recompile (agree).

MS1042 (widened): a lambda written inside `register_forward_hook(...)` /
`register_forward_pre_hook(...)` / `register_backward_hook(...)` on a Cell that compiled
code calls fails at every level ("Parse Lambda Function Fail ... defined on a separate
line"), naming the sub-Cell's call in `construct`; the lambda bound to a name on its own line
first compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import ModuleInfo
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import divergence_cell_modes, function_values
from .helpers import names, receivers
from .helpers.abstract import MUTABLE
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import Attr, ClassInfo
from .helpers.discovery import cell_hook_registrations
from .helpers.hook_places import gives_value

HOOKED_CELL_CALLED_TWICE = Rule(
    "MS3030",
    "hooked-cell-called-twice",
    Group.DIVERGES,
    title="A sub-Cell with a forward hook called more than once in one compiled function",
    message=(
        "`self.{name}` has a forward hook and is called {times} in this compiled function: "
        "graph mode runs the hooks once per call site on every call ({times} times here), "
        "PyNative once per call; call it once, or apply the hook's change in `construct`."
    ),
    why=(
        "Graph mode inlines a hooked Cell's forward hooks at each place it is called and "
        "applies every place's hooks to each call: a hook adding 1 added 2 to each of two "
        "calls, a printing hook printed twice as often."
    ),
    remedy=(
        "Call the hooked Cell once per compiled function (keep a second Cell for the other "
        "use), or do the hook's work in `construct`."
    ),
    mindspore_says="(no error: two calls of a Cell whose hook adds 1 gave +2 each)",
)

CELL_LIST_RUNTIME_INDEX = Rule(
    "MS3031",
    "cell-list-runtime-index",
    Group.DIVERGES,
    title="A CellList or list of Cells indexed by a number known only when the graph runs",
    message=(
        "`{item}` indexes `self.{name}` with {why}: graph mode calls the first Cell whatever "
        "the number (PyNative the Cell at the index); index with a constant or a `for` over "
        "`range(len(self.{name}))`."
    ),
    why=(
        "A Python int read from a Tensor (`int(t)`, `t.item()`) or made `mutable()` is a "
        "variable in the graph; graph mode's item of a tuple of Cells at such an index "
        "resolves to its first Cell."
    ),
    remedy=(
        "Index with a constant or a loop counter over `range(...)`, or select with a Tensor "
        "condition between the Cells' results."
    ),
    mindspore_says="(no error: `self.layers[int(x[0])]` called the first Cell for index 1)",
)

CELL_CONTAINER_ATTRIBUTE = Rule(
    "MS1140",
    "cell-container-attribute",
    Group.FAILS,
    title="An attribute of a CellList, CellDict or plain list of Cells in compiled code",
    message=(
        "`{expr}`: graph mode holds `self.{name}` ({kind}) as a {graph} of Cells, which has "
        "no attribute `{attr}` (fails at every level); {advice}."
    ),
    why=(
        "Graph mode converts a CellList and a list or tuple of Cells to a tuple of Cells and "
        "a CellDict to a dict: the Cell's own methods, its items by attribute name and list "
        "methods are not there."
    ),
    remedy=(
        "Index the container (`self.d['a']`), iterate it, or do the work in `__init__` "
        "(build the list of Cells there)."
    ),
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'pop'",
)

HOOK_CHANGED_AFTER_COMPILE = Rule(
    "MS3033",
    "hook-changed-after-compile",
    Group.DIVERGES,
    title="A forward hook added or removed after the Cell was called in graph mode",
    message=(
        "`{call}` changes the hooks of `{net}` after `{net}` was called: graph mode reuses the "
        "graph compiled at the first call (with the hooks it had then) for later calls with "
        "inputs of the same shapes, so this change takes no effect there; register hooks "
        "before the first call."
    ),
    why=(
        "A Cell's compiled graph is cached by its inputs' shapes and types; adding or "
        "removing a hook does not invalidate it, while PyNative runs the hooks of the moment."
    ),
    remedy=(
        "Register (and remove) hooks before the Cell's first call, or build a new Cell "
        "instance for the hooked runs."
    ),
    mindspore_says="(no error: a hook registered after the first call was not run)",
)

INSERTED_CHILD_READ = Rule(
    "MS1141",
    "inserted-child-read",
    Group.FAILS,
    title="A sub-Cell added by `insert_child_to_cell` in compiled code, then read (LAX)",
    message=(
        "`{read}` reads the sub-Cell `{call}` adds in compiled code: LAX drops the call, so "
        "the Cell has no attribute `{name}` and compiling fails (STRICT refuses the call: "
        "MS130); add the sub-Cell in `__init__`."
    ),
    why=(
        "A Cell's sub-Cells are fixed when the graph is compiled; LAX compiles "
        "`insert_child_to_cell` to nothing, so the name it would add is not found."
    ),
    remedy=(
        "Call `self.insert_child_to_cell(name, cell)` in `__init__` (or assign `self.<name>` "
        "there) and only call the sub-Cell in `construct`."
    ),
    mindspore_says="AttributeError: ... object has no attribute 'extra'",
)

EMPTY_CELL_CONTAINER_TRUTH = Rule(
    "MS3032",
    "empty-cell-container-truth",
    Group.DIVERGES,
    title="The truth of an empty SequentialCell or CellDict in compiled code",
    message=(
        "`self.{name}` is an empty {kind}: graph mode takes its truth as {graph}, PyNative as "
        "{pynative}; test a flag set in `__init__` (`self.use_{name} = False`) or "
        "`len(self.{name}) > 0`."
    ),
    why=(
        "PyNative asks the Cell: a SequentialCell is false when empty, a CellDict always "
        "true; graph mode takes a SequentialCell as a (true) object and a CellDict as a dict "
        "(false when empty)."
    ),
    remedy="Test `len(self.seq) > 0` or a bool attribute set in `__init__`.",
    mindspore_says="(no error: `if self.seq:` ran its branch for an empty SequentialCell)",
)

_FORWARD = "register_forward_hook"
_CELL_LIST = "mindspore.nn.CellList"
_CELL_DICT = "mindspore.nn.CellDict"
_SEQUENTIAL = "mindspore.nn.SequentialCell"
# reported by MS186 (CellList growth, CellDict pop) and MS130 (Cell methods refused)
_OTHER_RULES = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "trainable_params",
        "untrainable_params",
        "get_parameters",
        "parameters_dict",
        "cells_and_names",
        "parameters_and_names",
    }
)
# a CellDict is a dict in the graph: its methods compile (measured: `clear()`, `update()`)
_EMPTIED = frozenset({_SEQUENTIAL, _CELL_DICT})
_DICT_METHODS = frozenset(
    {"keys", "values", "items", "clear", "update", "get", "copy", "setdefault", "popitem"}
)
_LIST_CHANGES = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort"}
)


def check_hooked_calls(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS3030 and MS1042 (a lambda hook): reads the module's hook registrations."""
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or not ctx.fn.module.mentions("_hook("):
        return
    registrations = cell_hook_registrations(ctx.fn.module, cls.node)
    if not registrations:
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    by_attr: dict[str, list[ast.Call]] = {}
    for call in calls:
        name = names.self_attribute(call.func)
        if name is not None:
            by_attr.setdefault(_aliased(cls, name), []).append(call)
    lambdas_done: set[str] = set()
    twice_done: set[str] = set()
    for chain, hook, call in registrations:
        if len(chain) < 2:
            if isinstance(hook, ast.Lambda) and ctx.fn.node.name == "construct":
                # MindSpore names no line of the program (its own `cell.py`): the call
                yield function_values.LAMBDA_NOT_ALONE.finding(
                    call,
                    target="the Cell's hook",
                    container="`register_*_hook(...)` call",
                    line=hook.lineno,
                )
            continue
        attr = chain[1]
        sites = by_attr.get(attr, [])
        if not sites:
            continue
        first = min(sites, key=lambda c: (c.lineno, c.col_offset))
        if isinstance(hook, ast.Lambda):
            if ctx.fn.node.name == "construct" and attr not in lambdas_done:
                lambdas_done.add(attr)
                yield function_values.LAMBDA_NOT_ALONE.finding(
                    first,
                    target=f"self.{attr}'s hook",
                    container="`register_*_hook(...)` call",
                    line=hook.lineno,
                )
            continue
        if len(chain) != 2 or attr in twice_done:
            continue
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == _FORWARD):
            continue
        if not _hook_has_effect(ctx, cls, hook):
            continue
        looped = [c for c in sites if _in_loop(ctx.fn.node, c)]
        if len(sites) >= 2:
            at = sorted(sites, key=lambda c: (c.lineno, c.col_offset))[1]
            times = f"at {len(sites)} places"
        elif looped:
            at, times = looped[0], "in a loop"
        else:
            continue
        twice_done.add(attr)
        yield HOOKED_CELL_CALLED_TWICE.finding(at, name=attr, times=times)


def _aliased(cls: ClassInfo, name: str) -> str:
    """`a1` for `self.a2` when `__init__` set `self.a2 = self.a1`."""
    held = cls.attr(name)
    if held is not None and isinstance(held.node, ast.Attribute):
        other = names.self_attribute(held.node)
        if other is not None and other != name:
            return other
    return name


def _hook_has_effect(ctx: FunctionContext, cls: ClassInfo, hook: ast.expr) -> bool:
    """The hook (a module function or a method) returns a value or prints."""
    fn: Optional[ast.AST] = None
    if isinstance(hook, ast.Name):
        fn = ctx.fn.module.functions.get(hook.id)
    else:
        method = names.self_attribute(hook)
        found = cls.find_method(method) if method is not None else None
        fn = found[1] if found is not None else None
    if fn is None:
        return False
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Return)
            and node.value is not None
            and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        ):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "print"
        ):
            return True
    return False


def _in_loop(fn: ast.AST, node: ast.AST) -> bool:
    for loop in ast.walk(fn):
        if isinstance(loop, (ast.For, ast.While)) and _iterates(loop):
            for stmt in loop.body:
                if any(n is node for n in ast.walk(stmt)):
                    return True
    return False


def _iterates(loop: ast.For | ast.While) -> bool:
    """Not a `for` over `range(1)` / a one-item display."""
    if isinstance(loop, ast.While):
        return True
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple)):
        return len(it.elts) > 1
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and len(it.args) == 1
        and isinstance(it.args[0], ast.Constant)
    ):
        return isinstance(it.args[0].value, int) and it.args[0].value > 1
    return True


@cacheable
def check_runtime_index(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS3031."""
    cls = ctx.fn.cls
    if cls is None:
        return
    for item in ctx.of(ast.Subscript):
        if not isinstance(item.ctx, ast.Load) or isinstance(item.slice, ast.Slice):
            continue
        name = names.self_attribute(item.value)
        if name is None:
            continue
        held = cls.attr(name)
        if held is None or _cells_kind(ctx, held) not in ("CellList", "a list", "a tuple"):
            continue
        if ctx.types.is_tensor(item.slice) or _tensor_built(ctx, item.slice):
            continue  # a Tensor index picks the Cell (a switch)
        why = runtime_int(ctx, item.slice)
        if why is not None:
            yield CELL_LIST_RUNTIME_INDEX.finding(item, item=ast.unparse(item), name=name, why=why)


def _tensor_built(ctx: FunctionContext, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _tensor_built(ctx, bound)
    return isinstance(expr, ast.Call) and names.callee(ctx.fn.module, expr.func) in (
        "mindspore.Tensor",
        "mindspore.common.tensor.Tensor",
    )


def runtime_int(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """What makes `expr` a Python int known only when the graph runs, or None."""
    if receivers.runtime_scalar(ctx, expr):
        return "a number read from a Tensor"
    if mutable_int(ctx, expr, nonzero=True):
        return "a `mutable()` int"
    return None


def mutable_int(
    ctx: FunctionContext, expr: ast.expr, depth: int = 0, nonzero: bool = False
) -> bool:
    """`mutable(1)`, or a local bound once to it (an int constant made a graph variable);
    `nonzero`: not `mutable(0)` (whose first item is the one indexed)."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and mutable_int(ctx, bound, depth + 1, nonzero)
    if not (
        isinstance(expr, ast.Call)
        and names.callee(ctx.fn.module, expr.func) in MUTABLE
        and len(expr.args) == 1
        and not expr.keywords
    ):
        return False
    value = _int_constant(expr.args[0])
    return value is not None and (value != 0 or not nonzero)


def _int_constant(expr: ast.expr) -> Optional[int]:
    sign = 1
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr, sign = expr.operand, -1
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return sign * expr.value
    return None


def _cells_kind(ctx: FunctionContext, held: Attr) -> Optional[str]:
    """ "CellList", "CellDict", "SequentialCell", or "a list" / "a tuple" of Cells written out
    in `__init__`; None otherwise."""
    if held.kind == "cell":
        if held.class_qualname in (_CELL_LIST, _CELL_DICT, _SEQUENTIAL):
            return held.class_qualname.rsplit(".", 1)[-1]
        return None
    node = held.node
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        for elt in node.elts:
            if not isinstance(elt, ast.Call):
                return None
            qualname = names.callee(ctx.fn.module, elt.func)
            if not names.is_cell_qualname(qualname):
                info = ctx.classes.resolve(qualname) if qualname else None
                if info is None or not info.is_cell:
                    return None
        return "a list" if isinstance(node, ast.List) else "a tuple"
    return None


@cacheable
def check_container_attributes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1140."""
    cls = ctx.fn.cls
    if cls is None:
        return
    for node in ctx.of(ast.Attribute):
        if not isinstance(node.ctx, ast.Load):
            continue
        name = names.self_attribute(node.value)
        if name is None:
            continue
        held = cls.attr(name)
        kind = _cells_kind(ctx, held) if held is not None else None
        if kind is None or kind == "SequentialCell":
            continue
        attr = node.attr
        if attr.startswith("__"):
            continue
        if kind == "CellList":
            if attr in _OTHER_RULES or attr in ("index", "count"):
                continue
            graph, advice = "tuple", "index or iterate the CellList instead"
        elif kind == "CellDict":
            if attr in _DICT_METHODS or attr in _OTHER_RULES:
                continue
            graph, advice = "dict", f"use `self.{name}['{attr}']`, `keys()`, `values()`, `items()`"
        else:
            if attr not in _LIST_CHANGES:
                continue
            graph, advice = "tuple", "build the list of Cells in `__init__`"
        yield CELL_CONTAINER_ATTRIBUTE.finding(
            node,
            expr=ast.unparse(node),
            name=name,
            kind=kind,
            graph=graph,
            attr=attr,
            advice=advice,
        )


def check_empty_truth(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS3032. Not cacheable: it reads the class's other methods (what adds to the Cell)."""
    cls = ctx.fn.cls
    if cls is None:
        return
    nodes: list[ast.If | ast.IfExp | ast.While] = ctx.of(ast.If, ast.IfExp, ast.While)
    for test in (node.test for node in nodes):
        operands = test.values if isinstance(test, ast.BoolOp) else [test]
        for operand in operands:
            name = names.self_attribute(operand)
            held = cls.attr(name) if name is not None else None
            if held is None or held.kind != "cell" or held.class_qualname not in _EMPTIED:
                continue  # the cheap test first: most tests read flags
            assert name is not None
            kind = _empty_container(cls, name)
            if kind is None:
                continue
            graph, pynative = ("True", "False") if kind == "SequentialCell" else ("False", "True")
            yield EMPTY_CELL_CONTAINER_TRUTH.finding(
                operand, name=name, kind=kind, graph=graph, pynative=pynative
            )


def _empty_container(cls: ClassInfo, name: str) -> Optional[str]:
    """ "SequentialCell" / "CellDict" when every assignment of `self.<name>` in the class's
    `__init__` builds an empty one (`nn.SequentialCell()`, `nn.CellDict({})`) and nothing in
    the class adds to it."""
    init = cls.own_method("__init__")
    if init is None:
        return None
    kind: Optional[str] = None
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if names.self_attribute(target) == name:
                    built = _empty_built(cls, node.value)
                    if built is None or (kind is not None and built != kind):
                        return None
                    kind = built
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            if names.self_attribute(node.value) == name:
                return None
        elif isinstance(node, ast.Attribute) and names.self_attribute(node.value) == name:
            if node.attr in ("append", "extend", "insert", "update", "insert_child_to_cell"):
                return None
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            if names.self_attribute(node.target) == name:
                return None
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
        ):
            return None
    return kind


def _empty_built(cls: ClassInfo, value: ast.expr) -> Optional[str]:
    if not isinstance(value, ast.Call) or value.keywords:
        return None
    qualname = names.callee(cls.module, value.func)
    if qualname not in (_SEQUENTIAL, _CELL_DICT):
        return None
    if len(value.args) > 1:
        return None
    if value.args:
        arg = value.args[0]
        if (isinstance(arg, (ast.List, ast.Tuple)) and not arg.elts) or (
            isinstance(arg, ast.Dict) and not arg.keys
        ):
            pass
        else:
            return None
    return qualname.rsplit(".", 1)[-1]


def check_inserted_children(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1141 and MS335 (widened): `self.insert_child_to_cell("name", cell)` in compiled code
    at LAX. Measured on 2.10: LAX drops the call; `self.extra(x)` or `getattr(self,
    "extra")(x)` after it fails ("object has no attribute 'extra'", naming the read),
    `hasattr(self, "extra")` is False and a name the Cell already holds keeps its old Cell
    (PyNative: the new one). STRICT refuses the call (MS130)."""
    cls = ctx.fn.cls
    if cls is None or ctx.level == SyntaxLevel.STRICT:
        return
    if not ctx.fn.module.mentions("insert_child_to_cell"):
        return
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "insert_child_to_cell"
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            continue
        if cls.find_method("insert_child_to_cell") is not None and not _nn_method(cls):
            continue
        name = call.args[0].value
        held = cls.attr(name) is not None
        tested = _tested(ctx, name)  # a read under `hasattr` is never compiled
        read = None if held or tested else _read_after(ctx, call, name)
        if read is not None:
            yield INSERTED_CHILD_READ.finding(
                read, read=ast.unparse(read), call=ast.unparse(call), name=name
            )
        elif held or tested:
            yield divergence_cell_modes.SET_TRAIN_DROPPED.finding(
                call,
                call=ast.unparse(call),
                cell="self",
                what=f"its sub-Cells (`self.{name}` is not {'replaced' if held else 'added'})",
                method="insert_child_to_cell",
            )


def _nn_method(cls: ClassInfo) -> bool:
    """`insert_child_to_cell` is nn.Cell's (no class of the workspace defines it)."""
    return all(info.own_method("insert_child_to_cell") is None for info in cls.lineage())


def _read_after(ctx: FunctionContext, call: ast.Call, name: str) -> Optional[ast.expr]:
    """The first `self.<name>` read or `getattr(self, "<name>")` after `call`."""
    after = (call.lineno, call.col_offset)
    found: list[ast.expr] = []
    for node in ctx.of(ast.Attribute):
        if (
            isinstance(node.ctx, ast.Load)
            and names.self_attribute(node) == name
            and (node.lineno, node.col_offset) > after
        ):
            found.append(node)
    for other in ctx.of(ast.Call):
        if (
            isinstance(other.func, ast.Name)
            and other.func.id == "getattr"
            and len(other.args) == 2
            and isinstance(other.args[0], ast.Name)
            and other.args[0].id == "self"
            and isinstance(other.args[1], ast.Constant)
            and other.args[1].value == name
            and (other.lineno, other.col_offset) > after
        ):
            found.append(other)
    return min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None


def _tested(ctx: FunctionContext, name: str) -> bool:
    """`hasattr(self, "<name>")` in the function."""
    return any(
        isinstance(c.func, ast.Name)
        and c.func.id == "hasattr"
        and len(c.args) == 2
        and isinstance(c.args[1], ast.Constant)
        and c.args[1].value == name
        for c in ctx.of(ast.Call)
    )


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    """MS3033, over the module's own functions (and its top level)."""
    tree = module.tree
    if tree is None or not (module.mentions("_hook(") and module.mentions("Cell")):
        return
    lines = module.source.split("\n")

    def changes_hooks(node: ast.stmt) -> bool:  # the cheap test first: the text
        text = "\n".join(lines[node.lineno - 1 : node.end_lineno or node.lineno])
        return "_hook(" in text or ".remove(" in text

    top = [
        s
        for s in tree.body
        if not isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    bodies: list[list[ast.stmt]] = [top] if any(changes_hooks(s) for s in top) else []
    bodies += [f.body for f in tree.body if isinstance(f, ast.FunctionDef) and changes_hooks(f)]
    for body in bodies:
        yield from _changed_after_call(module, body)


_HANDLE_REGISTRATIONS = frozenset({"register_forward_hook", "register_forward_pre_hook"})


def _changed_after_call(module: ModuleInfo, body: list[ast.stmt]) -> Iterator[RawFinding]:
    nets: dict[str, ast.ClassDef] = {}
    handles: dict[str, str] = {}  # a local holding a hook's handle -> the net
    called: dict[str, set[str]] = {}  # net -> the argument lists it was called with
    changed: dict[str, list[ast.Call]] = {}  # net -> changes after a call, not yet reported
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name)
            and stmt.value.func.id in module.classes
        ):
            nets[stmt.targets[0].id] = module.classes[stmt.value.func.id]
            called.pop(stmt.targets[0].id, None)
            changed.pop(stmt.targets[0].id, None)
            continue
        calls = sorted(
            (n for n in ast.walk(stmt) if isinstance(n, ast.Call)),
            key=lambda c: (c.lineno, c.col_offset),
        )
        for call in calls:
            func = call.func
            if isinstance(func, ast.Name) and func.id in nets:
                args = ast.unparse(ast.Tuple(elts=list(call.args), ctx=ast.Load()))
                seen = called.setdefault(func.id, set())
                if args in seen:
                    for change in changed.pop(func.id, []):
                        yield HOOK_CHANGED_AFTER_COMPILE.finding(
                            change, call=ast.unparse(change), net=func.id
                        )
                seen.add(args)
                continue
            if not isinstance(func, ast.Attribute):
                continue
            net = _hook_change(module, func, call, nets, handles)
            if net is not None and called.get(net):
                changed.setdefault(net, []).append(call)
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr in _HANDLE_REGISTRATIONS
        ):
            owner = _chain_root(stmt.value.func.value)
            if owner in nets:
                handles[stmt.targets[0].id] = owner


def _hook_change(
    module: ModuleInfo,
    func: ast.Attribute,
    call: ast.Call,
    nets: dict[str, ast.ClassDef],
    handles: dict[str, str],
) -> Optional[str]:
    """The net whose hooks `call` changes: `net[.a...].register_forward_hook(hook)` with a
    hook that returns a value, `h.remove()` of such a registration's handle, or
    `net.<attr>.remove()` of a handle the class's `__init__` keeps."""
    if func.attr in _HANDLE_REGISTRATIONS:
        root = _chain_root(func.value)
        if root in nets and call.args and _returns_value(module, call.args[0]):
            return root
        return None
    if func.attr != "remove" or call.args:
        return None
    target = func.value
    if isinstance(target, ast.Name):
        return handles.get(target.id)
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in nets
        and _kept_handle(nets[target.value.id], target.attr)
    ):
        return target.value.id
    return None


def _chain_root(expr: ast.expr) -> Optional[str]:
    """`net` for `net`, `net.a.b` (not through an item)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _returns_value(module: ModuleInfo, hook: ast.expr) -> bool:
    if isinstance(hook, ast.Lambda):
        return not (isinstance(hook.body, ast.Constant) and hook.body.value is None)
    fn = module.functions.get(hook.id) if isinstance(hook, ast.Name) else None
    if fn is None:
        return False
    return gives_value(fn)


def _kept_handle(cls: ast.ClassDef, attr: str) -> bool:
    """`__init__` sets `self.<attr> = self....register_forward_hook(...)`."""
    for method in cls.body:
        if isinstance(method, ast.FunctionDef) and method.name == "__init__":
            for node in ast.walk(method):
                if (
                    isinstance(node, ast.Assign)
                    and any(names.self_attribute(t) == attr for t in node.targets)
                    and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Attribute)
                    and node.value.func.attr in _HANDLE_REGISTRATIONS
                ):
                    return True
    return False
