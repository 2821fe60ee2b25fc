"""MS309: Python values STRICT turns into something else in a Cell's graph.

Measured with MindSpore 2.10 on CPU (each against PyNative): under STRICT a dict in what a
Cell's `construct` hands back (alone, or inside the output tuple/list, or nested) comes out as
the tuple of its values, its keys lost (`{'a': x}` -> `(x,)`, `{}` -> `()`); and an f-string
that formats a Tensor in a Cell's method (construct, a method it calls) becomes an int64
Tensor of garbage (returned or printed); so does one formatting a number read from a Tensor
(round 32: `f'v={x.item()}'`, `f'n={int(x)}'`, `f'{float(x)}'`, `v = x.item(); f'{v}'`, returned
or printed, gave `Tensor(shape=[1], dtype=Int64, value=[0])`; `f'{x.shape[0]}'` and
`f'{x.dtype}'` keep their text). LAX keeps both as PyNative does, and so does an
`@ms.jit` function at either level, which is why only Cells are judged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers, shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, within
from .helpers.flow import SCOPES

STRICT_CONVERTS_VALUE = Rule(
    "MS309",
    "strict-converts-value",
    Group.DIVERGES,
    title="STRICT turns a dict output or a Tensor f-string into something else",
    message=("Under STRICT {what} {becomes} (PyNative and LAX keep it); {instead}."),
    why=(
        "STRICT compiles a Cell's graph without the Python fallback: a dict in the graph's output "
        "is handed back as the tuple of its values (GRAPH_MODE returned (x,) where PyNative "
        "returned {'a': x}), and an f-string of a Tensor is built as an int64 Tensor instead of "
        "a str (GRAPH_MODE returned Tensor([7958535042260098911]) where PyNative returned "
        "'value [[1. -2. 3.]]')."
    ),
    remedy=(
        "Return a tuple of Tensors and name its items outside the graph; format Tensors outside "
        "`construct` (or print them with `print('value', x)`); or use the default LAX level."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

DICT_INSTEAD = "return a tuple and build the dict outside the graph, or use LAX"
FILLS = frozenset({"update", "setdefault"})
FSTRING_INSTEAD = "pass the Tensor itself (`print('value', x)`) or format it outside the graph"


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether a construct is the graph's entry depends on its callers.
    cls = ctx.fn.cls
    if ctx.level != SyntaxLevel.STRICT or cls is None or not cls.is_cell:
        return
    yield from _tensor_fstrings(ctx)
    if ctx.fn.caller is None and ctx.fn.node.name == "construct":
        yield from _dict_outputs(ctx)


def _tensor_fstrings(ctx: FunctionContext) -> Iterator[RawFinding]:
    strings: list[ast.JoinedStr] = ctx.of(ast.JoinedStr)
    if not strings:
        return
    raised = [s for s in ctx.of(ast.Raise, ast.Assert)]  # error texts: never built normally
    for text in strings:
        if any(within(r, [text]) for r in raised):
            continue
        parts = [v.value for v in text.values if isinstance(v, ast.FormattedValue)]
        tensor = any(ctx.types.is_tensor(p) for p in parts)
        if tensor or any(receivers.runtime_scalar(ctx, p) for p in parts):
            yield STRICT_CONVERTS_VALUE.finding(
                text,
                what=(
                    "an f-string that formats a Tensor"
                    if tensor
                    else "an f-string that formats a number read from a Tensor"
                ),
                becomes="is built as an int64 Tensor, not a str",
                instead=FSTRING_INSTEAD,
            )


def _dict_outputs(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Once per graph (its returns are joined into one output), at the last return holding a
    dict, placed where that dict gets its last keys."""
    values: Optional[Abstract] = None
    for ret in reversed(_own_returns(ctx)):
        if ret.value is None:
            continue
        if values is None:
            values = shared_values.abstract(ctx, module=True)
        kwarg = ctx.fn.node.args.kwarg
        found = _dict_in(values, ret.value, kwarg.arg if kwarg is not None else None)
        if found is not None:
            where, held = found
            yield STRICT_CONVERTS_VALUE.finding(
                _made_at(ctx, held, ret) if held is not None else ret,
                what=f"{where} `construct` returns",
                becomes="leaves the graph as the tuple of its values, without its keys",
                instead=DICT_INSTEAD,
            )
            return


def _made_at(ctx: FunctionContext, name: ast.Name, ret: ast.Return) -> ast.AST:
    """The statement that last gives the local dict `name` its keys before `ret`: its one
    binding, or an item write or `update`/`setdefault` call after it; the return itself when
    the name is bound on several paths."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    bound = [
        a for a in assigns if any(isinstance(t, ast.Name) and t.id == name.id for t in a.targets)
    ]
    stores: list[ast.Name] = ctx.of(ast.Name)
    if (
        len(bound) != 1
        or sum(1 for n in stores if n.id == name.id and isinstance(n.ctx, ast.Store)) != 1
    ):
        return ret
    last: ast.AST = bound[0]
    start, end = _position(bound[0]), _position(ret)
    for stmt in ctx.of(ast.Assign, ast.Expr):
        if start < _position(stmt) < end and _fills(stmt, name.id):
            last = max(last, stmt, key=_position)
    return last


def _fills(stmt: ast.stmt, name: str) -> bool:
    """`name[k] = v`, `name.update(...)`, `name.setdefault(...)`."""
    if isinstance(stmt, ast.Assign):
        return any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
            for t in stmt.targets
        )
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in FILLS
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == name
    )


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _own_returns(ctx: FunctionContext) -> list[ast.Return]:
    found: list[ast.Return] = ctx.of(ast.Return)
    nested = [n for n in ctx.of(*SCOPES) if n is not ctx.fn.node]
    return [r for r in found if not any(within(n, [r]) for n in nested)]


def _dict_in(
    values: Abstract, expr: ast.expr, kwarg: Optional[str] = None
) -> Optional[tuple[str, Optional[ast.Name]]]:
    """('the dict', name) when `expr` is a dict on every path, ('a dict inside what', name)
    when its tuple or list holds one (with the local that holds it, if one does), else None:
    unknown values say nothing. `kwarg` names the `**kwargs` parameter, a dict (measured,
    round 35: `return kwargs` and `return x, kwargs` under STRICT gave tuples of the values)."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        for element in expr.elts:
            inner = None if isinstance(element, ast.Starred) else _dict_in(values, element, kwarg)
            if inner is not None:
                return "a dict inside what", inner[1]
        return None
    held = expr if isinstance(expr, ast.Name) else None
    if values.kind(expr) == "dict" or (held is not None and held.id == kwarg):
        return "the dict", held
    value = values.of(expr)
    if value is not None and _holds_dict(value):
        return "a dict inside what", None
    return None


def _holds_dict(value: Value) -> bool:
    return value.items is not None and any(
        v is not None and (v.kind == "dict" or _holds_dict(v)) for v in value.items
    )
