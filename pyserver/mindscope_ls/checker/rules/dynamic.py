"""MS173: dynamic-length sequences (`mutable(seq, True)`) where graph mode needs a fixed length
or one element type.

From MindSpore 2.10 (the C++ checks of `lib/libmindspore_frontend.so` and measured compiles,
`generated/errors/`): `zip`, `enumerate` (built on zip) and `map` refuse a dynamic-length input
("For 'zip', the dynamic length input is unsupported in graph mode"), and a dynamic-length
sequence holds elements of one type ("In graph mode, the element type of dynamic length array
must be the same": `[1, 2.0]`, `[1, True]`, `[x, 2.0]` fail). `for v in dyn`, `len(dyn)`,
`dyn[0]`, `mutable([x, x + 1], True)`, `mutable([(1, 2), (3, 4)], True)` and a fixed-length
`mutable([1, 2.0])` compile. Of the list methods, `extend` ("ListExtend does not support dynamic
length list"), `reverse` and `pop` ("Can not get size for dynamic length sequence"), `sort`,
`remove` ("attribute name must be string, not 'int'") and `copy` ("'tuple' object has no
attribute 'copy'") fail, as do `str(dyn)` and a slice assignment `dyn[0:1] = [5]` ("Kernel
select failed"); `append`, `insert`, `clear`, `index`, `count`, item assignment, slicing,
`sorted`, `+` and `*` compile. Also failing at every level: `dyn.append(v)` of a value of
another type (or Tensor shape) than the elements written in `mutable([...], True)` (`2.5` to
ints, `1.0` to Tensors: "For ListAppend, the mutable list existing item abstract ..."), and the
same through `insert`, an item write and `dyn + [v]`, `mutable(dyn)` ("can
not convert a dynamic length sequence to constant length") and `ops.stack(dyn)` ("'TensorType'
object is not subscriptable"; `ops.concat`/`ops.cat`/`ops.addn` of it compile).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names, shared_values
from .helpers.abstract import MUTABLE, Abstract, Value
from .helpers.base import FunctionContext, cacheable

DYNAMIC_SEQUENCE = Rule(
    "MS173",
    "dynamic-sequence-unsupported",
    Group.FAILS,
    title="A dynamic-length sequence used where graph mode needs a fixed one",
    message="{problem}; {advice}.",
    why=(
        "`mutable(seq, True)` makes a sequence whose length is known only when the graph runs. "
        "Graph mode can index it, take its length, loop over it and append to it, but `zip`, "
        "`enumerate`, `map`, `str()`, slice assignment and the list methods `extend`, "
        "`reverse`, `pop`, `sort`, `remove` and `copy` need the length when compiling, and all "
        "its elements must share one type."
    ),
    remedy=(
        "Drop `dynamic_len=True` (a fixed-length `mutable(seq)` keeps the values variable), or "
        "index the sequence in a `for i in range(len(seq))` loop."
    ),
    mindspore_says=(
        "RuntimeError: For 'zip', the dynamic length input is unsupported in graph mode."
    ),
)

ITERATING = {"zip": "zip", "enumerate": "zip", "map": "map"}
# List methods that need the length when compiling (measured); `append`/`insert` do not.
SIZED_METHODS = frozenset({"extend", "reverse", "pop", "sort", "remove", "copy"})


def _dynamic(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Call]:
    """The `mutable(seq, True)` (or `dynamic_len=True`) call `expr` is, if any."""
    if not isinstance(expr, ast.Call) or names.callee(ctx.fn.module, expr.func) not in MUTABLE:
        return None
    flag: Optional[ast.expr] = expr.args[1] if len(expr.args) > 1 else None
    flag = names.keyword(expr, "dynamic_len") or flag
    if isinstance(flag, ast.Constant) and flag.value is True:
        return expr
    return None


def _bound_once(ctx: FunctionContext) -> dict[str, ast.expr]:
    """Locals bound exactly once in the function by a plain `name = value`."""
    seen: dict[str, list[ast.expr]] = {}
    plain: set[int] = set()  # the target nodes of those assignments
    for node in ctx.of(ast.Assign):
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name):
            seen.setdefault(target.id, []).append(node.value)
            plain.add(id(target))
    other = {
        n.id for n in ctx.of(ast.Name) if not isinstance(n.ctx, ast.Load) and id(n) not in plain
    }
    return {k: v[0] for k, v in seen.items() if len(v) == 1 and k not in other}


def _element_type(values: Abstract, ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    if isinstance(expr, ast.Constant) and not isinstance(expr.value, str):
        return type(expr.value).__name__  # bool before int: its own type
    if ctx.types.is_tensor(expr):
        return "Tensor"
    known: Optional[Value] = values.of(expr)
    if known is not None and known.kind in ("str", "None"):
        return known.kind
    return None


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = ctx.of(ast.Call)
    if not any(_dynamic(ctx, c) for c in calls):
        return
    values = shared_values.abstract(ctx)
    once = _bound_once(ctx)
    yield from _slice_writes(ctx, once)
    yield from _foreign_writes(ctx, values, once)
    for call in calls:
        dynamic = _dynamic(ctx, call)
        if dynamic is not None and dynamic.args:
            yield from _mixed(ctx, values, dynamic)
        yield from _other_uses(ctx, values, once, call)
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in SIZED_METHODS:
            source = func.value
            if isinstance(source, ast.Name) and source.id in once:
                source = once[source.id]
            if _dynamic(ctx, source) is not None:
                problem = (
                    f"`.{func.attr}()` of a dynamic-length list (`mutable(..., True)`) needs its "
                    "length when compiling"
                )
                advice = "build a new list with `+`, or drop `dynamic_len=True`"
                yield DYNAMIC_SEQUENCE.finding(call, problem=problem, advice=advice)
            continue
        if isinstance(func, ast.Name) and func.id == "str" and builtin(ctx, "str"):
            if len(call.args) == 1 and _dynamic(ctx, _source(once, call.args[0])) is not None:
                problem = "`str()` of a dynamic-length sequence (`mutable(..., True)`) fails"
                advice = "format its elements one by one, or drop `dynamic_len=True`"
                yield DYNAMIC_SEQUENCE.finding(call, problem=problem, advice=advice)
            continue
        if isinstance(func, ast.Name) and func.id in ITERATING and builtin(ctx, func.id):
            inputs = call.args[1:] if func.id == "map" else call.args
            for arg in inputs:
                source = arg
                if isinstance(arg, ast.Name) and arg.id in once:
                    source = once[arg.id]
                if _dynamic(ctx, source) is not None:
                    problem = (
                        f"`{func.id}()` of a dynamic-length sequence (`mutable(..., True)`): "
                        f"graph mode's `{ITERATING[func.id]}` needs its length when compiling"
                    )
                    advice = "loop over `range(len(seq))` and index, or drop `dynamic_len=True`"
                    yield DYNAMIC_SEQUENCE.finding(call, problem=problem, advice=advice)
                    break


def _other_uses(
    ctx: FunctionContext, values: Abstract, once: dict[str, ast.expr], call: ast.Call
) -> Iterator[RawFinding]:
    """`dyn.append(v)` / `dyn.insert(i, v)` of another element type or shape, `mutable(dyn)`
    (fixed length again) and `ops.stack(dyn)`: each fails at every level (measured on 2.10)."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ADDING
        and len(call.args) == ADDING[func.attr]
    ):
        problem = _foreign(ctx, values, once, func.value, call.args[-1])
        if problem is not None:
            advice = "convert the value to the list's element type and shape first"
            yield DYNAMIC_SEQUENCE.finding(
                call, problem=f"`.{func.attr}()` {problem}", advice=advice
            )
        return
    if not call.args or _dynamic(ctx, _source(once, call.args[0])) is None:
        return
    qualname = names.callee(ctx.fn.module, func) or ""
    if qualname in MUTABLE and _dynamic(ctx, call) is None:
        problem = "`mutable()` of a dynamic-length sequence cannot make it fixed-length again"
        advice = "pass the sequence itself, or build it with `mutable(seq)` in the first place"
        yield DYNAMIC_SEQUENCE.finding(call, problem=problem, advice=advice)
    elif qualname in STACKS:
        problem = f"`{ast.unparse(func)}()` of a dynamic-length sequence fails while compiling"
        advice = "drop `dynamic_len=True`, or use `ops.concat` of expanded Tensors"
        yield DYNAMIC_SEQUENCE.finding(call, problem=problem, advice=advice)


