"""MS349: `int()`, `math.floor()`, `math.ceil()` or `round()` of Python float arithmetic that
float32 puts on the other side of an integer.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: graph mode folds Python float
arithmetic in float32 before converting it, so with `n = x.shape[0] = 100`, `int(2.3 * 100)`,
`int(n * 2.3)` and `math.floor(n * 2.3)` gave 230 in GRAPH_MODE where PyNative gave 229
(2.3 * 100 is 229.99999999999997 in double, 230.0 in float32), and `math.ceil(n * 1.1)` gave 110
for 111 (110.00000000000001 in double). `int(n * 0.1 * 10)` and `round(n * 2.3)` agree. Such an
int usually sizes something (`ops.topk(x, k)`, a slice, a reshape), so the results differ in
shape. Only arguments the source fixes are judged (literals, float attributes, shapes: the
module's static shape when it has one, else only when every sampled shape differs).

Round 31: a float literal is float32 too before the conversion, so `int(1e18)` gave
999999984306749440, `int(1e11)` 99999997952 and `math.ceil(123456789.5)` 123456792 in GRAPH_MODE
(`round`, `math.floor`, `math.trunc`, a negative literal and a local bound to one the same);
literals float32 holds exactly (`int(1e10)`, `int(16777216.0)`) agree.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .divergence_scalars import INT_SAMPLES, _f32, evaluate, held_float
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

FLOAT32_TO_INT = Rule(
    "MS349",
    "float32-int-conversion",
    Group.DIVERGES,
    title="`int()` / `floor` / `ceil` of Python float arithmetic (or a float literal) that float32 "
    "rounds across an integer",
    message=(
        "`{text}` is {graph} in graph mode, which computes `{arg}` in float32, but {pynative} "
        "in PyNative; compute the int with integer arithmetic (`n * 23 // 10`) or outside the "
        "compiled code."
    ),
    why=(
        "Graph mode folds Python float arithmetic in float32 before converting it to an int: "
        "`int(2.3 * 100)` gave 230 in GRAPH_MODE and 229 in PyNative (2.3 * 100 is "
        "229.99999999999997 in double), `math.ceil(n * 1.1)` with n = 100 gave 110 for 111. "
        "A float literal is float32 too: `int(1e18)` gave 999999984306749440."
    ),
    remedy="Use integer arithmetic (`n * 23 // 10`), or compute the int outside compiled code.",
    mindspore_says="(compiles; result differs from PyNative)",
)

CONVERSIONS: dict[str, Callable[[float], int]] = {
    "int": int,
    "round": round,
    "math.floor": math.floor,
    "math.ceil": math.ceil,
    "math.trunc": math.trunc,
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    bounds: Optional[set[int]] = None
    returned: set[int] = set()
    for call in calls:
        name = _conversion(ctx, call)
        if name is None:
            continue
        arg = call.args[0]
        found = _literal_results(ctx, arg, CONVERSIONS[name])
        if found is not None:
            if bounds is None:
                bounds = _sentinels(calls)
                returned = _returned(ctx)
            if id(call) in bounds or not _is_returned(ctx, call, returned):
                continue  # `min(n, int(1e12))`, a fill value: float32 rounds it the same way
        if found is None and not isinstance(arg, (ast.BinOp, ast.Name)):
            continue  # `int(t)`, `int(0.5)`: nothing computed in float32 here
        if found is None:
            found = _results(ctx, arg, CONVERSIONS[name])
        if found is None:
            continue
        graph, pynative = found
        yield FLOAT32_TO_INT.finding(
            call, text=ast.unparse(call), arg=ast.unparse(arg), graph=graph, pynative=pynative
        )


def _conversion(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    """The conversion `call` is (`int`, `round` of one argument, `math.floor` ...), if one."""
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
        return None
    func = call.func
    if isinstance(func, ast.Name) and func.id in ("int", "round"):
        return func.id if builtin(ctx, func.id) else None
    qualname = ctx.fn.module.qualname(func) if isinstance(func, ast.Attribute) else None
    return qualname if qualname in CONVERSIONS else None


def _results(
    ctx: FunctionContext, arg: ast.expr, convert: Callable[[float], int]
) -> Optional[tuple[str, str]]:
    """(graph mode's int, PyNative's) when they differ for every sample."""
    results: list[tuple[int, int]] = []
    for sample in INT_SAMPLES:
        try:
            found = evaluate(ctx, arg, sample, 0, spread=True, tensors=False)
            if found is None or not found[2]:
                return None  # unknown, or an int: exact in both modes
            wide, narrow, _ = found
            pair = convert(narrow), convert(wide)
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            return None
        if pair[0] == pair[1]:
            return None
        results.append(pair)
    if results[0] != results[-1]:  # a sampled shape: no one value to name
        return "another int", "PyNative's"
    return str(results[0][0]), str(results[0][1])


def _literal_results(
    ctx: FunctionContext, arg: ast.expr, convert: Callable[[float], int]
) -> Optional[tuple[str, str]]:
    """(graph mode's int, PyNative's) of converting a float literal (directly, through a local
    bound only to it, or a float attribute's) that float32 cannot hold exactly as an integer.
    Measured (round 31): `int(1e18)` 999999984306749440, `int(1e11)` 99999997952,
    `math.ceil(123456789.5)` 123456792, `round(1e18)`, `math.trunc(1e17)`, `int(-1e18)` and
    `big = 1e18; int(big)` likewise; `int(1e10)` and `int(16777216.0)` are exact in float32."""
    if isinstance(arg, ast.Name):
        bound = receivers.only_binding(ctx, arg.id)
        if bound is None:
            return None
        arg = bound
    held = held_float(ctx, arg)
    if held is None or math.isinf(held) or math.isnan(held):
        return None
    try:
        graph, pynative = convert(_f32(held)), convert(held)
    except (ArithmeticError, ValueError, OverflowError):
        return None
    if graph == pynative:
        return None
    return str(graph), str(pynative)


def _sentinels(calls: list[ast.Call]) -> set[int]:
    """The arguments of `min(...)` / `max(...)` calls: a huge literal there is a bound."""
    return {
        id(a)
        for c in calls
        if isinstance(c.func, ast.Name) and c.func.id in ("min", "max")
        for a in c.args
    }


_PASSING = frozenset({"int", "float", "abs", "str", "round"})


def _returned(ctx: FunctionContext) -> set[int]:
    """The ids of the nodes a `return` outputs as Python values: its value, tuple items and
    operands of arithmetic, not the arguments of a call (a Tensor op) other than `int()`,
    `abs()` and kin."""
    found: set[int] = set()
    stack = [r.value for r in ctx.of(ast.Return) if r.value is not None]
    while stack:
        node = stack.pop()
        found.add(id(node))
        if isinstance(node, (ast.Tuple, ast.List)):
            stack.extend(node.elts)
        elif isinstance(node, ast.BinOp):
            stack.extend((node.left, node.right))
        elif isinstance(node, ast.UnaryOp):
            stack.append(node.operand)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _PASSING
        ):
            stack.extend(node.args)
    return found


def _is_returned(ctx: FunctionContext, call: ast.Call, returned: set[int]) -> bool:
    """The conversion of a huge literal matters where its int is output: inside a `return`, or
    bound to a local that a `return` reads (used as a Tensor's fill value, float32 rounds it
    the same way in both modes)."""
    if id(call) in returned:
        return True
    for assign in ctx.of(ast.Assign):
        if assign.value is call and len(assign.targets) == 1:
            target = assign.targets[0]
            if isinstance(target, ast.Name):
                return any(
                    isinstance(n, ast.Name) and n.id == target.id and id(n) in returned
                    for n in ctx.of(ast.Name)
                )
    return False
