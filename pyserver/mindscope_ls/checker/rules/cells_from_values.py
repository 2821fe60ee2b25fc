"""MS1029: a Cell created in compiled code from a value that is not a constant while compiling.

Measured with MindSpore 2.10 on CPU (PyNative builds the Cell): graph mode creates a Cell met in
compiled code while compiling, and only from constants, at every level ("When creating an
instance of 'SequentialCell', all arguments are required to be constants, but input 0 is a
variable", at the call). Not constants: a list/tuple/dict display holding Cells
(`nn.SequentialCell([nn.ReLU(), nn.Tanh()])`, `nn.CellList([self.a, self.b])`, a list
comprehension of Cells, `nn.CellDict({"a": nn.ReLU()})`), a list attribute of Cells
(`nn.SequentialCell(self.acts)`), a Tensor computed from the inputs (`Block(None, x)`), and a
Python number read from one (`nn.Dense(3, int(x.sum().item()))`, `nn.Dropout(p=float(n))`). The
same holds for the workspace's own Cell classes. What compiles: Cells given constants
(`nn.Dense(3, 3)`, `nn.LayerNorm((3,))`, `nn.Dense(x.shape[1], 3)`), Cells passed one by one
(`nn.SequentialCell(nn.ReLU(), nn.Tanh())`), an empty `nn.CellList()`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .cell_membership import all_cells_built
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

CELL_FROM_VARIABLE = Rule(
    "MS1029",
    "cell-from-variable",
    Group.FAILS,
    title="A Cell created in compiled code from a value that is not a constant",
    message=(
        "`{cls}` is created while compiling, from constants only, and {arg} is {what}: graph "
        "mode fails at every level; create the Cell in `__init__`{advice}."
    ),
    why=(
        "Graph mode builds a Cell met in compiled code at compile time, so every argument of its "
        "constructor must be a constant; a list holding Cells, a Tensor computed in the graph "
        "or a number read from one is a variable there."
    ),
    remedy=(
        "Create the Cell in `__init__` and call it in `construct`; pass Cells to a "
        "SequentialCell one by one, or keep the container as an attribute."
    ),
    mindspore_says=(
        "TypeError: When creating an instance of 'SequentialCell', all arguments are required to "
        "be constants, but input 0 is a variable"
    ),
)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.ListComp)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    inputs: Optional[set[str]] = None
    for call in calls:
        if not (call.args or call.keywords) or not _cell_class(ctx, call.func):
            continue
        if inputs is None:
            arguments = ctx.fn.node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            inputs = {a.arg for a in every} - {"self"}
        for arg in [*call.args, *(k.value for k in call.keywords if k.arg is not None)]:
            what = _variable(ctx, arg, inputs)
            if what is None:
                continue
            held = what.endswith("holding Cells")
            yield CELL_FROM_VARIABLE.finding(
                call,
                cls=ast.unparse(call.func),
                arg=f"`{ast.unparse(arg)}`",
                what=what,
                advice=" (pass Cells one by one, or keep the container an attribute)"
                if held
                else " and pass the value to its `construct`",
            )
            break


def _cell_class(ctx: FunctionContext, func: ast.expr) -> bool:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return False
    qualname = ctx.fn.module.qualname(func)
    if names.is_primitive_class(qualname):
        return False
    if names.is_cell_qualname(qualname):
        return True
    info = ctx.classes.resolve(qualname)
    return info is not None and info.is_cell


def _variable(ctx: FunctionContext, arg: ast.expr, inputs: set[str]) -> Optional[str]:
    """What makes `arg` a variable while compiling, or None when it may be a constant."""
    if isinstance(arg, _DISPLAYS) and _holds_cells(ctx, arg):
        return "a sequence holding Cells"
    if isinstance(arg, ast.Dict) and any(v is not None and _is_cell(ctx, v) for v in arg.values):
        return "a dict holding Cells"
    held = receivers.self_attr(ctx, arg)
    node = held.node if held is not None else None
    if isinstance(node, (ast.List, ast.Tuple)) and all_cells_built(ctx, node):
        return "a sequence holding Cells"
    if ctx.types.is_tensor(arg):
        # `Tensor(0.0, x.dtype)` reads the input's dtype only: a constant (measured: compiles)
        if _reads_inputs(arg, inputs) and not ctx.types.is_constant_tensor(arg):
            return "a Tensor computed in the graph"
        return None
    if receivers.runtime_scalar(ctx, arg) or _number_of_tensor(ctx, arg, inputs):
        return "a number read from a Tensor when the graph runs"
    return None


def _number_of_tensor(ctx: FunctionContext, arg: ast.expr, inputs: set[str]) -> bool:
    """`int(t)` / `float(t)` (or `t.item()`) of a Tensor read from the inputs, maybe scaled."""
    if isinstance(arg, ast.BinOp):
        sides = (arg.left, arg.right)
        return not any(ctx.types.is_tensor(s) for s in sides) and any(
            _number_of_tensor(ctx, s, inputs) for s in sides
        )
    if not isinstance(arg, ast.Call) or arg.keywords:
        return False
    func = arg.func
    if isinstance(func, ast.Name) and func.id in ("int", "float") and len(arg.args) == 1:
        inner = arg.args[0]
    elif isinstance(func, ast.Attribute) and func.attr == "item" and not arg.args:
        inner = func.value
    else:
        return False
    return (
        _reads_inputs(inner, inputs)
        and ctx.types.is_tensor(inner)
        and not ctx.types.is_constant_tensor(inner)
    )


def _reads_inputs(expr: ast.expr, inputs: set[str]) -> bool:
    """Only a Tensor read from the function's inputs is surely computed in the graph (one
    `ops.zeros(shape)` makes may be folded into a constant); reading an input's `.dtype` or
    `.shape` gives a constant."""
    if isinstance(expr, ast.Attribute) and expr.attr in names.NON_TENSOR_ATTRS:
        return False
    if isinstance(expr, ast.Name):
        return expr.id in inputs
    return any(
        _reads_inputs(child, inputs)
        for child in ast.iter_child_nodes(expr)
        if isinstance(child, ast.expr)
    )


def _holds_cells(ctx: FunctionContext, seq: ast.expr) -> bool:
    if isinstance(seq, ast.ListComp):
        return _is_cell(ctx, seq.elt)
    elts = getattr(seq, "elts", [])
    return any(_is_cell(ctx, e) for e in elts)


def _is_cell(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`nn.ReLU()` / a workspace Cell class called, or `self.<sub-Cell>`."""
    if isinstance(expr, ast.Call):
        return _cell_class(ctx, expr.func)
    return isinstance(expr, (ast.Attribute, ast.Subscript)) and (
        receivers.kind_of(ctx, expr) == receivers.CELL
    )