# The methods that add one value to a list, and how many arguments they take.
ADDING = {"append": 1, "insert": 2}


def _foreign(
    ctx: FunctionContext,
    values: Abstract,
    once: dict[str, ast.expr],
    target: ast.expr,
    value: ast.expr,
) -> Optional[str]:
    """What is wrong with putting `value` into `target` when that is a dynamic-length list
    written out as `mutable([...], True)` whose elements share a type (and, for Tensors, a
    static shape) that `value` does not: None when nothing is, or the source does not show."""
    source = _dynamic(ctx, _source(once, target))
    if source is None or not source.args:
        return None
    seq = source.args[0]
    if not isinstance(seq, (ast.List, ast.Tuple)) or not seq.elts:
        return None
    held = {_element_type(values, ctx, e) for e in seq.elts}
    added = _element_type(values, ctx, value)
    if len(held) != 1 or None in held or added is None:
        return None
    kind = held.pop()
    if added != kind:
        return f"of a {added} into a dynamic-length list of {kind} elements: they share one type"
    if kind != "Tensor":
        return None
    shapes = shared_values.shapes(ctx)
    held_shapes = {shapes.of(e) for e in seq.elts}
    added_shape = shapes.of(value)
    if len(held_shapes) != 1 or None in held_shapes or added_shape is None:
        return None
    shape = held_shapes.pop()
    if added_shape == shape:
        return None
    return (
        f"of a Tensor of shape {added_shape} into a dynamic-length list of Tensors of shape "
        f"{shape}: they share one shape"
    )


