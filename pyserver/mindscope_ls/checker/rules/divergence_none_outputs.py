"""MS263, MS264, MS378: None in the tuple or list a Cell's `construct` returns, under STRICT.

Measured with MindSpore 2.10 on CPU (round 33, `dv_`), each against PyNative: under STRICT a
Cell's graph output that holds a Tensor drops the None items it holds. A None after which the
output holds no more Tensor is dropped silently: `return x, None` gave `(x,)`, `x, None, 3`
gave `(x, 3)`, `x, None, None` gave `(x,)`, `[x, None]` gave `[x]`, `(x, (x, None))` gave
`(x, (x,))`, also through a local (`mask = None; return out, mask`; `out = (x, None); return
out`; `mask = None; if self.use_mask: mask = x > 0` with `self.use_mask = False`), or a
`self.aux` set only to None (MS378; quiet when every caller reads only items before the None,
`out[0]`). A None followed by a Tensor (`return None, x`, `x, None, x + 1`, `(x, None), x`,
`[None, x]`, `self.aux, x`) is dropped the same way, and the Tensor's slot then holds no data:
`len(out)` is 1, `out[0] is None` False, and printing the output fails with "The tensor data
item size should be greater than 0" (the call itself does not fail; MS378). When the caller
unpacks the output into as many names as `construct` returns (`out, aux = net(x)` of `return
y, None`), the dropped None makes that fail: "not enough values to unpack (expected 2, got 1)"
(MS264, at the unpacking); so does reading an item past the shortened output (`out[1]` of
`return None, y`: "tuple index out of range"). A call whose result is not used agrees. LAX keeps
every None, like PyNative, and so does an `@ms.jit` function at either level; an output
without a Tensor (`None, 1`, `None, None`, `1, None`) and `return None` are kept at STRICT
too, and so is a None in a nested tuple without a Tensor (`return x, (1, None)`,
`(1, None), x`). Not modelled: a method returning `x + 1, None` returned by `construct`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import folded, module_values, names, shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, within
from .helpers.flow import SCOPES

UNPACKED_OUTPUT_SHORT_STRICT = Rule(
    "MS264",
    "strict-unpacked-output-none-dropped",
    Group.STRICT,
    title="A Cell's output unpacked into as many names as `construct` returns, None included",
    message=(
        "Under STRICT `{shown}` comes back from the graph without its None, so unpacking it "
        "into {count} names fails (not enough values); leave the None out of the output or "
        "use LAX."
    ),
    why=(
        "STRICT drops the None items of a Cell's output that holds Tensors, so the caller gets "
        "fewer items than `construct` returns and `a, b = net(x)` raises."
    ),
    remedy="Return only the Tensors from `construct` and let the caller supply the None.",
    mindspore_says="ValueError: not enough values to unpack (expected 2, got 1)",
)

INDEX_PAST_OUTPUT_STRICT = Rule(
    "MS263",
    "strict-output-index-past-dropped-none",
    Group.STRICT,
    title="An item read past a Cell's output that STRICT shortens by its None",
    message=(
        "Under STRICT `{shown}` comes back from the graph without its None ({kept} items), so "
        "this index is out of range; leave the None out of the output or use LAX."
    ),
    why=(
        "STRICT drops the None items of a Cell's output that holds Tensors, so an index that "
        "reached the last item in PyNative is past the end in graph mode."
    ),
    remedy="Return only the Tensors from `construct` and index what is returned.",
    mindspore_says="IndexError: tuple index out of range",
)

TRAILING_NONE_DROPPED_STRICT = Rule(
    "MS378",
    "strict-output-none-dropped",
    Group.DIVERGES,
    title="STRICT drops a None from what a Cell's `construct` returns",
    message=(
        "Under STRICT the None in what `construct` returns is dropped from the graph's output "
        "(`{shown}` comes back without it{after}; PyNative and LAX keep it), so the caller "
        "gets fewer items."
    ),
    why=(
        "STRICT hands a Cell's output holding Tensors back without its None items: `return x, "
        "None` gave (x,) in GRAPH_MODE where PyNative returned (x, None)."
    ),
    remedy="Leave the None out of the output (or use LAX) and let the caller supply it.",
    mindspore_says="(compiles; result differs from PyNative)",
)

Leaf = str  # "none", "tensor", "other", "unknown"


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether a construct is the graph's entry depends on its callers.
    cls = ctx.fn.cls
    if ctx.level != SyntaxLevel.STRICT or cls is None or not cls.is_cell:
        return
    if ctx.fn.caller is not None or ctx.fn.node.name != "construct" or ctx.fn.level is not None:
        return
    returns = [r for r in _own_returns(ctx) if isinstance(r.value, (ast.Tuple, ast.List, ast.Name))]
    if not returns:
        return
    values = shared_values.abstract(ctx, module=True)
    held = folded.guards(ctx)
    for ret in returns:
        assert ret.value is not None
        if id(ret) in held and not folded.taken(ctx, held[id(ret)]):
            continue  # under an `if` on a Cell attribute graph mode folds away
        leaves: list[Leaf] = []
        _flatten(ctx, values, ret.value, leaves)
        if "none" not in leaves or "tensor" not in leaves:
            continue
        shown = ast.unparse(ret.value)
        count, dropped = _top_count(ctx, values, ret.value)
        unpacked = _unpacked_calls(ctx, cls.name, count) if count and dropped else []
        for assign in unpacked:
            yield UNPACKED_OUTPUT_SHORT_STRICT.finding(assign, shown=shown, count=count)
        past = _indexed_past(ctx, cls.name, count - dropped) if count and dropped else []
        for subscript in past:
            yield INDEX_PAST_OUTPUT_STRICT.finding(subscript, shown=shown, kept=count - dropped)
        failing: list[ast.AST] = [*unpacked, *past]
        if failing or _read_before(ctx, cls.name, _first_drop(ctx, values, ret.value)):
            continue
        first_none = leaves.index("none")
        after = (
            " and the Tensor after it reads an empty slot"
            if "tensor" in leaves[first_none:]
            else ""
        )
        yield TRAILING_NONE_DROPPED_STRICT.finding(ret, shown=shown, after=after)


def _first_drop(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> int:
    """The index of the first item of the output that holds a dropped None."""
    shape = _shape(ctx, values, expr)
    if not isinstance(shape, list):
        return 0
    for index, item in enumerate(shape):
        leaves: list[Leaf] = []
        _mark(item if isinstance(item, list) else [item, "tensor"], leaves)
        if "none" in leaves:
            return index
    return 0


def _read_before(ctx: FunctionContext, entry: str, index: int) -> bool:
    """Every call of the Cell `entry` in the module is read only through constant indexes
    before `index` (`out = net(x); out[0]`, `net(x)[0]`): the caller never sees the None."""
    found = module_values.table(ctx.fn.module)
    sites = found.calls.get(entry) if found is not None else None
    tree = ctx.fn.module.tree
    if not sites or tree is None:
        return False
    calls = {id(call) for call, _ in sites}
    parents: dict[int, ast.AST] = {}
    scopes: dict[int, ast.AST] = {}
    for scope in ast.walk(tree):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            for node in ast.walk(scope):
                for child in ast.iter_child_nodes(node):
                    if id(child) in calls:
                        parents[id(child)] = node
                        scopes.setdefault(id(child), scope)
    for call, _ in sites:
        parent = parents.get(id(call))
        if isinstance(parent, ast.Expr):
            continue  # the result is not used
        if isinstance(parent, ast.Subscript) and _index_below(parent, index):
            continue
        if not (
            isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            return False
        held = parent.targets[0].id
        scope = scopes[id(call)]
        uses = [
            n
            for n in ast.walk(scope)
            if isinstance(n, ast.Name) and n.id == held and isinstance(n.ctx, ast.Load)
        ]
        reads = {
            id(n.value): n
            for n in ast.walk(scope)
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == held
        }
        if not uses or any(
            id(u) not in reads or not _index_below(reads[id(u)], index) for u in uses
        ):
            return False
    return True


def _indexed_past(ctx: FunctionContext, entry: str, kept: int) -> list[ast.Subscript]:
    """`net(x)[k]` / `out = net(x); out[k]` in the module with a constant `k >= kept`."""
    tree, calls = _calls_of(ctx, entry)
    if tree is None:
        return []
    held: set[str] = set()
    past: list[ast.Subscript] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and id(node.value) in calls
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            held.add(node.targets[0].id)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
            continue
        base = node.value
        if id(base) in calls or (isinstance(base, ast.Name) and base.id in held):
            key = node.slice
            if isinstance(key, ast.Constant) and type(key.value) is int and key.value >= kept:
                past.append(node)
    return past


def _index_below(subscript: ast.Subscript, index: int) -> bool:
    key = subscript.slice
    return isinstance(key, ast.Constant) and type(key.value) is int and 0 <= key.value < index


def _top_count(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> tuple[int, int]:
    """How many items the returned tuple or list has, and how many of them are dropped Nones
    ((0, 0) when unknown)."""
    shape = _shape(ctx, values, expr)
    if not isinstance(shape, list) or not _holds_tensor(shape):
        return 0, 0
    return len(shape), sum(1 for item in shape if item == "none")


def _calls_of(ctx: FunctionContext, entry: str) -> tuple[Optional[ast.Module], set[int]]:
    """The module's tree and the ids of its calls to the Cell `entry` (no tree: none found)."""
    found = module_values.table(ctx.fn.module)
    sites = found.calls.get(entry) if found is not None else None
    tree = ctx.fn.module.tree
    if not sites or tree is None:
        return None, set()
    return tree, {id(call) for call, _ in sites}


