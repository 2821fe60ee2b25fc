"""MS1065: a tuple or list of Cells or functions indexed by an int64 Tensor in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (PyNative indexes a
Python tuple or list with a one-element Tensor through `__index__`): graph mode compiles a
tuple or list of Cells or functions indexed by a Tensor to `switch_layer`, whose index must be
an int32 Tensor; an int64 one fails at every level ("switch_layer index must be an int32, but
got Int64"). Measured to fail: `self.layers[i](x)` with `self.layers = (nn.ReLU(), nn.Tanh())`
(a tuple, a list, a list comprehension of Cells, a tuple of `ops.relu`-style functions) and `i`
an `ops.argmax(...)` result, `argmax(...) % 2`, `(cond).astype(ms.int64)`, `Tensor(1)`, a
`construct` parameter its caller passes `Tensor(1)` / `Tensor(np.array(1))` for, a local
`fs = (ops.relu, ops.tanh)` in a `@ms.jit` function, `f = self.layers[i]; f(x)`. Compiles: the
same with an int32 index (`.astype(ms.int32)`, `ops.argmin`, `Tensor(1, ms.int32)`,
`ops.cast(..., ms.int32)`), a Python int or `mutable(1)` index, `int(t)`, a dict of Cells, and a
tuple of Tensors indexed by an int64 Tensor (no switch). An index of unknown dtype is left
alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

CELL_SWITCH_INT64_INDEX = Rule(
    "MS1065",
    "cell-switch-int64-index",
    Group.FAILS,
    title="A tuple or list of Cells or functions indexed by an int64 Tensor in compiled code",
    message=(
        "`{item}` picks one of the {what} with the int64 Tensor `{index}`; graph mode compiles "
        "that to `switch_layer`, which takes an int32 index only (fails at every level); cast "
        "it first: `{index_cast}`."
    ),
    why=(
        "Graph mode selects among Cells or functions by a Tensor index with `switch_layer`, "
        "whose index must be an int32 Tensor; `argmax` and `Tensor(1)` give int64."
    ),
    remedy="Cast the index to int32 (`i.astype(ms.int32)`) or index with a Python int.",
    mindspore_says="ValueError: switch_layer index must be an int32, but got Int64",
)

_CELL_LIST = "mindspore.nn.CellList"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subscripts = [
        s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.ctx, ast.Load) and not isinstance(s.slice, (ast.Slice, ast.Constant))
    ]
    if not subscripts:
        return
    values = None
    for node in subscripts:
        index = node.slice
        if not ctx.types.is_tensor(index):
            continue
        what = _callables(ctx, node.value)
        if what is None:
            continue
        if values is None:
            values = abstract(ctx, module=True)
        if values.dtype(index) != "int64":
            continue
        text = ast.unparse(index)
        simple = isinstance(index, (ast.Name, ast.Call, ast.Attribute, ast.Subscript))
        cast = f"{text}.astype(ms.int32)" if simple else f"({text}).astype(ms.int32)"
        yield CELL_SWITCH_INT64_INDEX.finding(
            node, item=ast.unparse(node), what=what, index=text, index_cast=cast
        )


def _callables(ctx: FunctionContext, seq: ast.expr) -> Optional[str]:
    """What `seq` holds when it is a tuple or list of Cells or functions: a `self.<attr>`
    assigned one in `__init__` (or an nn.CellList), or a local bound once to a written-out
    tuple or list of functions."""
    held = receivers.self_attr(ctx, seq)
    if held is not None:
        if held.kind == "cell" and held.class_qualname == _CELL_LIST:
            return "Cells of the CellList"
        node = held.node
        if held.kind == "cell":
            return None
        if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
            module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
            kinds = {_callable(ctx, module, e) for e in node.elts}
            if None in kinds:
                return None
            return "Cells" if kinds == {"cell"} else "functions"
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            module = ctx.fn.cls.module if ctx.fn.cls is not None else ctx.fn.module
            kind = _callable(ctx, module, node.elt)
            return None if kind is None else ("Cells" if kind == "cell" else "functions")
        return None
    if isinstance(seq, ast.Name):
        bound = receivers.only_binding(ctx, seq.id)
        if isinstance(bound, (ast.Tuple, ast.List)) and bound.elts:
            module = ctx.fn.module
            if all(_callable(ctx, module, e) == "function" for e in bound.elts):
                return "functions"
    return None


def _callable(ctx: FunctionContext, module: object, elt: ast.expr) -> Optional[str]:
    """ "cell" for a Cell made by a call of a Cell class, "function" for a functional op
    named (`ops.relu`), else None."""
    if isinstance(elt, ast.Call):
        qualname = names.callee(module, elt)  # type: ignore[arg-type]
        if names.is_cell_qualname(qualname):
            return "cell"
        info = ctx.classes.resolve(qualname)
        return "cell" if info is not None and info.is_cell else None
    if isinstance(elt, (ast.Name, ast.Attribute)):
        qualname = module.qualname(elt)  # type: ignore[attr-defined]
        if names.is_ops_call(qualname):
            return "function"
    return None
