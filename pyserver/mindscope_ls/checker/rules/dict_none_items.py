"""MS1116: a dict holding a Tensor given a None or str value, or indexed at the key None.

Measured with MindSpore 2.10 on CPU (round 36, `dc_`), PyNative runs them: graph mode sets an
item of a dict whose values are Tensors with its own `dict_setitem` only for values it can keep
in the graph (Tensors, numbers, bools, tuples, shapes); a None or a str value, and the key None,
go to the Python fallback, which gets the dict's values as a tuple. So `d = {"a": x}` then
`d["b"] = None` (or `d["a"] = None`, `d["b"] = "s"`, `m = None; d["a"] = m`, in a loop, `d`
built `{}` then given a Tensor first, a comprehension of Tensors) fails when `d` is read after it
(LAX: "TypeError: 'tuple' object does not support item assignment"; STRICT: "When handling
script '__py_exec_index0_setitem__(...)' in graph mode, the inputs should be constant", even
with `d` not read again), and so do `d[None]` and `d[None] = v` on such a dict (LAX: "tuple
indices must be integers or slices, not NoneType"). What compiles: a dict of numbers given None,
`d.update({"a": None})`, None in the display itself (`{"a": x, "m": None}`), None set while the
dict is still empty, `d.get(None)`, a construct input dict given None, and at LAX the store with
`d` not read afterwards. Left alone: `dict(a=x)` (its store compiled at LAX), a dict a helper
returns.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after
from .helpers.receivers import only_binding

TENSOR_DICT_NONE_ITEM = Rule(
    "MS1116",
    "tensor-dict-none-item",
    Group.FAILS,
    title="A dict holding a Tensor given a None or str value, or indexed at the key None",
    message=(
        "`{text}` {what} of `{name}`, a dict holding a Tensor: graph mode hands this to the "
        "Python fallback, which sees the dict's values as a tuple, and compiling fails at "
        "every level; {remedy}."
    ),
    why=(
        "Graph mode keeps a dict of Tensors as keys and a tuple of values. Setting a value it "
        "cannot hold in the graph (None, a str) or using None as a key falls back to Python, "
        "where that tuple cannot be indexed by a key or assigned to."
    ),
    remedy=(
        "Keep the None out of the dict (drop the key, or use `d.get(k)` / a separate flag), "
        "or use a str key instead of None."
    ),
    mindspore_says=(
        "TypeError: 'tuple' object does not support item assignment (STRICT: When handling "
        "script '__py_exec_index0_setitem__(...)' in graph mode, the inputs should be constant)"
    ),
)

_REMEDY_VALUE = "leave the key out of the dict, or keep the None in a variable of its own"
_REMEDY_KEY = "key it with a str (`'none'`) instead of None"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subs: list[ast.Subscript] = [
        s for s in ctx.of(ast.Subscript) if isinstance(s.value, ast.Name) and _suspect(ctx, s)
    ]
    if not subs:
        return
    fn = ctx.fn.node
    for sub in subs:
        assert isinstance(sub.value, ast.Name)
        name = sub.value.id
        if not _holds_tensor_before(ctx, name, sub):
            continue
        none_key = _is_none(ctx, sub.slice)
        if isinstance(sub.ctx, ast.Store):
            stmt = _statement(ctx, sub)
            if stmt is None:
                continue
            if ctx.level != SyntaxLevel.STRICT and loads_after(fn, name, stmt) is None:
                continue  # LAX drops the store when the dict is not read again (measured)
            what = "sets the key None" if none_key else "sets a None or str value"
        elif none_key:
            what = "reads the key None"
        else:
            continue
        yield TENSOR_DICT_NONE_ITEM.finding(
            sub,
            text=ast.unparse(sub),
            what=what,
            name=name,
            remedy=_REMEDY_KEY if none_key else _REMEDY_VALUE,
        )


def _suspect(ctx: FunctionContext, sub: ast.Subscript) -> bool:
    if _is_none(ctx, sub.slice):
        return isinstance(sub.ctx, (ast.Load, ast.Store))
    if not isinstance(sub.ctx, ast.Store):
        return False
    stmt = _statement(ctx, sub)
    return stmt is not None and _none_or_str(ctx, stmt.value)


def _statement(ctx: FunctionContext, sub: ast.Subscript) -> Optional[ast.Assign]:
    """The `d[k] = value` statement of a stored subscript (one target)."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    return next((a for a in assigns if len(a.targets) == 1 and a.targets[0] is sub), None)


def _is_none(ctx: FunctionContext, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Constant):
        return expr.value is None
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        return isinstance(bound, ast.Constant) and bound.value is None
    return False


def _none_or_str(ctx: FunctionContext, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Constant):
        return expr.value is None or isinstance(expr.value, str)
    return _is_none(ctx, expr)


def _holds_tensor_before(ctx: FunctionContext, name: str, node: ast.AST) -> bool:
    """`name` is bound once, to a dict display or comprehension, and holds a Tensor before
    `node`: one of the display's values, or a Tensor stored into it earlier."""
    bound = only_binding(ctx, name)
    if isinstance(bound, ast.Dict):
        if any(k is None for k in bound.keys):
            return False  # `**other`: its values are not known here
        if any(ctx.types.is_tensor(v) for v in bound.values):
            return True
    elif isinstance(bound, ast.DictComp):
        if ctx.types.is_tensor(bound.value):
            return True
    else:
        return False
    start = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == name
            and (assign.end_lineno or 0, assign.end_col_offset or 0) <= start
            and ctx.types.is_tensor(assign.value)
        ):
            return True
    return False
