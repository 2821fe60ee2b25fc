"""MS338: `pow(base, exp, mod)` in compiled code: graph mode drops the modulus.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode's `pow`
computes `base ** exp` and ignores a third argument, positional or `mod=` (no error at either
level): `pow(3, 2, 5)` is 9 (PyNative: 4), `pow(mutable(3), 2, 5)` and
`pow(x.shape[0], 2, 2)` and `pow(n, n, 2)` with `n = len(x)` as well. `pow(3, 2, None)` agrees
with PyNative; `pow(t, 2, 5)` of a Tensor `t` fails in PyNative, so it is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names
from .helpers.base import FunctionContext, cacheable

POW_MODULUS = Rule(
    "MS338",
    "pow-modulus-dropped",
    Group.DIVERGES,
    title="Three-argument `pow(base, exp, mod)` in compiled code",
    message=(
        "`{text}` ignores its modulus in graph mode (it computes `base ** exp`, PyNative "
        "`base ** exp % mod`); write `{rewrite}`."
    ),
    why=(
        "Graph mode's `pow` takes a base and an exponent only and silently drops a third "
        "argument (measured on 2.10: `pow(3, 2, 5)` is 9 in GRAPH_MODE at LAX and STRICT, 4 in "
        "PyNative)."
    ),
    remedy="Apply the modulus yourself: `pow(base, exp) % mod` or `base ** exp % mod`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Name) and func.id == "pow"):
            continue
        modulus = _modulus(call)
        if modulus is None or not builtin(ctx, "pow"):
            continue
        if isinstance(modulus, ast.Constant) and modulus.value is None:
            continue  # `pow(a, b, None)` is `a ** b` in both modes
        if _same_anyway(call.args, modulus):
            continue  # `pow(2, 3, 100)`: the modulus changes nothing
        if not call.args or ctx.types.is_tensor(call.args[0]):
            continue  # a Tensor base: PyNative itself rejects the third argument
        base, exp = call.args[0], call.args[1] if len(call.args) > 1 else names.keyword(call, "exp")
        if exp is None:
            continue
        rewrite = f"pow({ast.unparse(base)}, {ast.unparse(exp)}) % {ast.unparse(modulus)}"
        yield POW_MODULUS.finding(call, text=ast.unparse(call), rewrite=rewrite)


def _modulus(call: ast.Call) -> Optional[ast.expr]:
    """The third argument of a `pow` call, positional or `mod=`."""
    if len(call.args) > 2:
        return call.args[2]
    return names.keyword(call, "mod")


def _same_anyway(args: list[ast.expr], modulus: ast.expr) -> bool:
    """Int constants whose power the modulus leaves as it is."""
    values: list[int] = [
        a.value
        for a in (*args[:2], modulus)
        if isinstance(a, ast.Constant) and type(a.value) is int
    ]
    if len(values) != 3:
        return False
    base, exp, mod = values
    if mod == 0 or exp < 0 or exp > 64:
        return False
    return bool(pow(base, exp, mod) == base**exp)
