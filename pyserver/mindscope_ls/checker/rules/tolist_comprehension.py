"""MS188: a list comprehension over `tensor.tolist()` at LAX.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`, `user/`): at LAX `.tolist()` of a
Tensor computed in the graph runs in the Python fallback, and a list comprehension over its
result fails to compile ("The pointer[seq_abs] is null", no line named): `[labels[i] for i in
ids]`, `[i * 2 for i in ids]` with `ids = logits.argmax(-1).tolist()`. Indexing the list
(`ids[0]`) and a `for` statement over it compile (one growing a list fails: MS177). STRICT refuses
`.tolist()` itself (MS201).
Round 32, LAX, the list taken whole elsewhere: `max(t.tolist())`, `min(t.tolist())` (ints or
floats), `ops.ones(t.tolist())`, `ops.zeros(tuple(t.tolist()))`, `ops.broadcast_to(y,
tuple(t.tolist()))`, `ops.tile(y, tuple(t.tolist()))` fail ("Kernel select failed"); `sum()`,
`sorted()`, `ops.full(tuple(t.tolist()), 1.0)`, `y.reshape(t.tolist())`, `max(a, b)` of two
items and `ops.zeros((l[0], l[1]))` compile.

MS177: a `for` statement over such a list (directly, through a local, `enumerate(ids)`,
`range(len(ids))`, `list(ids)`, a slice `ids[:2]`; or over `t.asnumpy()`), or a `while` whose test
compares with `len(ids)`, that grows a list or tuple bound before the loop. Measured at LAX: the
loop runs in the fallback with the grown sequence lost, and the run fails ("'int' object has no
attribute 'append'" for `res.append(v)`, "'NoneType' object has no attribute 'extend'",
"unsupported operand type(s) for +: 'int' and 'list'" for `res += [v]` / `res = res + [v]`, the
same for a tuple, "The pointer[data_abs] is null" for an append under an `if`); PyNative gives the
list. With one or two elements the run returns the first element instead of the list (`[1, 2]` gave
`1`): wrong either way, failing for the batches models iterate. A loop that only adds numbers or
Tensors (`total = total + x[v]`), writes an item (`res[0] = ...`) or a dict key compiles and gives
PyNative's result: left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters

COMPREHENSION_OVER_TOLIST = Rule(
    "MS188",
    "comprehension-over-tolist",
    Group.FAILS,
    title="A list comprehension, `max()` / `min()` or a shape over `tensor.tolist()` (LAX)",
    message=(
        "{what} `{source}` whole, a list the Python fallback makes from a Tensor computed in "
        "the graph, which LAX cannot compile: compute on the Tensor (`ops.gather`, indexing, "
        "`t.max()`) or convert after the network returns."
    ),
    why=(
        "`.tolist()` of a Tensor computed in the graph is only known when the graph runs; a list "
        "comprehension over it needs its elements when compiling, and `max()` / `min()` of it "
        "or a shape made of it (`ops.ones(t.tolist())`, `ops.tile(y, tuple(t.tolist()))`) find "
        "no CPU kernel for the fallback's values."
    ),
    remedy=(
        "Keep the values in a Tensor and use Tensor ops (`ops.gather(table, ids, 0)`, "
        "`t.max()`), or return the Tensor and convert it outside the network."
    ),
    mindspore_says="RuntimeError: The pointer[seq_abs] is null.",
)

LOOP_OVER_TOLIST_GROWS_SEQUENCE = Rule(
    "MS177",
    "loop-over-tolist-grows-sequence",
    Group.FAILS,
    title="A `for` over `tensor.tolist()` / `.asnumpy()` that grows a list (LAX)",
    message=(
        "This loop iterates `{source}`, which the Python fallback makes from a Tensor computed "
        "in the graph, and grows `{name}` in its body: LAX loses `{name}` in that loop, so the "
        "run fails (a list of one or two elements gives its first element instead); compute on "
        "the Tensor (`ops.gather`, masks) or convert after the network returns."
    ),
    why=(
        "`.tolist()` of a Tensor computed in the graph is only known when the graph runs; the "
        "loop over it runs in the fallback, where a list or tuple bound before the loop and "
        "grown in it is not carried through (it arrives as a number or None)."
    ),
    remedy=(
        "Keep the values in a Tensor and use Tensor ops (`ops.gather(table, ids, 0)`, "
        "`ops.masked_select`), or return the Tensor and build the list outside the network."
    ),
    mindspore_says="AttributeError: 'int' object has no attribute 'append'",
)
GROWING_METHODS = frozenset({"append", "extend", "insert"})
FALLBACK_LISTS = frozenset({"tolist", "asnumpy", "numpy"})


@cacheable
def check_loops(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    for loop in loops:
        source = _fallback_list(ctx, loop.iter) if isinstance(loop, ast.For) else _bound(ctx, loop)
        if source is None:
            continue
        grown = _growth(ctx, loop)
        if grown is not None:
            # Reported on the `for` (the loop runs in the fallback; MindSpore names no line).
            yield LOOP_OVER_TOLIST_GROWS_SEQUENCE.finding(
                loop, source=ast.unparse(source), name=grown[1]
            )


def _fallback_list(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[ast.expr]:
    """The `t.tolist()` / `t.asnumpy()` (of a computed Tensor) a loop iterates: directly, through
    a local bound once, `list(...)`, `tuple(...)`, `enumerate(...)`, `range(len(...))` or a
    slice `ids[:2]` of it."""
    if depth > 6:
        return None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return _fallback_list(ctx, bound, depth + 1) if bound is not None else None
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):
        return _fallback_list(ctx, expr.value, depth + 1)
    if not isinstance(expr, ast.Call) or expr.keywords:
        return None
    func = expr.func
    if isinstance(func, ast.Name) and len(expr.args) == 1:
        arg = expr.args[0]
        if func.id in ("list", "tuple", "enumerate"):
            return _fallback_list(ctx, arg, depth + 1)
        if (
            func.id == "range"
            and isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name)
            and arg.func.id == "len"
            and len(arg.args) == 1
        ):
            return _fallback_list(ctx, arg.args[0], depth + 1)
        return None
    if not (isinstance(func, ast.Attribute) and func.attr in FALLBACK_LISTS and not expr.args):
        return None
    tensor = func.value
    while (
        isinstance(tensor, ast.Call)
        and isinstance(tensor.func, ast.Attribute)
        and tensor.func.attr in FALLBACK_LISTS
        and not tensor.args
    ):
        tensor = tensor.func.value  # `t.asnumpy().tolist()`
    if not ctx.types.is_tensor(tensor) or ctx.types.is_constant_tensor(tensor):
        return None
    return expr if _from_input(ctx, tensor) else None


def _bound(ctx: FunctionContext, loop: ast.While) -> Optional[ast.expr]:
    """The fallback list whose `len(...)` a `while` test compares with (`while i < len(ids)`)."""
    for node in ast.walk(loop.test):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "len"
            and len(node.args) == 1
        ):
            source = _fallback_list(ctx, node.args[0])
            if source is not None:
                return source
    return None


def _growth(ctx: FunctionContext, loop: ast.For | ast.While) -> Optional[tuple[ast.AST, str]]:
    """The first statement of the loop's body growing a list or tuple bound before the loop:
    `res.append(v)` / `extend` / `insert`, `res += [v]`, `res = res + [v]`."""
    for stmt in loop.body:
        for node in ast.walk(stmt):
            name: Optional[str] = None
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in GROWING_METHODS
                and isinstance(node.func.value, ast.Name)
            ):
                name = node.func.value.id
            elif (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Add)
                and isinstance(node.target, ast.Name)
                and isinstance(node.value, (ast.List, ast.Tuple))
            ):
                name = node.target.id
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp)
                and isinstance(node.value.op, ast.Add)
                and isinstance(node.value.left, ast.Name)
                and node.value.left.id == node.targets[0].id
                and isinstance(node.value.right, (ast.List, ast.Tuple))
            ):
                name = node.targets[0].id
            if name is not None and _sequence_before(ctx, loop, name):
                return node, name
    return None


def _sequence_before(ctx: FunctionContext, loop: ast.For | ast.While, name: str) -> bool:
    """`name = [...]` / `(...)` / `list()` / `tuple()` before the loop, and nowhere else bound
    but by the growth itself."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    before = [
        a
        for a in assigns
        if len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and a.targets[0].id == name
        and a.lineno < loop.lineno
    ]
    if len(before) != 1:
        return False
    value = before[0].value
    return isinstance(value, (ast.List, ast.Tuple)) or (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("list", "tuple")
        and not value.args
    )


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT or not ctx.fn.module.mentions("tolist"):
        return
    comps: list[ast.ListComp] = ctx.of(ast.ListComp)
    for comp in comps:
        source = _tolist(ctx, comp.generators[0].iter)
        if source is not None:
            yield COMPREHENSION_OVER_TOLIST.finding(
                comp, what="This comprehension iterates", source=ast.unparse(source)
            )
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        taken = _taken_whole(ctx, call)
        if taken is None:
            continue
        what, arg = taken
        source = _tolist(ctx, _unwrapped(arg))
        if source is not None:
            yield COMPREHENSION_OVER_TOLIST.finding(call, what=what, source=ast.unparse(source))


