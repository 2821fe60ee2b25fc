"""MS334, MS209: the builtin `pow(base, exp, mod)` with three arguments in compiled code.

Measured with MindSpore 2.10 on CPU against PyNative: graph mode's `pow` drops the modulus and
computes `base ** exp` (`pow(7, 3, 5)` is 344 in GRAPH_MODE at LAX and STRICT, 4 in PyNative;
`pow(x.shape[0], 10, 7)` likewise), a silent divergence (MS334). Under STRICT a base or exponent
computed in the graph (`pow(t.item(), 3, 5)`) fails instead ("When handling script
'__input_key_0__ ** __input_key_1__ in graph mode', the inputs should be constant", MS209);
LAX runs it, without the modulus. `pow(a, b)` with two arguments agrees with PyNative at both
levels (`pow(t.item(), 2)` too), and so does `(a ** b) % m`. `pow(base=..., exp=..., mod=...)`
fails at every level and is left alone (no finding).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

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
        "`{call}` is compiled as `{base} ** {exp}`: graph mode's `pow` drops the modulus "
        "`{mod}` (PyNative applies it); write `({base} ** {exp}) % {mod}`."
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
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id == "pow"
        and len(c.args) == 3
        and not c.keywords
        and not any(isinstance(a, ast.Starred) for a in c.args)
    ]
    if not calls or not calls_shared.builtin(ctx, "pow"):
        return
    for call in calls:
        if any(ctx.types.is_tensor(a) for a in call.args):
            continue  # PyNative's `pow(tensor, e, m)` fails too ("Failed calling pow")
        base, exp, mod = (_operand(a) for a in call.args)
        text = ast.unparse(call)
        computed = next(
            (a for a in call.args[:2] if _computed(ctx, a)),
            None,
        )
        if computed is not None:
            yield POW_MODULUS_STRICT.finding(
                call, call=text, arg=ast.unparse(computed), base=base, exp=exp, mod=mod
            )
        yield POW_MODULUS_DROPPED.finding(call, call=text, base=base, exp=exp, mod=mod)


def _operand(expr: ast.expr) -> str:
    """`expr` as an operand of `**` or `%` in the suggested spelling."""
    text = ast.unparse(expr)
    simple = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)
    return text if isinstance(expr, simple) else f"({text})"


def _computed(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A number read from a Tensor computed in the graph (`t.item()`, `int(t)`), directly or
    through a local bound once."""
    if isinstance(expr, ast.Name):
        expr = receivers.only_binding(ctx, expr.id) or expr
    return isinstance(expr, ast.Call) and ctx.types.is_runtime_test(expr)
