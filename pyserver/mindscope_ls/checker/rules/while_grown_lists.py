"""MS169: a list grown in a `while` on a Tensor condition (or on one path of an `if` on one, or
by a comprehension over `range()` of a number read from a Tensor), then taken as a whole.

Measured with MindSpore 2.10 on CPU (PyNative runs them all): appends in a loop the compiler
cannot unroll make a list whose length is known only at run time. Read item by item it works
(`for o in outs`, `len(outs)`, `outs[-1]`, returned as it is), but taken as a whole it fails at
LAX and STRICT alike: `ops.stack(outs)` (also `ops.Stack()(outs)`, `self.stack = ops.Stack()`
then `self.stack(outs)`, `ops.stack(tuple(outs))`, `ops.stack([o * 2 for o in outs])`, and
inside the loop) fails with "'mindspore._c_expression.typing.TensorType' object is not
subscriptable"; `tuple(outs)` with "Kernel select failed"; `sum(outs)` with "Cannot join the
return values of different branches"; a slice `outs[1:]` crashes the compiler.
`ops.concat(outs)` (`ops.cat`, `mint.cat`, `ops.Concat()`) and `ops.addn(outs)` (`ops.AddN()`)
of a list that starts empty fail at every level ("For primitive[Concat], the elements size must
be greater than ..."). Of a list that starts with items (`outs = [x]`) concatenation fails at
LAX ("Shapes number and types number must be equal when calling GetSequenceElements()") and
`addn` compiles right; STRICT compiles both but takes two items only (concat gave 4 values of
PyNative's 8, addn 2.0 for 7.0): MS338, a warning. A `for` over a constant `range`
with a Tensor `break` appends and stacks fine (it unrolls), and so does a `while` on a Python
counter.

A list appended to on one path of an `if` on a Tensor condition (`res = [x]; if t:
res.append(y)`) joins two lengths into one of run-time length too: `ops.stack(res)`,
`ops.Stack()(res)`, `tuple(res)` and `sum(res)` fail at LAX and STRICT; once the list is
appended to after the `if`, `res[1:]` fails at both levels too and `ops.concat(res)` /
`mint.cat(res)` at LAX (without, they compile); `ops.addn(res)`, `len(res)` and returning it
compile (measured). Both paths appending, or a Python condition, compile. A list that starts
empty (`res = []; if t: res.append(y)`, also inside a `for` over a constant range, of Tensors or
numbers) is joined at LAX into a scalar (MS307 when returned): every later read fails there,
`len(res)`, `for r in res`, `res[0]`, `ops.addn(res)`, `ops.concat(res)` ("The pointer[seq_abs]
is null"), while STRICT compiles them (measured).

`ys = [x * i for i in range(n)]` with `n = int(t)`: `ops.stack(ys)`, `tuple(ys)`, `sum(ys)` fail
at LAX and STRICT; `ops.concat`, `ops.addn`, `len(ys)` and `ys[1:]` at LAX only; returning it
compiles (measured). A `for i in range(n)` loop compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding, Related, SyntaxLevel
from ..rule import Rule
from . import calls_shared
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .while_lists import appended, appended_in

# a Tensor `while`, an `if` appending on one path only, or `[... for i in range(n)]` of a
# run-time `n`
Grower = Union[ast.While, ast.If, ast.ListComp]

WHILE_GROWN_LIST_WHOLE = Rule(
    "MS169",
    "while-grown-list-taken-whole",
    Group.FAILS,
    title="A list of run-time length (Tensor `while`, one `if` path, `range(n)`), taken whole",
    message=(
        "`{text}` takes `{name}` as a whole, which {grower}: graph mode knows its length only "
        "at run time and fails here{levels}; collect into "
        "a pre-allocated Tensor instead (or append on both paths, or loop a fixed number of "
        "times with a `break`)."
    ),
    why=(
        "A loop whose condition is a Tensor is not unrolled, so a list it appends to has a "
        "run-time length: reading it item by item works, but stacking, concatenating, "
        "slicing or converting it needs a length at compile time."
    ),
    remedy=(
        "Write into a Tensor allocated before the loop (`buf[i] = x`), or loop over a constant "
        "`range(n)` with `if cond: break` so the compiler unrolls it."
    ),
    mindspore_says=(
        "TypeError: 'mindspore._c_expression.typing.TensorType' object is not subscriptable"
    ),
)

WHILE_GROWN_LIST_TWO_ITEMS = Rule(
    "MS338",
    "while-grown-list-two-items-strict",
    Group.DIVERGES,
    title="STRICT concatenates or sums two items of a list grown in a Tensor `while`",
    message=(
        "`{text}` takes `{name}`, which the `while` on a Tensor condition appends to: STRICT "
        "compiles it over the list's first two items only, so the result differs from "
        "PyNative; collect into a pre-allocated Tensor instead (or loop a fixed number of "
        "times with a `break`)."
    ),
    why=(
        "A loop whose condition is a Tensor is not unrolled, so the list it grows has a "
        "run-time length; STRICT builds the concatenation or sum from the items it can see."
    ),
    remedy=(
        "Write into a Tensor allocated before the loop (`buf[i] = x`), or loop over a constant "
        "`range(n)` with `if cond: break` so the compiler unrolls it."
    ),
    mindspore_says="(no error: 4 values where PyNative gives 8)",
)

# Calls that take a sequence of Tensors as a whole; concatenation and `addn` depend on whether
# the list starts empty (see the module's docstring).
STACKING = frozenset({"stack", "Stack"})
CONCATENATING = frozenset({"concat", "cat", "Concat"})
ADDING = frozenset({"addn", "AddN"})
BUILTINS = frozenset({"tuple", "sum"})
GROWERS = {
    ast.While: "the `while` on a Tensor condition appends to",
    ast.If: "an `if` on a Tensor condition appends to on one path",
    ast.ListComp: "a comprehension over `range()` of a number read from a Tensor builds",
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.While | ast.If] = ctx.of(ast.While, ast.If)
    grown: dict[str, Grower] = {}
    for loop in loops:
        if not ctx.types.is_condition(loop.test):
            continue
        if isinstance(loop, ast.If):
            names = appended_in(loop.body) ^ appended_in(loop.orelse)  # one path only
        else:
            names = appended(loop)
        for name in names:
            if name not in grown and _bound_before_only(ctx, name, loop):
                grown[name] = loop
    comps: list[ast.ListComp] = ctx.of(ast.ListComp)
    for comp in comps:
        held = _assigned_name(ctx, comp)
        if held is not None and held not in grown and _counts_at_run_time(ctx, comp):
            grown[held] = comp
    if not grown:
        return
    reported: set[int] = set()  # `ops.stack(tuple(outs))`: one finding, the outer call
    scalars: set[str] = set()  # joined into a scalar at LAX: its first read fails, nothing later
    if ctx.level != SyntaxLevel.STRICT:
        for name, joined in grown.items():
            if (
                isinstance(joined, ast.If)
                and _starts_empty(ctx, name)
                and not _grown_before(ctx, name, joined)
            ):
                read = _first_read(ctx, name, joined)
                if read is not None:
                    scalars.add(name)
                    text = ast.unparse(read)
                    yield WHILE_GROWN_LIST_WHOLE.finding(
                        read,
                        related=[_why(ctx, joined)],
                        text=f"for ... in {text}" if _iterated(ctx, read) else text,
                        name=name,
                        levels=" at LAX",
                        grower=EMPTY_IF,
                    )
    for node in ctx.of(ast.Call, ast.Subscript):
        found = _whole_use(ctx, node, grown)
        if found is None or id(node) in reported:
            continue
        reported.update(id(n) for n in ast.walk(node))
        name, levels = found
        if name in scalars:
            continue
        if not levels:
            yield WHILE_GROWN_LIST_TWO_ITEMS.finding(
                node,
                related=[_why(ctx, grown[name])],
                text=ast.unparse(node),
                name=name,
            )
            continue
        grower = GROWERS[type(grown[name])]
        yield WHILE_GROWN_LIST_WHOLE.finding(
            node,
            related=[_why(ctx, grown[name])],
            text=ast.unparse(node),
            name=name,
            levels=levels,
            grower=grower,
        )


def _whole_use(
    ctx: FunctionContext, node: ast.AST, grown: dict[str, Grower]
) -> Optional[tuple[str, str]]:
    """(name, where it fails) when `node` takes a grown list whole at or after its loop; where
    is "" when it compiles over two items (MS338)."""
    if isinstance(node, ast.Subscript):
        if isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
            name = _grown_name(node.value, grown, node)
            if name is not None and isinstance(grown[name], ast.ListComp):
                return (name, " at LAX") if ctx.level != SyntaxLevel.STRICT else None
            if name is not None and _after_join(ctx, name, grown[name]):
                return name, " at every level"
        return None
    assert isinstance(node, ast.Call)
    if len(node.args) < 1:
        return None
    name = _grown_name(node.args[0], grown, node)
    if name is None:
        return None
    func = node.func
    if isinstance(grown[name], ast.ListComp):
        return _comprehension_use(ctx, node, name)
    if isinstance(func, ast.Name) and func.id in BUILTINS and calls_shared.builtin(ctx, func.id):
        return (name, " at every level") if len(node.args) == 1 else None
    op = _mindspore_op(ctx, func)
    if op in STACKING:
        return name, " at every level"
    if isinstance(grown[name], ast.If):
        # one path's append: concatenation fails at LAX only, once the list is appended to
        # after the `if`; `addn` compiles (measured)
        lax = op in CONCATENATING and ctx.level != SyntaxLevel.STRICT
        return (name, " at LAX") if lax and _after_join(ctx, name, grown[name]) else None
    if op in CONCATENATING or op in ADDING:
        if _starts_empty(ctx, name):
            return name, " at every level"
        first = node.args[0]
        tupled = isinstance(first, ast.Call) and isinstance(first.func, ast.Name)
        if tupled and first.func.id in BUILTINS:  # type: ignore[attr-defined]
            return None  # `ops.concat(tuple(outs))`: the `tuple()` fails first (MS169)
        if ctx.level == SyntaxLevel.STRICT:
            return name, ""
        if op in CONCATENATING:
            return name, " at LAX"
    return None


# LAX joins `[]` and `[y]` into a scalar (MS307 when returned): any read of it after the `if`
# fails (measured: len(), a `for` over it, `res[0]`, `ops.addn`, `ops.concat`; STRICT compiles).
EMPTY_IF = "starts empty and an `if` on a Tensor condition appends to on one path"
# Reads that are not uses of the joined value: growing it further, returning it as it is.
GROWING = frozenset({"append", "extend", "insert"})


def _first_read(ctx: FunctionContext, name: str, grower: ast.If) -> Optional[ast.expr]:
    """The first expression reading `name` after the `if` (the call or subscript taking it,
    else the name), leaving out `name.append(...)` and `return name`."""
    end = (grower.end_lineno or 0, grower.end_col_offset or 0)
    skipped: set[int] = set()
    for ret in ctx.of(ast.Return):
        value = ret.value
        for item in value.elts if isinstance(value, ast.Tuple) else [value]:
            if isinstance(item, ast.Name):
                skipped.add(id(item))
    takers: dict[int, ast.expr] = {}
    for call in ctx.of(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in GROWING:
            skipped.add(id(func.value))
        for arg in call.args:
            takers.setdefault(id(arg), call)
    for sub in ctx.of(ast.Subscript):
        takers.setdefault(id(sub.value), sub)
    reads = [
        n
        for n in ctx.of(ast.Name)
        if n.id == name
        and isinstance(n.ctx, ast.Load)
        and id(n) not in skipped
        and (n.lineno, n.col_offset) >= end
    ]
    if not reads:
        return None
    first = min(reads, key=lambda n: (n.lineno, n.col_offset))
    return takers.get(id(first), first)


def _grown_before(ctx: FunctionContext, name: str, grower: ast.If) -> bool:
    """`name.append(...)` (or extend/insert) before the `if`: the list no longer joins `[]`."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    return any(
        isinstance(call.func, ast.Attribute)
        and call.func.attr in GROWING
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == name
        and (call.lineno, call.col_offset) < (grower.lineno, grower.col_offset)
        for call in calls
    )