def _unpacked_calls(ctx: FunctionContext, entry: str, count: int) -> list[ast.Assign]:
    """The module's `a, b = net(x)` of calls to the Cell `entry` unpacked into `count` names."""
    tree, calls = _calls_of(ctx, entry)
    if tree is None:
        return []
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and id(node.value) in calls
        and len(node.targets) == 1
        and isinstance(node.targets[0], (ast.Tuple, ast.List))
        and len(node.targets[0].elts) == count
        and not any(isinstance(e, ast.Starred) for e in node.targets[0].elts)
    ]


def _own_returns(ctx: FunctionContext) -> list[ast.Return]:
    found: list[ast.Return] = ctx.of(ast.Return)
    nested = [n for n in ctx.of(*SCOPES) if n is not ctx.fn.node]
    return [r for r in found if not any(within(n, [r]) for n in nested)]


def _flatten(ctx: FunctionContext, values: Abstract, expr: ast.expr, out: list[Leaf]) -> None:
    """The leaves of the output `expr` in order: a None item of a tuple or list that holds a
    Tensor (at any depth) is "none" (dropped), one of a tuple without Tensors is kept ("other")."""
    _mark(_shape(ctx, values, expr), out)


Shape = Union[Leaf, list["Shape"]]


def _shape(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> Shape:
    if isinstance(expr, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in expr.elts):
            return "unknown"
        return [_shape(ctx, values, e) for e in expr.elts]
    if isinstance(expr, ast.Constant) and expr.value is None:
        return "none"
    if isinstance(expr, ast.Attribute) and _none_attribute(ctx, expr):
        return "none"
    if isinstance(expr, ast.Name) and _none_when_compiled(ctx, expr.id):
        return "none"
    return _value_shape(values.of(expr))


def _none_when_compiled(ctx: FunctionContext, name: str) -> bool:
    """`name` bound to None, and every other binding sits under an `if` on a Cell attribute
    that graph mode folds away (`mask = None; if self.use_mask: mask = x > 0` with
    `self.use_mask = False`)."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    assigns = [
        a
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
    ]
    if len(stores) < 2 or len(assigns) != len(stores):
        return False
    held = folded.guards(ctx)
    live = [a for a in assigns if id(a) not in held or folded.taken(ctx, held[id(a)])]
    return bool(live) and all(
        isinstance(a.value, ast.Constant) and a.value.value is None for a in live
    )


def _value_shape(value: Optional[Value]) -> Shape:
    if value is None:
        return "unknown"
    if value.kind == "None":
        return "none"
    if value.kind == "tensor":
        return "tensor"
    if value.kind in ("tuple", "list"):
        if value.op is not None:
            return "tensor"
        if value.items is None:
            return "unknown"
        return [_value_shape(item) for item in value.items]
    if value.kind in ("scalar", "str"):
        return "other"
    return "unknown"


def _holds_tensor(shape: Shape) -> bool:
    if isinstance(shape, list):
        return any(_holds_tensor(s) for s in shape)
    return shape == "tensor"


def _mark(shape: Shape, out: list[Leaf]) -> None:
    if not isinstance(shape, list):
        out.append(shape)
        return
    drops = _holds_tensor(shape)
    for item in shape:
        if isinstance(item, list):
            _mark(item, out)
        elif item == "none" and not drops:
            out.append("other")
        else:
            out.append(item)


def _none_attribute(ctx: FunctionContext, expr: ast.Attribute) -> bool:
    """`self.<name>` that the Cell's own class assigns only None, in `__init__`."""
    name = names.self_attribute(expr)
    cls = ctx.types.cls
    if name is None or cls is None or (cls.bases and any(b.attr(name) for b in cls.bases)):
        return False
    stores = cls.attribute_stores(name)
    if not stores:
        return False
    for store in stores:
        assign = _assign_of(cls.node, store)
        if assign is None or not (
            isinstance(assign.value, ast.Constant) and assign.value.value is None
        ):
            return False
    return True


def _assign_of(tree: ast.AST, target: ast.Attribute) -> Optional[ast.Assign]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and target in node.targets:
            return node
    return None