def _foreign_writes(
    ctx: FunctionContext, values: Abstract, once: dict[str, ast.expr]
) -> Iterator[RawFinding]:
    """`dyn[i] = v`, `dyn + [v]`, `dyn += [v]` with `v` of another element type or shape
    (measured: "For list_setitem, when the queue is dynamic length, the element ...",
    "For primitive SequenceAdd, the element of first input abstract ...")."""
    advice = "convert the value to the list's element type and shape first"
    for node in ctx.of(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
                problem = _foreign(ctx, values, once, target.value, node.value)
                if problem is not None:
                    yield DYNAMIC_SEQUENCE.finding(
                        target, problem=f"an item write {problem}", advice=advice
                    )
    pairs: list[tuple[ast.AST, ast.expr, ast.expr]] = [
        (n, n.left, n.right) for n in ctx.of(ast.BinOp) if isinstance(n.op, ast.Add)
    ]
    pairs += [(n, n.target, n.value) for n in ctx.of(ast.AugAssign) if isinstance(n.op, ast.Add)]
    for where, left, right in pairs:
        if not isinstance(right, (ast.List, ast.Tuple)):
            continue
        for item in right.elts:
            problem = _foreign(ctx, values, once, left, item)
            if problem is not None:
                yield DYNAMIC_SEQUENCE.finding(where, problem=f"`+` {problem}", advice=advice)
                break


# `ops.stack(dyn)`: "'TensorType' object is not subscriptable" (measured; `ops.concat`,
# `ops.cat`, `ops.addn` of the same list compile).
STACKS = frozenset({"mindspore.ops.stack", "mindspore.ops.function.array_func.stack"})


def _slice_writes(ctx: FunctionContext, once: dict[str, ast.expr]) -> Iterator[RawFinding]:
    """`dyn[a:b] = seq`: no kernel takes a slice assignment of a dynamic-length list."""
    for node in ctx.of(ast.Assign):
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.slice, ast.Slice)
                and _dynamic(ctx, _source(once, target.value)) is not None
            ):
                problem = (
                    "a slice assignment to a dynamic-length list (`mutable(..., True)`) has no "
                    "kernel"
                )
                advice = "assign its items one by one, or drop `dynamic_len=True`"
                yield DYNAMIC_SEQUENCE.finding(target, problem=problem, advice=advice)


def _source(once: dict[str, ast.expr], expr: ast.expr) -> ast.expr:
    """What a local bound once stands for (the `mutable(...)` call it was assigned)."""
    return once[expr.id] if isinstance(expr, ast.Name) and expr.id in once else expr


def _mixed(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    seq = call.args[0]
    if not isinstance(seq, (ast.List, ast.Tuple)):
        return
    kinds = [_element_type(values, ctx, e) for e in seq.elts]
    if None in kinds or len(set(kinds)) < 2:
        return
    problem = (
        f"a dynamic-length sequence holds elements of one type, and this one mixes "
        f"{' and '.join(sorted(set(k for k in kinds if k)))}"
    )
    yield DYNAMIC_SEQUENCE.finding(
        call, problem=problem, advice="convert the elements to one type or drop `dynamic_len=True`"
    )
