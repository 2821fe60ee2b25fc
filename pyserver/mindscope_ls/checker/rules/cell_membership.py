"""MS1028: `cell in <Cells>` (or `not in`) in compiled code: a Cell looked up in a sequence of
Cells. MS1030: `self.cells()` / `self.name_cells()` of a Cell holding two sub-Cells or more.

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

MS1030: `Cell.name_cells()` (which `cells()` calls) skips repeated Cells with `cell not in
value_set`, and compiled code runs it: with two sub-Cells or more the second test is a Cell
looked up among Cells and fails at every level (LAX: "The pointer[node] is null", no line named;
STRICT: "__py_exec_index0_setitem__(...) ... the inputs should be constant", at the call), called
on `self` or on a sub-Cell (a SequentialCell of two Cells). With one sub-Cell or none it compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo

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
SUB_CELLS_LISTED = Rule(
    "MS1030",
    "sub-cells-listed-in-graph",
    Group.FAILS,
    title="`cells()` / `name_cells()` of a Cell with several sub-Cells in compiled code",
    message=(
        "`{call}` lists the sub-Cells of {owner} ({count} of them), and compiled code runs its "
        "`cell not in value_set` test among Cells, which fails at every level; call the "
        "sub-Cells by their attributes, or keep them in a CellList built in `__init__`."
    ),
    why=(
        "`Cell.name_cells()` (and `cells()`, which calls it) skips repeated Cells with a "
        "membership test among Cells; graph mode has no translation for one."
    ),
    remedy=(
        "Keep the sub-Cells to run in an `nn.CellList` (or SequentialCell) built in `__init__` "
        "and iterate that, or list them once in `__init__`."
    ),
    mindspore_says=(
        "RuntimeError: The pointer[node] is null. (STRICT: When handling script "
        "'__py_exec_index0_setitem__(...)' in graph mode, the inputs should be constant)"
    ),
)
_LISTING = frozenset({"cells", "name_cells"})
_SEQUENTIAL = "mindspore.nn.SequentialCell"
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
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in _LISTING or call.args:
            continue
        info = receivers.workspace_class(ctx, func.value)
        if info is not None and any(info.find_method(m) is not None for m in _LISTING):
            continue  # the class lists its sub-Cells its own way
        count = _sub_cell_count(ctx, func.value)
        if count is not None and count >= 2:
            owner = (
                "this Cell" if isinstance(func.value, ast.Name) else f"`{ast.unparse(func.value)}`"
            )
            yield SUB_CELLS_LISTED.finding(call, call=ast.unparse(call), owner=owner, count=count)


def _sub_cell_count(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """How many sub-Cells `self` (or `self.<sub-Cell>`) surely holds: attributes `__init__`
    sets to one Cell class only, or the Cells a SequentialCell attribute is built from."""
    if isinstance(expr, ast.Name):
        if expr.id != "self" or ctx.fn.cls is None:
            return None
        return _own_sub_cells(ctx, ctx.fn.cls)
    held = receivers.self_attr(ctx, expr)
    if held is None or held.kind != "cell" or held.class_qualname is None:
        return None
    if held.class_qualname == _SEQUENTIAL and isinstance(held.node, ast.Call):
        args = held.node.args
        if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            return len(args[0].elts)
        return len(args) if not any(isinstance(a, ast.Starred) for a in args) else None
    info = ctx.classes.resolve(held.class_qualname)
    return _own_sub_cells(ctx, info) if info is not None and info.is_cell else None


def _own_sub_cells(ctx: FunctionContext, info: ClassInfo) -> int:
    found: set[str] = set()
    for each in info.lineage():
        for name, attr in each.attrs.items():
            if attr.kind != "cell" or names.is_primitive_class(attr.class_qualname):
                continue
            if not info.attr_varies(name):
                found.add(name)
    return len(found)


def _is_cell(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.<sub-Cell>`, an item of a Cell container, or a loop variable over Cells."""
    if isinstance(expr, ast.Name) and expr.id != "self":
        return loop_over_cells(ctx, expr.id)
    return isinstance(expr, (ast.Attribute, ast.Subscript)) and (
        receivers.kind_of(ctx, expr) == receivers.CELL
    )


def loop_over_cells(ctx: FunctionContext, name: str) -> bool:
    """Every binding of `name` is the target of a `for` over a CellList/SequentialCell
    attribute or over a display of Cells, directly or as its item of `enumerate(...)` /
    `zip(...)` (`for i, layer in enumerate(self.layers)`)."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    if not stores:
        return False
    loops = 0
    for loop in ctx.of(ast.For):
        source = _iterated_for(loop.target, loop.iter, name)
        if source is None:
            continue
        loops += 1
        held = receivers.self_attr(ctx, source)
        if held is not None and held.kind == "cell" and held.class_qualname in _ITERATED:
            continue
        if isinstance(source, (ast.Tuple, ast.List)) and _all_cells_here(ctx, source):
            continue
        return False
    return loops == len(stores)


def _iterated_for(target: ast.expr, it: ast.expr, name: str) -> Optional[ast.expr]:
    """What the loop variable `name` takes its items from: the iterable itself, or the
    matching argument of `enumerate(seq)` / `zip(a, b, ...)` unpacked into a tuple target."""
    if isinstance(target, ast.Name):
        return it if target.id == name else None
    if not (isinstance(target, ast.Tuple) and isinstance(it, ast.Call)):
        return None
    if not isinstance(it.func, ast.Name) or it.keywords:
        return None
    args = it.args
    if it.func.id == "enumerate" and len(args) == 1 and len(target.elts) == 2:
        pairs = [(target.elts[1], args[0])]
    elif it.func.id == "zip" and len(args) == len(target.elts):
        pairs = list(zip(target.elts, args))
    else:
        return None
    for element, source in pairs:
        if isinstance(element, ast.Name) and element.id == name:
            return source
    return None


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