# ops functions whose shape argument (by position) cannot be a `.tolist()` list (measured at
# LAX: kernel select failed); `ops.full(shape, v)` and `x.reshape(l)` compile.
SHAPE_OPS = {"ones": 0, "zeros": 0, "broadcast_to": 1, "tile": 1}


def _taken_whole(ctx: FunctionContext, call: ast.Call) -> Optional[tuple[str, ast.expr]]:
    """(what takes it, the argument) for `max(l)` / `min(l)` and the shape of `SHAPE_OPS`."""
    func = call.func
    if call.keywords or not call.args:
        return None
    if isinstance(func, ast.Name) and func.id in ("max", "min") and len(call.args) == 1:
        return (f"`{func.id}()` takes", call.args[0]) if builtin(ctx, func.id) else None
    qualname = names.callee(ctx.fn.module, func) or ""
    if not (qualname.startswith("mindspore.ops.") and names.is_ops_call(qualname)):
        return None
    op = qualname.rsplit(".", 1)[-1]
    index = SHAPE_OPS.get(op)
    if index is None or index >= len(call.args):
        return None
    return f"`ops.{op}` takes the shape", call.args[index]


def _unwrapped(arg: ast.expr) -> ast.expr:
    """`tuple(l)` / `list(l)` -> `l`."""
    if (
        isinstance(arg, ast.Call)
        and isinstance(arg.func, ast.Name)
        and arg.func.id in ("tuple", "list")
        and len(arg.args) == 1
    ):
        return arg.args[0]
    return arg


def _tolist(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """`t.tolist()` of a computed Tensor, directly or through a local bound only to it."""
    found = receivers.computed_tensor_method(ctx, expr, "tolist")
    return found[0] if found is not None and _from_input(ctx, found[1]) else None


def _from_input(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """`expr` reads one of the function's Tensor inputs or calls a sub-Cell (`self.fc(x)`),
    through locals bound once: not a Tensor built from Python values in the graph, which the
    fallback may know when compiling."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Name):
        if expr.id in parameters(ctx.fn.node):
            stores: list[ast.Name] = ctx.of(ast.Name)
            rebound = any(n.id == expr.id and not isinstance(n.ctx, ast.Load) for n in stores)
            return not rebound and expr.id in ctx.types.names
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _from_input(ctx, bound, depth + 1)
    if isinstance(expr, ast.Call) and receivers.kind_of(ctx, expr.func) == receivers.CELL:
        return True
    return any(
        _from_input(ctx, child, depth + 1)
        for child in ast.iter_child_nodes(expr)
        if isinstance(child, ast.expr)
    )
