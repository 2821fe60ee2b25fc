"""MS258, MS375: a number an `IfExp` picks from two types (int / float, bool / int) under a
Tensor condition.

Measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/round32/sj_*`, each ran in
PyNative): `s = 1 if x.sum() > 0 else 0.5` (or `True if ... else 0`) compiles at LAX wherever
`s` goes except a bare `return s` (MS112). Under STRICT the joined number is left to the
Python fallback, and the first Python operator or builtin applied to it fails: `x * s`,
`x / s`, `x ** s`, `x > s`, `s + 1`, `x * int(s)`, `x * (1 if t else 0.5)` ("When handling
script '__input_key_0__ * __input_key_1__ in graph mode', the inputs should be constant").
Given to ops (`ops.mul(x, s)`, `ops.fill(.., s)`, `ops.full(.., s)`) it compiles, and so
does the same join written as `if` / `else` statements (`number_joins`).

Returned inside a tuple or list (`return x, s`, `return [s]`) it compiles at both levels, but
comes back as a 0-d Tensor (`Tensor(1, Int64)`, `Tensor(True, Bool)`) where PyNative returns
the Python number (MS375); the `if`/`else` statement form fails to join there instead (MS112).
Both follow the number into a helper (round 34, `sh_`): `self.twice(s)` whose `v * 2` fails
STRICT at the call, and `return x, self.keep(s)` of a helper returning `v` diverges alike.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, number_joins
from .helpers.base import FunctionContext, cacheable
from .helpers.kinds import SCALARS, Clash, clash
from .helpers.module_values import note_read
from .helpers.shared_values import abstract
from .helpers.walk import of_type
from .joins import runtime_test

MIXED_NUMBER_OPERATOR_UNDER_STRICT = Rule(
    "MS258",
    "mixed-number-ifexp-operator-under-strict",
    Group.STRICT,
    title="A Python operator on a number an `IfExp` picks from two types, under STRICT",
    message=(
        "`{text}` applies a Python operator to `{value}`, which is a {left} or a {right} "
        "chosen by a Tensor condition; under jit_syntax_level=STRICT that value is left to "
        "the Python fallback, which refuses it here: give both branches the same type (e.g. "
        "`1.0 if t else 0.5`)."
    ),
    why=(
        "The two branches of a conditional expression on a Tensor are compiled and joined; "
        "numbers of two types (int and float, bool and int) do not join into one graph "
        "scalar, so STRICT keeps the value as a Python object, and the operator that then "
        "needs it as a constant fails. LAX evaluates it in its fallback; ops accept it."
    ),
    remedy=(
        "Write both branches with the same type (`1.0 if t else 0.5`), or use an `if` / "
        "`else` statement, or apply ops (`ops.mul(x, s)`) instead of Python operators."
    ),
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ * __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_1__' to be nonconstant."
    ),
)


NUMBER_RETURNED_AS_TENSOR = Rule(
    "MS375",
    "mixed-number-ifexp-returned-as-tensor",
    Group.DIVERGES,
    title="A number an `IfExp` picks from two types, returned in a tuple or list",
    message=(
        "`{value}` is a {left} or a {right} chosen by a Tensor condition and returned in a "
        "{display}: graph mode returns it as a 0-d Tensor where PyNative returns the Python "
        "number; give both branches the same type."
    ),
    why=(
        "Numbers of two types do not join into one graph scalar, so the joined value is kept "
        "as a Tensor; returned beside other outputs it reaches the caller as a 0-d Tensor "
        "(measured on 2.10: `(x, Tensor(1, Int64))` where PyNative gives `(x, 1)`)."
    ),
    remedy=(
        "Write both branches with the same type (`1.0 if t else 0.5`), or return a Tensor on "
        "purpose."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for node, bound, found in _mixed_numbers(ctx):
        yield from _python_use(ctx, node, bound, found)  # information at LAX, as for MS2xx
        yield from _returned_in_display(ctx, node, bound, found)


def _mixed_numbers(ctx: FunctionContext) -> Iterator[tuple[ast.IfExp, Optional[str], Clash]]:
    """Each `IfExp` on a Tensor condition whose branches are numbers of two types, with the name
    it is bound to (once)."""
    tests = [n for n in ctx.of(ast.IfExp) if runtime_test(ctx, n.test)]
    values = abstract(ctx, module=True) if tests else None
    for node in tests:
        found = clash(values, node.body, node.orelse) if values is not None else None
        if found is not None and {found.left, found.right} <= SCALARS:
            yield node, _bound_name(ctx, node), found


def _returned_in_display(
    ctx: FunctionContext, node: ast.IfExp, bound: Optional[str], found: Clash
) -> Iterator[RawFinding]:
    returns: list[ast.Return] = ctx.of(ast.Return)
    if not any(isinstance(r.value, (ast.Tuple, ast.List)) for r in returns):
        return
    # `return x, self.keep(s)` of a helper that returns `s` as it is: measured the same
    passed_back = (
        {id(c) for c, h, p in _helper_calls(ctx, bound) if _returns_param(h, p)}
        if bound is not None
        else set()
    )
    for ret in returns:
        value = ret.value
        if not isinstance(value, (ast.Tuple, ast.List)):
            continue
        for item in value.elts:
            if (
                item is node
                or (bound is not None and isinstance(item, ast.Name) and item.id == bound)
                or id(item) in passed_back
            ):
                yield NUMBER_RETURNED_AS_TENSOR.finding(
                    item,
                    related=[ctx.related(node, "the number chosen by a Tensor condition")],
                    value=bound or names.short(node),
                    left=found.left,
                    right=found.right,
                    display="tuple" if isinstance(value, ast.Tuple) else "list",
                )


def _python_use(
    ctx: FunctionContext, node: ast.IfExp, bound: Optional[str], found: Clash
) -> Iterator[RawFinding]:
    use = number_joins.first_python_use(ctx.fn.node, node, bound)
    if use is None and bound is not None:
        use = next((c for c, h, p in _helper_calls(ctx, bound) if _operator_on(h, p)), None)
    if use is not None:
        yield MIXED_NUMBER_OPERATOR_UNDER_STRICT.finding(
            use,
            related=[ctx.related(node, "the number chosen by a Tensor condition")],
            text=names.short(use),
            value=bound or names.short(node),
            left=found.left,
            right=found.right,
        )


def _helper_calls(ctx: FunctionContext, name: str) -> Iterator[tuple[ast.Call, FunctionNode, str]]:
    """Calls in the function that pass `name` to a helper (a method called through `self`, a
    module function), with the helper and the parameter that receives it."""
    for call in ctx.of(ast.Call):
        index = next(
            (i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == name), None
        )
        helper = _helper(ctx, call.func) if index is not None else None
        if helper is None or index is None or helper.args.vararg is not None:
            continue
        params = [a.arg for a in helper.args.args][1 if _is_method(call.func) else 0 :]
        if index < len(params):
            for line in range(helper.lineno, (helper.end_lineno or helper.lineno) + 1):
                note_read(ctx.lines, line)  # the finding depends on the helper's text too
            yield call, helper, params[index]


def _is_method(func: ast.expr) -> bool:
    return names.self_attribute(func) is not None


def _helper(ctx: FunctionContext, func: ast.expr) -> Optional[FunctionNode]:
    method = names.self_attribute(func)
    if method is not None:
        return ctx.fn.cls.own_method(method) if ctx.fn.cls is not None else None
    return ctx.fn.module.functions.get(func.id) if isinstance(func, ast.Name) else None


def _operator_on(helper: FunctionNode, param: str) -> bool:
    """The helper applies a Python operator to its parameter `param` (never rebound there):
    measured at STRICT, `self.twice(s)` whose `v * 2` (`v > 0.7`, `self.k * v`) refuses the
    joined number, and MindSpore names the call; LAX compiles."""
    reads = [n for n in of_type(helper, ast.Name) if n.id == param]
    if not reads or any(not isinstance(n.ctx, ast.Load) for n in reads):
        return False
    return number_joins.first_python_use(helper, reads[0], param) is not None


def _returns_param(helper: FunctionNode, param: str) -> bool:
    """Every `return` of the helper gives its parameter `param` as it is."""
    returns: list[ast.Return] = of_type(helper, ast.Return)
    return bool(returns) and all(
        isinstance(r.value, ast.Name) and r.value.id == param for r in returns
    )


def _bound_name(ctx: FunctionContext, node: ast.IfExp) -> Optional[str]:
    """`name = <IfExp>`, when that is the function's only binding of the name."""
    for assign in ctx.of(ast.Assign):
        target = assign.targets[0]
        if assign.value is node and len(assign.targets) == 1 and isinstance(target, ast.Name):
            stores = [
                n for n in ctx.of(ast.Name) if n.id == target.id and not isinstance(n.ctx, ast.Load)
            ]
            return target.id if len(stores) == 1 else None
    return None
