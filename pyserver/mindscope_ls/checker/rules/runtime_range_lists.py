"""MS1120: a list grown in a `for` over `range(n)` of a run-time `n`, then indexed or taken
whole.

Measured with MindSpore 2.10 on CPU at LAX and STRICT (round 36, PyNative runs them all),
`n = int(x.sum()) // 22` (also `t.item() // 22`, `mutable(3)`, `out.shape[0]` of `out =
x[x > 4]`, `range(0, n, 1)`, `while i < n:` counting to it): graph mode cannot unroll the
loop, and the list it appends to (`acc.append(x[i])`, `acc.extend([...])`, `acc += [...]`,
also in a nested loop, in a helper method) is known when compiling only with the items it had
before. From `acc = []`: `acc[0]` / `acc[-1]` fail ("cannot get item by index from an empty
sequence"), so do `ops.stack(acc)` ("the 'len of input_x' must be int and must >= 1"),
`ops.cat` / `ops.addn` ("elements size must be greater than 0"), `sum(acc)`, `zip(acc, acc)` and
`enumerate(acc)` ("the dynamic length input is unsupported"). From `acc = [x[0]]`: `acc[0]`
compiles, `acc[1]` and `ops.stack(acc)` fail. `len(acc)`, `for a in acc:` and `return acc`
compile and agree; so does all of it with `range(x.shape[0])` or an int argument (the loop
unrolls).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import dynamic_shapes, names, receivers
from .helpers.base import FunctionContext, cacheable, within
from .mutable_scalars import mutable_number

LIST_GROWN_OVER_RUNTIME_RANGE = Rule(
    "MS1120",
    "list-grown-over-runtime-range",
    Group.FAILS,
    title="A list grown in a `for` over `range(n)` of a run-time `n`, then indexed or stacked",
    message=(
        "`{name}` is grown in a loop over `{loop}`, whose count is known only when the graph "
        "runs, so graph mode knows `{name}` only with the {count} it had before the loop: "
        "`{text}` fails; collect into a Tensor allocated before the loop, or loop over a "
        "constant range with a `break`."
    ),
    why=(
        "A `for` over `range(n)` of a number read from a Tensor (or `mutable()`, or a "
        "run-time length) is compiled as a loop that is not unrolled; a list appended to "
        "there keeps, when the graph is built, only the items it had before the loop."
    ),
    remedy=(
        "Write into a Tensor allocated before the loop (`buf[i] = v`), or loop over a constant "
        "`range(N)` (`x.shape[0]`, a Python int) with `if i >= n: break`."
    ),
    mindspore_says=(
        "ValueError: For primitive:'list_getitem', cannot get item by index from an empty sequence."
    ),
)

Loop = Union[ast.For, ast.While]
_WHOLE_OPS = frozenset({"stack", "cat", "concat", "addn"})
_WHOLE_BUILTINS = frozenset({"sum", "zip", "enumerate", "tuple"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    every: list[Loop] = ctx.of(ast.For, ast.While)
    loops = [loop for loop in every if _runtime_count(ctx, loop)]
    if not loops:
        return
    reported: set[str] = set()
    for loop in loops:
        for name in sorted(_grown(loop.body) - reported):
            start = _start(ctx, name, loop)
            if start is None:
                continue
            read = _first_failing_read(ctx, name, loop, start)
            if read is None:
                continue
            reported.add(name)
            head = loop.iter if isinstance(loop, ast.For) else loop.test
            yield LIST_GROWN_OVER_RUNTIME_RANGE.finding(
                read,
                related=[ctx.related(loop, "the loop that grows it")],
                name=name,
                loop=ast.unparse(head),
                count=f"{start} item{'s' if start != 1 else ''}" if start else "no items",
                text=names.short(read),
            )


def _runtime_count(ctx: FunctionContext, loop: Loop) -> bool:
    """`for i in range(..n..)` or `while i < n` with `n` known only at run time."""
    if isinstance(loop, ast.For):
        call = loop.iter
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "range"
            and call.args
            and not call.keywords
        ):
            return False
        return any(_runtime_number(ctx, arg) for arg in call.args)
    test = loop.test
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return False
    if not isinstance(test.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
        return False
    sides = [test.left, test.comparators[0]]
    if any(ctx.types.is_tensor(side) for side in sides):
        return False
    return any(_runtime_number(ctx, side) for side in sides)


def _runtime_number(ctx: FunctionContext, expr: ast.expr) -> bool:
    if ctx.types.is_tensor(expr):
        return False
    if receivers.runtime_scalar(ctx, expr) or mutable_number(ctx, expr):
        return True
    return _dynamic_length(ctx, expr)


def _dynamic_length(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """`out.shape[0]` / `len(out)` of a Tensor of run-time length, directly or through a local
    bound once to it."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _dynamic_length(ctx, bound, depth + 1)
    if isinstance(expr, ast.BinOp):
        return _dynamic_length(ctx, expr.left, depth + 1) or _dynamic_length(
            ctx, expr.right, depth + 1
        )
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.value.value, ast.Name)
    ):
        return dynamic_shapes.runtime_length(ctx, expr.value.value) is not None
    return False


