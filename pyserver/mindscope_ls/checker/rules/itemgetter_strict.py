"""MS227: an `operator.itemgetter(...)` (`attrgetter`, `methodcaller`) applied to graph values
under STRICT.

Measured with MindSpore 2.10 on CPU: STRICT has no graph translation for `operator.itemgetter`
and runs the call as a script, whose inputs must be constants ("When handling script
'__call_func_str__(__input_0__,) in graph mode', the inputs should be constant"):
`operator.itemgetter(1)(x)`, `g = itemgetter(0); g([x, x + 1])` and a module-level
`GET = operator.itemgetter(0, 2)` applied to a Tensor fail, naming the call. LAX runs them in
Python and compiles; STRICT folds an itemgetter of constants (`itemgetter(1)((2, 3))`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .calls_shared import local_names
from .helpers import receivers
from .helpers.base import FunctionContext

ITEMGETTER_UNDER_STRICT = Rule(
    "MS227",
    "itemgetter-strict",
    Group.STRICT,
    title="`operator.itemgetter(...)` (`attrgetter`, `methodcaller`) applied to graph values "
    "under STRICT",
    message=(
        "STRICT cannot call `{getter}` on `{arg}`, which is not a constant; index the value "
        "directly or use the default LAX level."
    ),
    why=(
        "STRICT has no graph translation for `operator.itemgetter`; it runs the call as a "
        "script that takes constants only."
    ),
    remedy="Index the value directly (`x[1]`, `(x[0], x[2])`), or use the LAX level.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant"
    ),
)

# `attrgetter` / `methodcaller` are run the same way (measured round 36: `operator.attrgetter(
# 'shape')(x)`, `operator.methodcaller('sum')(x)` fail under STRICT)
GETTERS = frozenset({"operator.itemgetter", "operator.attrgetter", "operator.methodcaller"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level != SyntaxLevel.STRICT:
        return
    for call in ctx.of(ast.Call):
        if not isinstance(call, ast.Call) or len(call.args) != 1 or call.keywords:
            continue
        getter = _getter(ctx, call.func)
        if getter is None or not _graph_value(ctx, call.args[0]):
            continue
        yield ITEMGETTER_UNDER_STRICT.finding(
            call, getter=ast.unparse(getter), arg=ast.unparse(call.args[0])
        )


def _getter(ctx: FunctionContext, func: ast.expr) -> Optional[ast.expr]:
    """The `operator.itemgetter(...)` call `func` is, or a local or module name bound once to."""
    if isinstance(func, ast.Name):
        bound = receivers.only_binding(ctx, func.id)
        if bound is None and func.id not in local_names(ctx.fn.node):
            bound = _module_binding(ctx, func.id)
        if bound is None:
            return None
        func = bound
    if isinstance(func, ast.Call) and ctx.fn.module.qualname(func.func) in GETTERS:
        return func
    return None


def _module_binding(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    tree = ctx.fn.module.tree
    if tree is None:
        return None
    bound = [
        s.value
        for s in tree.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    return bound[0] if len(bound) == 1 else None


def _graph_value(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A Tensor, or a written-out tuple or list holding one (or a local bound only to one:
    `t = (x, x * 2); itemgetter(1)(t)`, measured round 36)."""
    if isinstance(expr, ast.Name) and not ctx.types.is_tensor(expr):
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, (ast.Tuple, ast.List)):
            expr = bound
    if isinstance(expr, (ast.Tuple, ast.List)):
        return any(_graph_value(ctx, e) for e in expr.elts)
    return ctx.types.is_tensor(expr)
