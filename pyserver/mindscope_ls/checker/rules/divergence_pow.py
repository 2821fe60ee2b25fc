"""MS334, MS209: the builtin `pow(base, exp, mod)` with a modulus in compiled code.

Measured with MindSpore 2.10 on CPU against PyNative: graph mode's `pow` takes the base and the
exponent only and drops the modulus without an error, at LAX and STRICT (`pow(7, 3, 5)` is 344
in GRAPH_MODE, 4 in PyNative; `pow(2, 10, mod=7)` 1024 (2); `pow(n, 2, 5)` with
`n = x.shape[0]` 9 (4)): a silent divergence (MS334). Under STRICT a base or exponent computed
in the graph (`pow(t.item(), 3, 5)`) fails instead ("When handling script '__input_key_0__ **
__input_key_1__ in graph mode', the inputs should be constant", MS209); LAX runs it, without
the modulus. `pow(a, b)` with two arguments agrees with PyNative at both levels, and so does
`(a ** b) % m`. Python allows the modulus for ints only, so every program PyNative runs passes
ints here; constants whose power is already below the modulus give the same result.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

POW_MODULUS_DROPPED = Rule(
    "MS334",
    "pow-modulus-dropped",
    Group.DIVERGES,
    title="`pow(base, exp, mod)` with a modulus in compiled code",
    message=(
        "`{call}` is compiled as `{base} ** {exp}`{values}: graph mode's `pow` drops the "
        "modulus `{mod}` (PyNative applies it); write `({base} ** {exp}) % {mod}`."
    ),
    why=(
        "Graph mode's `pow` takes a base and an exponent only; a third argument is ignored, so "
        "the result is `base ** exp`, not `base ** exp % mod` (measured on 2.10: `pow(7, 3, 5)` "
        "is 344 in GRAPH_MODE, 4 in PyNative)."
    ),
    remedy="Apply the modulus explicitly: `(base ** exp) % mod`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

POW_MODULUS_STRICT = Rule(
    "MS209",
    "pow-modulus-variable-strict",
    Group.STRICT,
    title="`pow(base, exp, mod)` of a value computed in the graph, under STRICT",
    message=(
        "`{call}` takes `{arg}`, computed in the graph: STRICT runs a three-argument `pow` only "
        "on constants; write `({base} ** {exp}) % {mod}`."
    ),
    why=(
        "A `pow` given a modulus is run as an interpreted `**` script under STRICT, whose inputs "
        "must be constants; a number read from a graph Tensor (`t.item()`) is not."
    ),
    remedy="Apply the modulus explicitly: `(base ** exp) % mod`.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ ** __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_0__' to be nonconstant."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if _pow_with_mod(c)]
    if not calls or not calls_shared.builtin(ctx, "pow"):
        return
    for call in calls:
        base, exp, mod = _parts(call)
        if isinstance(mod, ast.Constant) and mod.value is None:
            continue  # `pow(a, b, None)` is `a ** b` in Python too
        if any(ctx.types.is_tensor(a) for a in (base, exp, mod)):
            continue  # PyNative's `pow(tensor, e, m)` fails too ("Failed calling pow")
        values = _values(base, exp, mod)
        if values == "":
            continue  # constants whose power is already below the modulus: same result
        b, e, m = _operand(base), _operand(exp), _operand(mod)
        text = ast.unparse(call)
        computed = next((a for a in (base, exp) if receivers.runtime_scalar(ctx, a)), None)
        if computed is not None:
            arg = ast.unparse(computed)
            yield POW_MODULUS_STRICT.finding(call, call=text, arg=arg, base=b, exp=e, mod=m)
        yield POW_MODULUS_DROPPED.finding(
            call, call=text, values=values or "", base=b, exp=e, mod=m
        )


def _pow_with_mod(call: ast.Call) -> bool:
    """`pow(a, b, m)` or `pow(a, b, mod=m)`; not `*args` / `**kwargs` (unknown)."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "pow"):
        return False
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    keywords = [k.arg for k in call.keywords]
    if None in keywords:
        return False
    return len(call.args) + len(keywords) == 3 and ("mod" in keywords or len(call.args) == 3)


def _parts(call: ast.Call) -> tuple[ast.expr, ast.expr, ast.expr]:
    by_name = {k.arg: k.value for k in call.keywords if k.arg is not None}
    args = list(call.args) + [by_name[k] for k in ("base", "exp", "mod") if k in by_name]
    return args[0], args[1], args[2]


def _values(base: ast.expr, exp: ast.expr, mod: ast.expr) -> Optional[str]:
    """ " (1024; PyNative: 2)" for int constants, "" when both modes agree, None when unknown."""
    a, b, m = (_int(e) for e in (base, exp, mod))
    if a is None or b is None or m is None or b < 0 or m == 0 or b > 64:
        return None
    graph, python = a**b, pow(a, b, m)
    return "" if graph == python else f" ({graph}; PyNative: {python})"


def _int(expr: ast.expr) -> Optional[int]:
    negative = isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub)
    value = expr.operand if isinstance(expr, ast.UnaryOp) and negative else expr
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return -value.value if negative else value.value
    return None


def _operand(expr: ast.expr) -> str:
    """`expr` as an operand of `**` or `%` in the suggested spelling."""
    text = ast.unparse(expr)
    simple = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)
    return text if isinstance(expr, simple) else f"({text})"