def _iterated(ctx: FunctionContext, expr: ast.expr) -> bool:
    loops: list[ast.For] = ctx.of(ast.For)
    return any(loop.iter is expr for loop in loops)


def _why(ctx: FunctionContext, grower: Grower) -> Related:
    if isinstance(grower, ast.ListComp):
        return ctx.related(grower.generators[0].iter, "the run-time count")
    return ctx.related(grower.test, "the Tensor condition")


def _comprehension_use(
    ctx: FunctionContext, call: ast.Call, name: str
) -> Optional[tuple[str, str]]:
    """A comprehension over `range(n)` of a run-time `n` (measured): `ops.stack`, `tuple()`
    and `sum()` of it fail at every level; `ops.concat`, `ops.addn`, `len()` (and a slice) at
    LAX only; returning it compiles."""
    func = call.func
    if isinstance(func, ast.Name) and calls_shared.builtin(ctx, func.id):
        if func.id in BUILTINS:
            return name, " at every level"
        lax = func.id == "len"
    else:
        op = _mindspore_op(ctx, func)
        if op in STACKING:
            return name, " at every level"
        lax = op in CONCATENATING or op in ADDING
    return (name, " at LAX") if lax and ctx.level != SyntaxLevel.STRICT else None


def _assigned_name(ctx: FunctionContext, comp: ast.ListComp) -> Optional[str]:
    """The local bound only to `comp` (`ys = [... for i in range(n)]`)."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0]
        if assign.value is comp and len(assign.targets) == 1 and isinstance(target, ast.Name):
            return target.id if receivers.only_binding(ctx, target.id) is comp else None
    return None


def _counts_at_run_time(ctx: FunctionContext, comp: ast.ListComp) -> bool:
    """One `for` over `range(...)` given a number read from a graph Tensor (`n = int(t)`)."""
    if len(comp.generators) != 1:
        return False
    loop = comp.generators[0].iter
    return (
        isinstance(loop, ast.Call)
        and isinstance(loop.func, ast.Name)
        and loop.func.id == "range"
        and any(receivers.runtime_scalar(ctx, arg) for arg in loop.args)
        and calls_shared.builtin(ctx, "range")
    )


def _after_join(ctx: FunctionContext, name: str, grower: Grower) -> bool:
    """True for a `while`; for an `if`, whether `name` is appended to after it (measured: a
    slice or a concatenation of the joined list compiles until something is appended)."""
    if isinstance(grower, ast.While):
        return True
    end = (grower.end_lineno or 0, grower.end_col_offset or 0)
    calls: list[ast.Call] = ctx.of(ast.Call)
    return any(
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == name
        and (call.lineno, call.col_offset) >= end
        for call in calls
    )


def _starts_empty(ctx: FunctionContext, name: str) -> bool:
    value = receivers.only_binding(ctx, name)
    return isinstance(value, ast.List) and not value.elts


def _mindspore_op(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    """The last part of the MindSpore function or operator class `func` calls: `ops.stack`,
    `ops.Stack()(...)`, `self.stack` holding an `ops.Stack()`."""
    qualname: Optional[str] = None
    if isinstance(func, ast.Call):
        qualname = names.callee(ctx.fn.module, func.func)
    elif isinstance(func, ast.Attribute) and names.self_attribute(func) is not None:
        held = receivers.self_attr(ctx, func)
        qualname = held.class_qualname if held is not None else None
    else:
        qualname = names.callee(ctx.fn.module, func)
    if qualname is None or not qualname.startswith("mindspore."):
        return None
    return qualname.rpartition(".")[2]


def _grown_name(expr: ast.expr, grown: dict[str, Grower], at: ast.AST) -> Optional[str]:
    """The grown list `expr` is (or `list()`/`tuple()`/a comprehension over), read at or after
    the start of its loop."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and len(expr.args) == 1:
        if expr.func.id in ("list", "tuple"):
            expr = expr.args[0]
    elif isinstance(expr, (ast.ListComp, ast.GeneratorExp)) and len(expr.generators) == 1:
        expr = expr.generators[0].iter
    if not isinstance(expr, ast.Name) or expr.id not in grown:
        return None
    loop = grown[expr.id]
    if (getattr(at, "lineno", 0), getattr(at, "col_offset", 0)) < (loop.lineno, loop.col_offset):
        return None
    return expr.id


def _bound_before_only(ctx: FunctionContext, name: str, loop: Grower) -> bool:
    """`name` is a local list bound only before the loop (not a parameter, not rebound in or
    after it), so the loop grows one list across its iterations."""
    value = receivers.only_binding(ctx, name)
    if not isinstance(value, ast.List):
        return False
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    return all((s.lineno, s.col_offset) < (loop.lineno, loop.col_offset) for s in stores)