def _grown(block: list[ast.stmt]) -> set[str]:
    """Names the statements grow: `a.append(v)`, `a.extend(vs)`, `a += [...]` (outside nested
    scopes)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(block)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend")
            and isinstance(node.func.value, ast.Name)
        ):
            found.add(node.func.value.id)
        if (
            isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and isinstance(node.target, ast.Name)
            and isinstance(node.value, ast.List)
        ):
            found.add(node.target.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _start(ctx: FunctionContext, name: str, loop: Loop) -> Optional[int]:
    """The length of the list display `name = [...]` that is the function's one plain binding
    of `name`, before the loop (augmented assignments in the loop aside)."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    augmented = {id(a.target) for a in ctx.of(ast.AugAssign) if isinstance(a.target, ast.Name)}
    plain = [n for n in stores if id(n) not in augmented]
    if len(plain) != 1 or (plain[0].lineno, plain[0].col_offset) >= (loop.lineno, 0):
        return None
    for assign in ctx.of(ast.Assign):
        if len(assign.targets) == 1 and assign.targets[0] is plain[0]:
            value = assign.value
            if isinstance(value, ast.List) and not any(
                isinstance(e, ast.Starred) for e in value.elts
            ):
                return len(value.elts)
    return None


def _first_failing_read(
    ctx: FunctionContext, name: str, loop: Loop, start: int
) -> Optional[ast.expr]:
    """The first read after the loop that needs the list's items: an item past the ones it
    started with (any item when it started empty), or the list given to `ops.stack` /
    `ops.cat` / `ops.addn` / `sum` / `zip` / `enumerate` / `tuple`."""
    end = (loop.end_lineno or 0, loop.end_col_offset or 0)
    found: list[ast.expr] = []
    for sub in ctx.of(ast.Subscript):
        if (
            isinstance(sub.value, ast.Name)
            and sub.value.id == name
            and isinstance(sub.ctx, ast.Load)
            and (sub.lineno, sub.col_offset) > end
            and _past_start(sub.slice, start)
        ):
            found.append(sub)
    for call in ctx.of(ast.Call):
        if (call.lineno, call.col_offset) <= end or not any(
            isinstance(a, ast.Name) and a.id == name for a in call.args
        ):
            continue
        # a `while` on a run-time count: MS169 reports the list taken whole
        if isinstance(loop, ast.For) and _takes_whole(ctx, call):
            found.append(call)
    found = [f for f in found if not within(loop, [f])]
    return min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None


def _past_start(index: ast.expr, start: int) -> bool:
    if isinstance(index, ast.Slice):
        return False
    if start == 0:
        return True
    value = _constant_int(index)
    return value is not None and (value >= start or value < -start)


def _constant_int(index: ast.expr) -> Optional[int]:
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        inner = _constant_int(index.operand)
        return None if inner is None else -inner
    if isinstance(index, ast.Constant) and type(index.value) is int:
        return index.value
    return None


def _takes_whole(ctx: FunctionContext, call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id in _WHOLE_BUILTINS:
        return True
    qualname = names.callee(ctx.fn.module, func)
    return (
        qualname is not None
        and qualname.startswith(("mindspore.ops.", "mindspore.mint."))
        and qualname.rsplit(".", 1)[-1] in _WHOLE_OPS
    )
