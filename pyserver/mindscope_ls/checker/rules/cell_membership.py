"""MS1028: `cell in <Cells>` (or `not in`) in compiled code: a Cell looked up in a sequence of
Cells.

Measured with MindSpore 2.10 on CPU (PyNative answers with identity/equality): `self.act in
(self.a, self.b)`, `layer in self.layers` of a CellList, `self.a in self.acts` of a list or tuple
attribute holding Cells, `self.b in cs` with `cs = [self.a, self.b]`, and `layer in (self.a,)`
for a loop variable over a CellList or a SequentialCell, fail at every level: graph mode hands
the test to its Python fallback, which cannot carry Cells (LAX: "Unsupported element
type[unknown] to set element data type for KernelTensor", no line named; STRICT: "When handling
script '__input_key_0__ in __input_key_1__ in graph mode', the inputs should be constant", at
the test). What compiles: a Cell looked up in a SequentialCell (`self.a in self.seq`), in a
tuple of classes (`self.a in (nn.ReLU, nn.GELU)`), a str or a Tensor tested against a CellList,
`'a' in self.cell_dict`, `isinstance(layer, nn.Dense)`. A Cell in a list mixing Cells and None
compiles at LAX (left alone here).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

CELL_IN_CELLS = Rule(
    "MS1028",
    "cell-in-cells",
    Group.FAILS,
    title="A Cell looked up with `in` in a sequence of Cells in compiled code",
    message=(
        "`{expr}` looks the Cell `{cell}` up in {what}: graph mode hands that test to its "
        "Python fallback, which cannot carry Cells, and fails at every level; decide it in "
        "`__init__` and keep a bool (or an index) attribute."
    ),
    why=(
        "Cells are not graph values: a membership test among Cells has no graph translation, "
        "LAX's fallback cannot build its inputs, and STRICT needs them constant."
    ),
    remedy=(
        "Compare in `__init__` (`self.is_shared = self.act in self.acts`) and test the bool in "
        "`construct`, or use `isinstance(cell, Cls)`."
    ),
    mindspore_says=(
        "RuntimeError: Unsupported element type[unknown] to set element data type for "
        "KernelTensor. (STRICT: When handling script '__input_key_0__ in __input_key_1__ in "
        "graph mode', the inputs should be constant)"
    ),
)
_CELL_LIST = "mindspore.nn.CellList"
# Loop variables over these are Cells (a SequentialCell iterated gives its Cells).
_ITERATED = frozenset({_CELL_LIST, "mindspore.nn.SequentialCell"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None or not ctx.fn.cls.is_cell:
        return
    for compare in receivers.membership_tests(ctx):
        left, right = compare.left, compare.comparators[0]
        if not _is_cell(ctx, left):
            continue
        what = _cells(ctx, right)
        if what is not None:
            yield CELL_IN_CELLS.finding(
                compare, expr=ast.unparse(compare), cell=ast.unparse(left), what=what
            )


def _is_cell(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.<sub-Cell>`, an item of a Cell container, or a loop variable over Cells."""
    if isinstance(expr, ast.Name) and expr.id != "self":
        return _loop_over_cells(ctx, expr.id)
    return isinstance(expr, (ast.Attribute, ast.Subscript)) and (
        receivers.kind_of(ctx, expr) == receivers.CELL
    )


def _loop_over_cells(ctx: FunctionContext, name: str) -> bool:
    """Every binding of `name` is the target of a `for` over a CellList/SequentialCell
    attribute or over a display of Cells."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    loops = [f for f in ctx.of(ast.For) if isinstance(f.target, ast.Name) and f.target.id == name]
    if not stores or len(stores) != len(loops):
        return False
    for loop in loops:
        held = receivers.self_attr(ctx, loop.iter)
        if held is not None and held.kind == "cell" and held.class_qualname in _ITERATED:
            continue
        if isinstance(loop.iter, (ast.Tuple, ast.List)) and _all_cells_here(ctx, loop.iter):
            continue
        return False
    return True


def _cells(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """What `expr` is when it is a sequence holding Cells only (a CellList attribute, a display
    of Cells, a local or a `self.<attr>` bound to one); None otherwise."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return f"a {_display_kind(expr)} of Cells" if _all_cells_here(ctx, expr) else None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, (ast.Tuple, ast.List)) and _all_cells_here(ctx, bound):
            return f"`{expr.id}`, a {_display_kind(bound)} of Cells"
        return None
    held = receivers.self_attr(ctx, expr)
    name = receivers.self_attr_name(expr)
    if held is None or name is None:
        return None
    if held.kind == "cell" and held.class_qualname == _CELL_LIST:
        return f"the CellList `self.{name}`"
    node = held.node
    if isinstance(node, (ast.Tuple, ast.List)) and all_cells_built(ctx, node):
        return f"`self.{name}`, a {_display_kind(node)} of Cells"
    return None


def _display_kind(node: ast.expr) -> str:
    return "tuple" if isinstance(node, ast.Tuple) else "list"


def _all_cells_here(ctx: FunctionContext, seq: ast.Tuple | ast.List) -> bool:
    """A display in the compiled function whose items are all Cells."""
    return bool(seq.elts) and all(
        isinstance(e, (ast.Attribute, ast.Subscript))
        and receivers.kind_of(ctx, e) == receivers.CELL
        for e in seq.elts
    )


def all_cells_built(ctx: FunctionContext, seq: ast.Tuple | ast.List) -> bool:
    """A display `__init__` assigns whose items are all Cells: `nn.ReLU()`, a workspace Cell
    class called, or `self.<sub-Cell>`."""
    if not seq.elts:
        return False
    for e in seq.elts:
        if isinstance(e, ast.Call):
            qualname = ctx.fn.module.qualname(e.func)
            info = ctx.classes.resolve(qualname)
            known = names.is_cell_qualname(qualname) and not names.is_primitive_class(qualname)
            if not (known or (info is not None and info.is_cell)):
                return False
        elif receivers.kind_of(ctx, e) != receivers.CELL:
            return False
    return True
