"""MS336: the builtin `pow(base, exp, mod)` in compiled code: graph mode drops the modulo.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: `pow(2, 10, 7)` gave
1024 in GRAPH_MODE (PyNative: 2), `pow(5, 3, 13)` 125 (8), `pow(2, 10, mod=7)` 1024 and
`pow(n, 2, 5)` with `n = x.shape[0]` 9 (4), with no error at either level: graph mode's `pow`
takes the base and the exponent only. `2 ** 10 % 7` gives 2 in both modes. Python allows the
third argument for ints only, so every program PyNative runs passes ints here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers.base import FunctionContext, cacheable

POW_MODULO_DROPPED = Rule(
    "MS336",
    "pow-modulo-dropped",
    Group.DIVERGES,
    title="`pow(base, exp, mod)` in compiled code: the modulo is ignored",
    message=(
        "`{text}` passes a modulo to `pow()`: graph mode ignores it and computes "
        "`{base} ** {exp}`{values}; write `({base} ** {exp}) % {mod}`."
    ),
    why=(
        "Graph mode's `pow` takes only the base and the exponent, so the third argument is "
        "dropped without an error (measured on 2.10: `pow(2, 10, 7)` is 1024 in GRAPH_MODE, "
        "2 in PyNative)."
    ),
    remedy="Take the remainder with `%`: `(base ** exp) % mod`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if isinstance(c, ast.Call) and _pow_with_mod(c)]
    if not calls or not builtin(ctx, "pow"):
        return
    for call in calls:
        base, exp, mod = _parts(call)
        if ctx.types.is_tensor(base):
            continue  # PyNative refuses a Tensor with a modulo too: not a divergence
        values = _values(base, exp, mod)
        if values == "":
            continue  # constants whose power is already below the modulo: same result
        yield POW_MODULO_DROPPED.finding(
            call,
            text=ast.unparse(call),
            base=_operand(base),
            exp=_operand(exp),
            mod=_operand(mod),
            values=values or "",
        )


def _pow_with_mod(call: ast.Call) -> bool:
    if not (isinstance(call.func, ast.Name) and call.func.id == "pow"):
        return False
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    keywords = [k.arg for k in call.keywords]
    if None in keywords:
        return False  # `**kwargs`: unknown
    return len(call.args) + len(keywords) == 3 and ("mod" in keywords or len(call.args) == 3)


def _parts(call: ast.Call) -> tuple[ast.expr, ast.expr, ast.expr]:
    by_name = {k.arg: k.value for k in call.keywords if k.arg is not None}
    args = list(call.args) + [by_name[k] for k in ("base", "exp", "mod") if k in by_name]
    return args[0], args[1], args[2]


def _values(base: ast.expr, exp: ast.expr, mod: ast.expr) -> Optional[str]:
    """ " (1024; PyNative: 2)" for int constants, "" when both agree, None when unknown."""
    numbers = [_int(e) for e in (base, exp, mod)]
    a, b, m = numbers
    if a is None or b is None or m is None or b < 0 or m == 0 or b > 64:
        return None
    graph, python = a**b, pow(a, b, m)
    if graph == python:
        return ""
    return f" ({graph}; PyNative: {python})"


def _int(expr: ast.expr) -> Optional[int]:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if (
        isinstance(expr, ast.UnaryOp)
        and isinstance(expr.op, ast.USub)
        and isinstance(expr.operand, ast.Constant)
        and type(expr.operand.value) is int
    ):
        return -expr.operand.value
    return None


def _operand(expr: ast.expr) -> str:
    text = ast.unparse(expr)
    return text if isinstance(expr, (ast.Name, ast.Constant, ast.Attribute)) else f"({text})"
